// Outbound routes' dial patterns (contract/entities/pabx-routes.ts): comma-separated, each matched against the whole
// dialled number. X = 0-9, Z = 1-9, N = 2-9, [1-5] / [135] / [1-35-7] = a set, '.' = one or more of anything, '!' = zero
// or more of anything; any other digit, '*', '#' or '+' stands for itself. Letters are case-insensitive ('x' = 'X').

const CLASSES: Record<string, string> = { X: '[0-9]', Z: '[1-9]', N: '[2-9]' }

/** The regular expression of one pattern, or null when the pattern is malformed (such a pattern matches nothing). */
export function compilePattern(pattern: string): RegExp | null {
  const text = pattern.trim().replace(/^_/, '')
  if (text === '') return null
  let source = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    const upper = c.toUpperCase()
    if (CLASSES[upper]) source += CLASSES[upper]
    else if (c === '.') source += '.+'
    else if (c === '!') source += '.*'
    else if (c === '[') {
      const end = text.indexOf(']', i)
      if (end < 0) return null
      const body = text.slice(i + 1, end)
      if (!/^(\d(-\d)?)+$/.test(body)) return null
      source += `[${body}]`
      i = end
    } else if (/[0-9*#+]/.test(c)) source += c === '*' || c === '+' ? `\\${c}` : c
    else return null
  }
  return new RegExp(`^${source}$`)
}

/** The patterns of a route (its comma-separated `dial_patterns`), compiled; malformed ones are left out. */
export function compilePatterns(patterns: string): RegExp[] {
  return patterns
    .split(',')
    .map(compilePattern)
    .filter((p): p is RegExp => p !== null)
}

export function matchesAny(patterns: string, number: string): boolean {
  return compilePatterns(patterns).some((re) => re.test(number))
}

/** The number sent to a trunk: `strip` leading digits removed, then `prefix` added. */
export function rewriteNumber(number: string, strip: number, prefix: string): string {
  return `${prefix}${number.slice(Math.max(0, Math.min(strip, number.length)))}`
}
