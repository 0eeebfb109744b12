// What a dialled or calling number is, in Brazilian numbering (the product's market): the reach a device's `context`
// allows (toll-fraud rule), the area code and the phone type of a call record. A device's context is a ceiling:
// internal < local < national < international.

export const CONTEXTS = ['internal', 'local', 'national', 'international'] as const
export type Reach = (typeof CONTEXTS)[number]

const digitsOf = (number: string) => number.replace(/[^\d+]/g, '')

/**
 * internal: an extension (up to 5 digits); international: '+' or '00'; national: '0' then a carrier/area code, or a
 * 10-11 digit number with its area code; local: anything else (8-9 digit numbers, 3-4 digit public services).
 */
export function reachOf(number: string): Reach {
  const n = digitsOf(number)
  if (n.startsWith('+') || n.startsWith('00')) return n.startsWith('+55') ? 'national' : 'international'
  if (/^\d{1,5}$/.test(n) && !n.startsWith('0') && n.length >= 4) return 'internal'
  if (n.startsWith('0')) return 'national'
  if (n.length >= 10) return 'national'
  return 'local'
}

/** Whether a device whose context is `context` may call `number`. An unknown context allows extensions only. */
export function contextAllows(context: string, number: string): boolean {
  const ceiling = CONTEXTS.indexOf(context as Reach)
  return CONTEXTS.indexOf(reachOf(number)) <= Math.max(0, ceiling)
}

/**
 * The national significant number (area code + subscriber) of a Brazilian number in any usual form: +55 11 9…,
 * 55119…, 0 XX 11 9… (with a carrier code), 011 9…, 11 9…; null when it is not one (local, extension, foreign).
 */
export function nationalNumber(number: string): string | null {
  let n = digitsOf(number).replace(/^\+/, '')
  if (n.startsWith('00')) return null
  if (n.startsWith('55') && (n.length === 12 || n.length === 13)) n = n.slice(2)
  else if (n.startsWith('0') && (n.length === 13 || n.length === 14)) n = n.slice(3)
  else if (n.startsWith('0') && (n.length === 11 || n.length === 12)) n = n.slice(1)
  return /^[1-9]\d{9,10}$/.test(n) ? n : null
}

export function areaCodeOf(number: string): string {
  return nationalNumber(number)?.slice(0, 2) ?? ''
}

/** mobile (9 digits starting with 9 after the area code), landline, or '' when unknown. */
export function phoneTypeOf(number: string): 'mobile' | 'landline' | '' {
  const n = nationalNumber(number)
  if (!n) return ''
  return n.length === 11 && n[2] === '9' ? 'mobile' : 'landline'
}
