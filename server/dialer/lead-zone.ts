import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { canonicalPhone, DEFAULT_PHONE_COUNTRY } from '../../contract/phone.ts'
import { isTimeZone } from './zoned.ts'

// The lead's time zone (issue 18 "calling windows … per lead's time zone"): the clock a calendar's hours are read on
// (rules.ts mayDial). Pure. In order:
//  1. the lead's own field (`data.timezone`, also `time_zone` or `fuso_horario` as an import layout may name it), when
//     it is an IANA zone the platform knows;
//  2. from the number: Brazil by its area code (DDD) — each state's IANA zone, Fernando de Noronha by its exchange
//     (81 3619) —, another country by libphonenumber-js's country and COUNTRY_ZONES (one zone per country: the capital's
//     or the most populous one's for countries spanning several);
//  3. the fallback given (the calendar's zone), else America/Sao_Paulo.

/** Brazil's area codes (DDD) by IANA zone. Since 2019 Brazil keeps no DST; the zones carry the past rules. */
const BRAZIL_ZONES: Record<string, string[]> = {
  'America/Sao_Paulo': [
    '11',
    '12',
    '13',
    '14',
    '15',
    '16',
    '17',
    '18',
    '19',
    '21',
    '22',
    '24',
    '27',
    '28',
    '31',
    '32',
    '33',
    '34',
    '35',
    '37',
    '38',
    '41',
    '42',
    '43',
    '44',
    '45',
    '46',
    '47',
    '48',
    '49',
    '51',
    '53',
    '54',
    '55',
    '61',
    '62',
    '64',
  ],
  'America/Bahia': ['71', '73', '74', '75', '77'],
  'America/Maceio': ['79', '82'],
  'America/Recife': ['81', '87'],
  'America/Fortaleza': ['83', '84', '85', '86', '88', '89', '98', '99'],
  'America/Belem': ['91', '93', '94', '96'],
  'America/Araguaina': ['63'],
  'America/Campo_Grande': ['67'],
  'America/Cuiaba': ['65', '66'],
  'America/Porto_Velho': ['69'],
  'America/Boa_Vista': ['95'],
  // 97 also covers western Amazonas (Eirunepé, UTC−5); most of its lines are on Manaus time (Tefé, Coari).
  'America/Manaus': ['92', '97'],
  'America/Rio_Branco': ['68'],
}
const BY_DDD = new Map(Object.entries(BRAZIL_ZONES).flatMap(([zone, codes]) => codes.map((code) => [code, zone] as const)))
/** Fernando de Noronha shares Pernambuco's 81; its landlines are (81) 3619-xxxx. */
const NORONHA = /^55813619\d{4}$/

/** A zone per country (ISO 3166 alpha-2). Several-zone countries: the capital's or most populous one's (override per lead). */
export const COUNTRY_ZONES: Record<string, string> = {
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BO: 'America/La_Paz',
  CA: 'America/Toronto',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  CO: 'America/Bogota',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  IN: 'Asia/Kolkata',
  IT: 'Europe/Rome',
  JP: 'Asia/Tokyo',
  MX: 'America/Mexico_City',
  NL: 'Europe/Amsterdam',
  PE: 'America/Lima',
  PT: 'Europe/Lisbon',
  PY: 'America/Asuncion',
  US: 'America/New_York',
  UY: 'America/Montevideo',
  VE: 'America/Caracas',
  AO: 'Africa/Luanda',
  MZ: 'Africa/Maputo',
}

const LEAD_FIELDS = ['timezone', 'time_zone', 'fuso_horario'] as const

/** Where the zone came from (the pacing log and tests show it). */
export type LeadZone = { zone: string; source: 'lead' | 'area_code' | 'country' | 'fallback' }

/** The zone of a Brazilian number by its DDD (null for another country or an unknown code). */
export function brazilZone(digits: string): string | null {
  if (!digits.startsWith('55') || digits.length < 12) return null
  if (NORONHA.test(digits)) return 'America/Noronha'
  return BY_DDD.get(digits.slice(2, 4)) ?? null
}

/** The lead's time zone for `phone` (see the file's comment for the order). */
export function leadTimeZone(input: { phone: string; data?: Record<string, unknown> | null; fallback?: string | null }): LeadZone {
  for (const field of LEAD_FIELDS) {
    const value = input.data?.[field]
    if (typeof value === 'string' && isTimeZone(value.trim())) return { zone: value.trim(), source: 'lead' }
  }
  const digits = canonicalPhone(input.phone, { defaultCountry: DEFAULT_PHONE_COUNTRY })
  const brazil = brazilZone(digits)
  if (brazil) return { zone: brazil, source: 'area_code' }
  if (digits && !digits.startsWith('55')) {
    const country = parsePhoneNumberFromString(`+${digits}`)?.country
    const zone = country ? COUNTRY_ZONES[country] : undefined
    if (zone) return { zone, source: 'country' }
  }
  return { zone: isTimeZone(input.fallback) ? input.fallback : 'America/Sao_Paulo', source: 'fallback' }
}
