import { describe, expect, it } from 'vitest'
import { formatDuration } from '../../contract/format/index.ts'

describe('formatDuration', () => {
  it.each([
    [0, '00:00:00'],
    [1, '00:00:01'],
    [59, '00:00:59'],
    [60, '00:01:00'],
    [3599, '00:59:59'],
    [3600, '01:00:00'],
    [86399, '23:59:59'],
    [90061, '25:01:01'],
    [360000, '100:00:00'],
  ])('shows %i s as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text)
  })

  it('drops fractions of a second', () => {
    expect(formatDuration(59.9)).toBe('00:00:59')
  })

  it('reads numeric strings', () => {
    expect(formatDuration('3600')).toBe('01:00:00')
  })

  it.each([-1, -3600, Number.NaN, Number.POSITIVE_INFINITY, 'abc', null, undefined])('shows %s as 00:00:00', (value) => {
    expect(formatDuration(value)).toBe('00:00:00')
  })
})
