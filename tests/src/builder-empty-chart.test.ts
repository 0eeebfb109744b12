import { describe, expect, it } from 'vitest'
import type { BuilderResult } from '../../contract/api/builder.ts'
import { isEmptyChart } from '../../src/features/builder/BuilderPageView.tsx'

const result = (total: number | null, groups: { label: string; value: number | null }[]): BuilderResult => ({
  dataset: 'calls',
  measure: { key: 'count', label: 'Quantidade', kind: 'number' },
  group: { key: 'state', label: 'Estado' },
  total,
  groups,
  from: '2026-11-23T03:00:00.000Z',
  to: '2026-11-30T03:00:00.000Z',
})

describe('a builder chart with nothing to draw', () => {
  it('says so when there is no group and no total, whatever the chart', () => {
    for (const type of ['bar', 'line', 'pie'] as const) expect(isEmptyChart(type, result(0, []))).toBe(true)
    expect(isEmptyChart('bar', result(null, []))).toBe(true)
  })
  it('draws a total without groups (one bar or slice)', () => {
    expect(isEmptyChart('bar', result(4, []))).toBe(false)
    expect(isEmptyChart('pie', result(4, []))).toBe(false)
  })
  it('says so for a pie whose slices are all zero, but keeps bars and lines of zero days', () => {
    const zeros = result(0, [
      { label: '2026-11-28', value: 0 },
      { label: '2026-11-29', value: 0 },
    ])
    expect(isEmptyChart('pie', zeros)).toBe(true)
    expect(isEmptyChart('bar', zeros)).toBe(false)
    expect(isEmptyChart('line', zeros)).toBe(false)
    expect(
      isEmptyChart(
        'pie',
        result(1, [
          { label: 'closed', value: 1 },
          { label: 'open', value: 0 },
        ]),
      ),
    ).toBe(false)
  })
})
