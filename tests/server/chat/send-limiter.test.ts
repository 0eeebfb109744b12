import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MemorySendLimiter, type SendLimits } from '../../../server/chat/send-limiter.ts'

// QUALITY.md test 8 (the rule): per-number and per-customer rates, back-off on 130429 and 131056, and every message
// eventually sent (nothing dropped). Time is a fake clock; maxWaitMs 0 makes a reservation "now or ask again at T".
// The same limiter in Redis, shared by two dispatchers: send-limiter-shared.test.ts.

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t }
  return c
}

/** Sends every message through the limiter, each retried when it is told, and returns when each went out. */
function drain(limiter: MemorySendLimiter, c: { t: number }, jobs: { number: string; to: string }[], limits: Partial<SendLimits> = {}): number[] {
  const pending = jobs.map((j, i) => ({ ...j, i, at: c.t }))
  const sentAt: number[] = []
  let guard = 0
  while (pending.length) {
    if (++guard > 1_000_000) throw new Error('never drained')
    pending.sort((a, b) => a.at - b.at || a.i - b.i)
    const job = pending[0]
    c.t = Math.max(c.t, job.at)
    const r = limiter.reserveSync(job.number, job.to, limits, 0)
    if (r.ok) {
      sentAt[job.i] = c.t
      pending.shift()
    } else {
      expect(r.retryInMs).toBeGreaterThan(0)
      job.at = c.t + r.retryInMs
    }
  }
  return sentAt
}

/** The most sends in any window of `ms` (sliding). */
function busiest(sentAt: number[], ms: number): number {
  const sorted = [...sentAt].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= ms) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

describe('send limiter', () => {
  it('paces a business number at 80 messages a second, never more in any one-second window', () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    const jobs = Array.from({ length: 240 }, (_, i) => ({ number: 'N1', to: `55119${String(i).padStart(8, '0')}` }))
    const sentAt = drain(t, c, jobs)
    // 240 messages at 80/s: one every 12.5 ms (13 here: a retry is told in whole ms), the last ~3 s after the first.
    expect(Math.max(...sentAt) - sentAt[0]).toBeGreaterThanOrEqual(2987)
    expect(Math.max(...sentAt) - sentAt[0]).toBeLessThanOrEqual(3120)
    expect(busiest(sentAt, 1000)).toBeLessThanOrEqual(80)
    expect(busiest(sentAt, 1000)).toBeGreaterThanOrEqual(76)
  })

  it('honours a per-channel rate', () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    const sentAt = drain(
      t,
      c,
      Array.from({ length: 45 }, (_, i) => ({ number: 'N2', to: `to${i}` })),
      { perSecond: 20 },
    )
    expect(busiest(sentAt, 1000)).toBe(20)
    expect(sentAt[1] - sentAt[0]).toBe(50)
  })

  it('reserves a slot up to maxWaitMs ahead instead of refusing', async () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    const waits = []
    for (let i = 0; i < 5; i++) waits.push(await t.reserve('N3', `to${i}`, { perSecond: 10 }, 250))
    expect(waits).toEqual([
      { ok: true, waitMs: 0 },
      { ok: true, waitMs: 100 },
      { ok: true, waitMs: 200 },
      { ok: false, retryInMs: 300 },
      { ok: false, retryInMs: 300 },
    ])
  })

  it('keeps to one customer at about one message per 6 s after the burst allowance', () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    const sentAt = drain(
      t,
      c,
      Array.from({ length: 6 }, () => ({ number: 'N1', to: 'C1' })),
      { pairBurst: 3 },
    )
    // The burst goes as fast as the number allows (12.5 ms apart, retried on whole ms), then one per 6 s.
    expect(sentAt.map((s) => Math.round(s - sentAt[0]))).toEqual([0, 13, 26, 6000, 12000, 18000])
    // Another customer of the same number is not held back (beyond the number's next slot).
    expect(t.reserveSync('N1', 'C2', {}, 13).ok).toBe(true)
  })

  it('backs the whole number off on 130429, doubling while it repeats, and starts over after a success', async () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    expect(await t.backOff('N1', 'C1', 'sender')).toBe(1000)
    expect(t.reserveSync('N1', 'C9', {}, 0)).toEqual({ ok: false, retryInMs: 1000 })
    c.t += 1000
    expect(await t.backOff('N1', 'C1', 'sender')).toBe(2000)
    c.t += 2000
    expect(await t.backOff('N1', 'C1', 'sender')).toBe(4000)
    c.t += 4000
    expect(t.reserveSync('N1', 'C9', {}, 0).ok).toBe(true)
    await t.succeeded('N1', 'C9')
    c.t += 1000
    expect(await t.backOff('N1', 'C1', 'sender')).toBe(1000)
    // Other numbers are untouched.
    expect(t.reserveSync('N2', 'C1', {}, 0).ok).toBe(true)
  })

  it('backs a customer off 4^X seconds on 131056, other customers unaffected, Retry-After honoured', async () => {
    const c = clock()
    const t = new MemorySendLimiter({ now: c.now })
    expect(await t.backOff('N1', 'C1', 'pair')).toBe(4_000)
    c.t += 4_000
    expect(await t.backOff('N1', 'C1', 'pair')).toBe(16_000)
    c.t += 16_000
    expect(await t.backOff('N1', 'C1', 'pair')).toBe(64_000)
    expect(t.reserveSync('N1', 'C1', {}, 0)).toEqual({ ok: false, retryInMs: 64_000 })
    expect(t.reserveSync('N1', 'C2', {}, 0).ok).toBe(true)
    expect(await t.backOff('N1', 'C3', 'pair', 30_000)).toBe(30_000)
  })

  it('never drops: any mix of numbers, customers and rate-limit answers ends with every message sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ number: fc.constantFrom('A', 'B'), to: fc.constantFrom('1', '2', '3'), limited: fc.constantFrom(null, 'sender', 'pair') }), {
          minLength: 1,
          maxLength: 60,
        }),
        async (jobs) => {
          const c = clock()
          const t = new MemorySendLimiter({ now: c.now })
          const limits = { pairBurst: 2, perSecond: 5 }
          const pending = jobs.map((j, i) => ({ ...j, i, at: c.t }))
          let sent = 0
          for (let guard = 0; pending.length; guard++) {
            expect(guard).toBeLessThan(100_000)
            pending.sort((a, b) => a.at - b.at || a.i - b.i)
            const job = pending[0]
            c.t = Math.max(c.t, job.at)
            const r = t.reserveSync(job.number, job.to, limits, 0)
            if (!r.ok) {
              job.at = c.t + r.retryInMs
              continue
            }
            if (job.limited) {
              // Meta refuses once; the message is kept and retried when told.
              job.at = c.t + (await t.backOff(job.number, job.to, job.limited as 'sender' | 'pair'))
              job.limited = null
              continue
            }
            await t.succeeded(job.number, job.to)
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
    const t = new MemorySendLimiter({ now: c.now })
    for (let i = 0; i < 1000; i++) t.reserveSync('N1', `c${i}`, {}, 60_000)
    expect(t.trackedPairs).toBe(1000)
    c.t += 10 * 60_000
    for (let i = 0; i < 100; i++) t.reserveSync('N1', `later${i}`, {}, 60_000)
    expect(t.trackedPairs).toBeLessThan(200)
  })
})
