import { dayjs } from '../../../app/dates.ts'

/** The browser's picker for a value: its input type, the value format that input uses, and its step in seconds. */
export type Picker = { readonly type: 'datetime-local' | 'date' | 'time'; readonly inputFormat: string; readonly step: number }

const DATE_TIME_PICKER: Picker = { type: 'datetime-local', inputFormat: 'YYYY-MM-DDTHH:mm:ss', step: 1 }

/**
 * The picker for a field's date format: a date input when the format names no time, a time input when it names no
 * date, else date and time; to the second (the spec's step of 1 s) unless the format leaves seconds out.
 */
export function pickerOf(format?: string): Picker {
  if (!format) return DATE_TIME_PICKER
  const tokens = format.replace(/\[[^\]]*\]/g, '')
  const date = /[YMD]/.test(tokens)
  const time = /[Hhms]/.test(tokens)
  const step = /s/.test(tokens) ? 1 : 60
  if (date && !time) return { type: 'date', inputFormat: 'YYYY-MM-DD', step: 1 }
  if (time && !date) return { type: 'time', inputFormat: 'HH:mm:ss', step }
  return { ...DATE_TIME_PICKER, step }
}

/**
 * A stored value as the picker's value: an ISO date-time (from the API), or with a format the text in that format
 * (parsed strictly); '' when it cannot be shown.
 */
export function toLocalInput(value: unknown, format?: string): string {
  if (typeof value !== 'string' || !value) return ''
  const d = format ? dayjs(value, format, true) : dayjs(value)
  return d.isValid() ? d.format(pickerOf(format).inputFormat) : ''
}

/** A picker's value as sent: ISO 8601 with the browser's offset, or the text in the field's format. */
export function fromLocalInput(local: string, format?: string): string {
  if (!local) return ''
  // A time input leaves the seconds out when they are 0.
  const d = pickerOf(format).type === 'time' ? dayjs(local, ['HH:mm:ss', 'HH:mm'], true) : dayjs(local)
  return d.isValid() ? d.format(format ?? 'YYYY-MM-DDTHH:mm:ssZ') : local
}

/** The default schedule of a classification that enables scheduling: one hour from now (spec 000 §5). */
export function defaultSchedule(now = Date.now(), minutes = 60): string {
  return dayjs(now).add(minutes, 'minute').second(0).format('YYYY-MM-DDTHH:mm:ssZ')
}
