import dayjs from 'dayjs'

// The one date formatter (spec 000 §9: DD/MM/YYYY HH:mm:ss).
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH:mm:ss'

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = dayjs(value)
  return date.isValid() ? date.format(DATE_TIME_FORMAT) : '—'
}
