import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BuilderMenu } from '../../contract/api/builder.ts'
import { throttle } from '../../src/features/builder/liveRefresh.ts'
import { builderMenuItems } from '../../src/features/builder/builderMenu.ts'

// The builder page's socket-driven refresh (at most once per interval, the last change never lost) and the side
// menu's sub-categories.

describe('the live refresh throttle', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('runs at once on the first change, once more at the end of the window for a burst, then at once again', () => {
    const run = vi.fn()
    const throttled = throttle(run, 5000)
    throttled.call()
    expect(run).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 20; i++) throttled.call()
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(4999)
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(run).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(10_000)
    throttled.call()
    expect(run).toHaveBeenCalledTimes(3)
  })

  it('with a delay, runs that long after a change, and once more for a change too close before a run', () => {
    const run = vi.fn()
    const throttled = throttle(run, 5000, Date.now, 2250)
    throttled.call() // t = 0
    vi.advanceTimersByTime(2249)
    expect(run).toHaveBeenCalledTimes(0)
    vi.advanceTimersByTime(1) // t = 2250: the first run
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(50)
    throttled.call() // t = 2300: the next run at the window's end, 7250
    vi.advanceTimersByTime(4200)
    throttled.call() // t = 6500: 750 ms before that run, which may read a result computed before this change
    vi.advanceTimersByTime(749)
    expect(run).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1) // t = 7250
    expect(run).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(4999)
    expect(run).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(1) // t = 12250: once more, for the change at 6500
    expect(run).toHaveBeenCalledTimes(3)
    vi.advanceTimersByTime(20_000)
    expect(run).toHaveBeenCalledTimes(3)
  })

  it('under changes that never stop, still runs once per window (never starved)', () => {
    const run = vi.fn()
    const throttled = throttle(run, 5000, Date.now, 2250)
    for (let t = 0; t < 30_000; t += 100) {
      throttled.call()
      vi.advanceTimersByTime(100)
    }
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(5)
    expect(run.mock.calls.length).toBeLessThanOrEqual(7)
  })

  it('drops the pending run when cancelled (the page left)', () => {
    const run = vi.fn()
    const throttled = throttle(run, 1000)
    throttled.call()
    throttled.call()
    throttled.cancel()
    vi.advanceTimersByTime(5000)
    expect(run).toHaveBeenCalledTimes(1)
  })
})

describe('the builder menu', () => {
  it('nests sub-categories under their category, pages first', () => {
    const menu: BuilderMenu = {
      home: null,
      menus: [
        {
          id: 1,
          kind: 'reports',
          title: 'Operação',
          pages: [{ id: 9, kind: 'reports', title: 'Resumo' }],
          categories: [
            {
              id: 2,
              title: 'Filas',
              pages: [{ id: 10, kind: 'reports', title: 'Todas as filas' }],
              categories: [{ id: 3, title: 'Suporte', pages: [{ id: 11, kind: 'reports', title: 'Suporte por hora' }], categories: [] }],
            },
          ],
        },
      ],
    }
    const [group] = builderMenuItems(menu).reports
    expect(group!.children!.map((c) => c.id)).toEqual(['builder-page-reports-9', 'builder-category-reports-2'])
    const category = group!.children![1]!
    expect(category.children!.map((c) => c.id)).toEqual(['builder-page-reports-10', 'builder-category-reports-3'])
    expect(category.children![1]!.children!.map((c) => [c.id, c.params])).toEqual([['builder-page-reports-11', { id: '11' }]])
  })
})
