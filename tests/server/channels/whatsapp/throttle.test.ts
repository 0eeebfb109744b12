import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SendThrottle, type ThrottleDecision } from '../../../../server/channels/whatsapp/throttle.ts'

// QUALITY.md test 8 (the rule): per-number and per-customer rates, back-off on 130429 and 131056, and every message
// eventually told "send now" (nothing dropped). Time is a fake clock.

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t }
  return c
}

/** Sends `count` messages through the throttle, each retried at the time it is told, and returns when each went out. */
function drain(throttle: SendThrottle, c: { t: number }, jobs: { number: string; to: string }[]): number[] {
  const pending = jobs.map((j, i) => ({ ...j, i, at: c.t }))
  const sentAt: number[] = []
  let guard = 0
  while (pending.length) {
    if (++guard > 1_000_000) throw new Error('never drained')
    pending.sort((a, b) => a.at - b.at || a.i - b.i)
    const job = pending[0]
    c.t = Math.max(c.t, job.at)
    const d: ThrottleDecision = throttle.take(job.number, job.to)
    if (d.sendNow) {
      sentAt[job.i] = c.t
      pending.shift()
    } else {
      expect(d.retryAt).toBeGreaterThan(c.t)
      job.at = d.retryAt
    }
  }
  return sentAt
}

describe('outbound throttle', () => {
  it('lets a business number send 80 messages at once, then 80 per second', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now })
    const jobs = Array.from({ length: 240 }, (_, i) => ({ number: 'N1', to: `55119${String(i).padStart(8, '0')}` }))
    const sentAt = drain(t, c, jobs)
    const start = sentAt[0]
    expect(sentAt.filter((s) => s === start)).toHaveLength(80)
    // 240 messages: 80 at once, the other 160 at 80/s → the last about 2 s later.
    expect(Math.max(...sentAt) - start).toBeGreaterThanOrEqual(1990)
    expect(Math.max(...sentAt) - start).toBeLessThanOrEqual(2010)
    // In any 1 s window no more than 80 + 80 (burst plus refill).
    for (const s of sentAt) expect(sentAt.filter((x) => x >= s && x < s + 1000).length).toBeLessThanOrEqual(160)
  })

  it('honours a per-channel rate', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now })
    const decisions = Array.from({ length: 25 }, (_, i) => t.take('N2', `to${i}`, { perSecond: 20 }))
    expect(decisions.filter((d) => d.sendNow)).toHaveLength(20)
    const held = decisions[20] as { sendNow: false; retryAt: number }
    expect(held.retryAt - c.t).toBe(50)
  })

  it('keeps to one customer at about one message per 6 s after the burst allowance', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now, defaults: { pairBurst: 3 } })
    const sentAt = drain(
      t,
      c,
      Array.from({ length: 6 }, () => ({ number: 'N1', to: 'C1' })),
    )
    const start = sentAt[0]
    expect(sentAt.map((s) => s - start)).toEqual([0, 0, 0, 6000, 12000, 18000])
    // Another customer of the same number is not held back.
    expect(t.take('N1', 'C2')).toEqual({ sendNow: true })
  })

  it('backs the whole number off on 130429, doubling while it repeats, and starts over after a success', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now })
    expect(t.rateLimited('N1', 'C1', 130429)).toBe(c.t + 1000)
    expect(t.take('N1', 'C9')).toEqual({ sendNow: false, retryAt: c.t + 1000 })
    c.t += 1000
    expect(t.rateLimited('N1', 'C1', 130429)).toBe(c.t + 2000)
    c.t += 2000
    expect(t.rateLimited('N1', 'C1', 130429)).toBe(c.t + 4000)
    c.t += 4000
    expect(t.take('N1', 'C9').sendNow).toBe(true)
    t.succeeded('N1', 'C9')
    expect(t.rateLimited('N1', 'C1', 130429)).toBe(c.t + 1000)
    // Other numbers are untouched.
    expect(t.take('N2', 'C1').sendNow).toBe(true)
  })

  it('backs a customer off 4^X seconds on 131056, other customers unaffected, Retry-After honoured', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now })
    expect(t.rateLimited('N1', 'C1', 131056)).toBe(c.t + 4_000)
    c.t += 4_000
    expect(t.rateLimited('N1', 'C1', 131056)).toBe(c.t + 16_000)
    c.t += 16_000
    expect(t.rateLimited('N1', 'C1', 131056)).toBe(c.t + 64_000)
    expect(t.take('N1', 'C1')).toEqual({ sendNow: false, retryAt: c.t + 64_000 })
    expect(t.take('N1', 'C2').sendNow).toBe(true)
    expect(t.rateLimited('N1', 'C3', 131056, 30_000)).toBe(c.t + 30_000)
  })

  it('never drops: any mix of numbers, customers and rate-limit answers ends with every message sent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ number: fc.constantFrom('A', 'B'), to: fc.constantFrom('1', '2', '3'), limited: fc.constantFrom(null, 130429, 131056) }), {
          minLength: 1,
          maxLength: 60,
        }),
        (jobs) => {
          const c = clock()
          const t = new SendThrottle({ now: c.now, defaults: { pairBurst: 2, perSecond: 5 } })
          const pending = jobs.map((j, i) => ({ ...j, i, at: c.t }))
          let sent = 0
          for (let guard = 0; pending.length; guard++) {
            expect(guard).toBeLessThan(100_000)
            pending.sort((a, b) => a.at - b.at || a.i - b.i)
            const job = pending[0]
            c.t = Math.max(c.t, job.at)
            const d = t.take(job.number, job.to)
            if (!d.sendNow) {
              job.at = d.retryAt
              continue
            }
            if (job.limited) {
              // Meta refuses once; the message is kept and retried when told.
              job.at = t.rateLimited(job.number, job.to, job.limited)
              job.limited = null
              continue
            }
            t.succeeded(job.number, job.to)
            pending.shift()
            sent++
          }
          expect(sent).toBe(jobs.length)
        },
      ),
      { numRuns: 50 },
    )
  })

  it('forgets idle customers so memory stays bounded', () => {
    const c = clock()
    const t = new SendThrottle({ now: c.now })
    for (let i = 0; i < 1000; i++) t.take('N1', `c${i}`)
    expect(t.trackedPairs).toBe(1000)
    c.t += 10 * 60_000
    for (let i = 0; i < 100; i++) t.take('N1', `later${i}`)
    expect(t.trackedPairs).toBeLessThan(200)
  })
})
