import { describe, expect, it } from 'vitest'
import { dayjs, formatDate, formatDateTime, parseDateInput } from '../../contract/format/index.ts'

// Local-time values throughout, so the tests hold in any TZ.
const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s)

describe('formatDateTime', () => {
  it("shows 'DD/MM/YYYY HH:mm:ss' with a 24-hour clock", () => {
    expect(formatDateTime(local(2024, 1, 5, 13, 4, 5))).toBe('05/01/2024 13:04:05')
    expect(formatDateTime(local(2025, 12, 31, 23, 59, 59))).toBe('31/12/2025 23:59:59')
    expect(formatDateTime(local(2025, 4, 22, 0, 0, 0))).toBe('22/04/2025 00:00:00')
  })

  it('reads ISO strings, epoch milliseconds and dayjs values', () => {
    expect(formatDateTime('2024-01-05T13:04:05')).toBe('05/01/2024 13:04:05')
    expect(formatDateTime('2024-01-05 13:04:05.123456')).toBe('05/01/2024 13:04:05')
    expect(formatDateTime(local(2024, 1, 5, 13, 4, 5).getTime())).toBe('05/01/2024 13:04:05')
    expect(formatDateTime(dayjs(local(2024, 1, 5, 13, 4, 5)))).toBe('05/01/2024 13:04:05')
  })

  it('converts an instant with an offset to local time', () => {
    const instant = new Date(Date.UTC(2024, 0, 5, 12, 0, 0))
    const expected = formatDateTime(local(instant.getFullYear(), instant.getMonth() + 1, instant.getDate(), instant.getHours(), instant.getMinutes()))
    expect(formatDateTime('2024-01-05T12:00:00Z')).toBe(expected)
    expect(formatDateTime('2024-01-05T09:00:00-03:00')).toBe(expected)
  })

  it('reads a date alone as local midnight', () => {
    expect(formatDateTime('2024-01-05')).toBe('05/01/2024 00:00:00')
  })

  it("returns '' for absent or invalid values instead of guessing", () => {
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime(undefined)).toBe('')
    expect(formatDateTime('')).toBe('')
    expect(formatDateTime('not a date')).toBe('')
    expect(formatDateTime('2024-02-31T10:00:00')).toBe('')
    expect(formatDateTime('2024-01-05T25:00:00')).toBe('')
    expect(formatDateTime(new Date(Number.NaN))).toBe('')
    expect(formatDateTime(Number.NaN)).toBe('')
  })
})

describe('formatDate', () => {
  it("shows 'DD/MM/YYYY'", () => {
    expect(formatDate(local(2024, 2, 29, 18, 30))).toBe('29/02/2024')
    expect(formatDate('2024-01-05T13:04:05')).toBe('05/01/2024')
    expect(formatDate('05/01/24')).toBe('05/01/2024')
    expect(formatDate(null)).toBe('')
    expect(formatDate('2024-13-01')).toBe('')
  })
})

describe('parseDateInput', () => {
  const ymd = (value: string) => parseDateInput(value)?.format('YYYY-MM-DD HH:mm:ss')

  it.each([
    ['2024-01-05', 'yyyy-MM-dd'],
    ['24-01-05', 'yy-MM-dd'],
    ['05/01/2024', 'dd/MM/yyyy'],
    ['05/01/24', 'dd/MM/yy'],
  ])('accepts %s (%s) as 5 January 2024, local midnight', (text) => {
    expect(ymd(text)).toBe('2024-01-05 00:00:00')
  })

  it('reads day before month in the slashed formats', () => {
    expect(ymd('12/03/2024')).toBe('2024-03-12 00:00:00')
    expect(ymd('31/12/99')).toBe('1999-12-31 00:00:00')
  })

  it('accepts leap days that exist', () => {
    expect(ymd('29/02/2024')).toBe('2024-02-29 00:00:00')
    expect(ymd('24-02-29')).toBe('2024-02-29 00:00:00')
  })

  it('ignores surrounding spaces', () => {
    expect(ymd(' 2024-01-05 ')).toBe('2024-01-05 00:00:00')
  })

  it.each([
    '2024-13-01',
    '31/02/2024',
    '2024/01/01',
    '29/02/2023',
    '23-02-29',
    '2024-00-10',
    '00/01/2024',
    '2024-1-5',
    '5/1/2024',
    '01-05-2024',
    '2024-01-05T10:00:00',
    '05.01.2024',
    '20240105',
    'hoje',
    '',
    '   ',
  ])('rejects %j', (text) => {
    expect(parseDateInput(text)).toBeNull()
  })

  it('rejects absent input', () => {
    expect(parseDateInput(null)).toBeNull()
    expect(parseDateInput(undefined)).toBeNull()
  })
})
