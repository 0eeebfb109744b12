import { dayjs } from '../../../app/dates.ts'

/** An ISO date-time (from the API) as a datetime-local input's value, with seconds (the spec's step of 1 s). */
export function toLocalInput(value: unknown): string {
  if (typeof value !== 'string' || !value) return ''
  const d = dayjs(value)
  return d.isValid() ? d.format('YYYY-MM-DDTHH:mm:ss') : ''
}

/** A datetime-local value as ISO 8601 with the browser's offset (what the schema and the server read). */
export function fromLocalInput(local: string): string {
  if (!local) return ''
  const d = dayjs(local)
  return d.isValid() ? d.format('YYYY-MM-DDTHH:mm:ssZ') : local
}

/** The default schedule of a classification that enables scheduling: one hour from now (spec 000 §5). */
export function defaultSchedule(now = Date.now(), minutes = 60): string {
  return dayjs(now).add(minutes, 'minute').second(0).format('YYYY-MM-DDTHH:mm:ssZ')
}
