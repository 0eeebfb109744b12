import { describe, expect, it } from 'vitest'
import { LogLimiter } from '../../server/telephony/engines/supervisor.ts'

// An engine's output reaches the server's log through a cap (issue 10 item 11: a garbage flood made Kamailio print
// 137 k lines in 10 s and the server spent 40 % of a core logging them).

describe("the engines' log cap", () => {
  it('passes a burst of perSecond lines, leaves out the rest of a flood, and says how many when logging resumes', () => {
    let now = 0
    const limiter = new LogLimiter({ perSecond: 100, reportMs: 10_000, now: () => now })
    const reports: number[] = []
    const report = (dropped: number) => reports.push(dropped)
    // 137 000 lines in 10 s.
    let passed = 0
    for (let i = 0; i < 137_000; i++) {
      now = Math.floor((i / 137_000) * 10_000)
      if (limiter.take(report)) passed++
    }
    // About 100 a second (plus the first burst), not 13 700.
    expect(passed).toBeGreaterThan(900)
    expect(passed).toBeLessThan(1300)
    // While the flood lasts, a report at most every 10 s; the left-out lines are all counted.
    now = 20_000
    expect(limiter.take(report)).toBe(true)
    expect(reports.reduce((a, b) => a + b, 0)).toBe(137_000 - passed)
    expect(reports.length).toBeLessThanOrEqual(2)
  })

  it('leaves a quiet engine alone', () => {
    let now = 0
    const limiter = new LogLimiter({ perSecond: 100, now: () => now })
    const reports: number[] = []
    for (let i = 0; i < 1000; i++) {
      now = i * 20
      expect(limiter.take((n) => reports.push(n))).toBe(true)
    }
    expect(reports).toEqual([])
  })
})
