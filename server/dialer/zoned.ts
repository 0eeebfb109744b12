// Wall-clock arithmetic in IANA time zones with Intl only (no dayjs): Intl.DateTimeFormat reads the platform's tz
// database, which is what makes calling windows DST-correct. Two directions:
//  - wallOf(instant, zone): the local date and time an instant shows on a clock in the zone;
//  - instantOf(wall, zone): the instant a local wall-clock time names. A time inside a spring-forward gap (02:30 on the
//    day New York jumps from 02:00 to 03:00) moves forward by the gap (03:30 EDT); a time repeated by a fall-back
//    overlap takes its first occurrence. This is Temporal's 'compatible' disambiguation.

export type Wall = {
  year: number
  /** 1–12 */
  month: number
  day: number
  hour: number
  minute: number
  second: number
  /** 0 = Sunday … 6 = Saturday (the calendars entity's weekday values). */
  weekday: number
}

const FORMATS = new Map<string, Intl.DateTimeFormat>()
const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

/** Whether the platform knows the IANA zone name. */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false
  try {
    formatFor(zone)
    return true
  } catch {
    return false
  }
}

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = FORMATS.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      hourCycle: 'h23',
    })
    FORMATS.set(zone, format)
  }
  return format
}

export function wallOf(at: Date | number, zone: string): Wall {
  const parts: Record<string, string> = {}
  for (const part of formatFor(zone).formatToParts(at)) parts[part.type] = part.value
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAY[parts.weekday ?? 'Sun'] ?? 0,
  }
}

/** The wall-clock time as if it were UTC, in ms: a number that orders local times and does date arithmetic. */
export function wallMs(wall: Omit<Wall, 'weekday'>): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
}

/** The zone's offset from UTC at an instant, in ms (São Paulo: −3 h). */
export function offsetAt(at: number, zone: string): number {
  return wallMs(wallOf(at, zone)) - Math.floor(at / 1000) * 1000
}

/** The instant a wall-clock time (given as wallMs) names in the zone ('compatible' disambiguation, see above). */
export function instantOf(localMs: number, zone: string): number {
  // The offsets a day before and after (zones change offset at most once a day): each gives a candidate instant; the
  // candidates whose clock shows the wall time are its occurrences (two in a fall-back overlap: take the first).
  const before = offsetAt(localMs - DAY, zone)
  const after = offsetAt(localMs + DAY, zone)
  const occurrences = [...new Set([localMs - before, localMs - after])].filter((at) => wallMs(wallOf(at, zone)) === localMs)
  if (occurrences.length > 0) return Math.min(...occurrences)
  // A spring-forward gap: the time read with the offset before the jump lands after it, pushed forward by the gap.
  return localMs - before
}

const DAY = 86_400_000
