// Whether a business-hours calendar (service.calendars) is open at an instant: open on a weekday row whose start ≤ the
// local time < end (in the calendar's time zone; an end before the start runs past midnight), unless a holiday
// covers the instant (a yearly holiday repeats on the same dates every year). No hour rows = always open.

export type CalendarHours = {
  weekday: number | null
  start: string
  end: string
}
export type CalendarHoliday = {
  start: Date | null
  end: Date | null
  yearly: boolean
}
export type CalendarSpec = {
  timezone: string
  hours: readonly CalendarHours[]
  holidays: readonly CalendarHoliday[]
}

const WEEKDAY_INDEX: Record<string, number> = {
  Sun: 0,
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
}

function localParts(at: Date, timezone: string): { weekday: number; minutes: number } {
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
  } catch {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]))
  return {
    weekday: WEEKDAY_INDEX[parts.weekday ?? 'Sun'] ?? 0,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  }
}

function minutesOf(hhmm: string): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(hhmm)
  return match ? Number(match[1]) * 60 + Number(match[2]) : null
}

function inHoliday(at: Date, holiday: CalendarHoliday): boolean {
  if (!holiday.start || !holiday.end) return false
  if (!holiday.yearly) return at >= holiday.start && at < holiday.end
  // Yearly: the same span moved to the instant's year (and the year before, for a span across New Year).
  const years = holiday.end.getUTCFullYear() - holiday.start.getUTCFullYear()
  for (const year of [at.getUTCFullYear(), at.getUTCFullYear() - 1]) {
    const start = new Date(holiday.start)
    start.setUTCFullYear(year)
    const end = new Date(holiday.end)
    end.setUTCFullYear(year + years)
    if (at >= start && at < end) return true
  }
  return false
}

export function isOpen(calendar: CalendarSpec, at: Date): boolean {
  if (calendar.holidays.some((h) => inHoliday(at, h))) return false
  if (calendar.hours.length === 0) return true
  const { weekday, minutes } = localParts(at, calendar.timezone)
  const previous = (weekday + 6) % 7
  return calendar.hours.some((row) => {
    const start = minutesOf(row.start)
    const end = minutesOf(row.end)
    if (start === null || end === null || row.weekday === null) return false
    if (start < end) return row.weekday === weekday && minutes >= start && minutes < end
    // Overnight: from start on its day to end on the next.
    return (row.weekday === weekday && minutes >= start) || (row.weekday === previous && minutes < end)
  })
}
