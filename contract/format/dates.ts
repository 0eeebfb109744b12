import { dayjs, type Dayjs } from './dayjs.ts'

// Spec 000 §9 — display formats and the date formats a user may type.
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm:ss'
export const DATE_FORMAT = 'DD/MM/YYYY'
/** yyyy-MM-dd, yy-MM-dd, dd/MM/yyyy, dd/MM/yy in dayjs tokens. Two-digit years 69-99 are 19xx, 00-68 are 20xx. */
export const DATE_INPUT_FORMATS = ['YYYY-MM-DD', 'YY-MM-DD', 'DD/MM/YYYY', 'DD/MM/YY'] as const

/** What the helpers accept: server ISO strings, epoch milliseconds, Date and Dayjs. */
export type DateValue = string | number | Date | Dayjs | null | undefined

// An ISO date-time as the server sends it; time fields are range-checked here because the engines roll 25:00 over
// into the next day instead of refusing it.
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * Strictly parses a typed date (one of DATE_INPUT_FORMATS, surrounding spaces ignored) to local midnight; null when
 * the text is in another format or names no calendar day ('2024-13-01', '31/02/2024').
 */
export function parseDateInput(text: string | null | undefined): Dayjs | null {
  const value = text?.trim()
  if (!value) return null
  for (const format of DATE_INPUT_FORMATS) {
    const parsed = dayjs(value, format, true)
    if (parsed.isValid()) return parsed
  }
  return null
}

/** A valid Dayjs for a value, or null. Strings must be ISO date-times or one of the typed date formats. */
export function toDayjs(value: DateValue): Dayjs | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'string') return parseDateString(value.trim())
  const parsed = dayjs(value)
  return parsed.isValid() ? parsed : null
}

function parseDateString(value: string): Dayjs | null {
  const iso = ISO_DATE_TIME.exec(value)
  if (!iso) return parseDateInput(value)
  // The calendar day must exist: '2024-02-31T10:00' is refused, not moved to 2 March.
  if (!dayjs(iso[1], 'YYYY-MM-DD', true).isValid()) return null
  const parsed = dayjs(value)
  return parsed.isValid() ? parsed : null
}

/** 'DD/MM/YYYY HH:mm:ss' in local time; '' for null or invalid. */
export function formatDateTime(value: DateValue): string {
  return toDayjs(value)?.format(DATE_TIME_FORMAT) ?? ''
}

/** 'DD/MM/YYYY' in local time; '' for null or invalid. */
export function formatDate(value: DateValue): string {
  return toDayjs(value)?.format(DATE_FORMAT) ?? ''
}
