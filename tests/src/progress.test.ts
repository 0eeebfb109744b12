import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ProgressController } from '../../src/components/layout/progress.ts'
import type { ProgressState } from '../../src/components/layout/progress.ts'

describe('navigation progress bar timing', () => {
  let states: ProgressState[]
  let bar: ProgressController
  const last = () => states[states.length - 1]

  beforeEach(() => {
    vi.useFakeTimers()
    states = []
    bar = new ProgressController((s) => states.push(s))
  })
  afterEach(() => {
    bar.dispose()
    vi.useRealTimers()
  })

  it('never shows for navigations shorter than the 200 ms throttle', () => {
    bar.start()
    vi.advanceTimersByTime(199)
    bar.finish()
    vi.advanceTimersByTime(1000)
    expect(states).toEqual([])
  })

  it('appears after 200 ms and grows each 100 ms tick towards 100 % over 5 s', () => {
    bar.start()
    vi.advanceTimersByTime(200)
    expect(last()).toEqual({ visible: true, value: 0 })
    vi.advanceTimersByTime(100)
    expect(last()!.value).toBeCloseTo(2)
    vi.advanceTimersByTime(2400)
    expect(last()!.value).toBeCloseTo(50)
    vi.advanceTimersByTime(10_000)
    expect(last()!.value).toBe(100)
  })

  it('fills up on finish and hides 500 ms later', () => {
    bar.start()
    vi.advanceTimersByTime(700)
    bar.finish()
    expect(last()).toEqual({ visible: true, value: 100 })
    vi.advanceTimersByTime(499)
    expect(last()!.visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(last()).toEqual({ visible: false, value: 0 })
  })

  it('ignores a second start while running', () => {
    bar.start()
    bar.start()
    vi.advanceTimersByTime(300)
    expect(states.filter((s) => s.value === 0 && s.visible)).toHaveLength(1)
  })
})
