import { NUMBER_RATE_LIMIT, PAIR_RATE_LIMIT } from './errors.ts'

// How fast the outbox may send (WHATSAPP.md §A1.9): a token bucket per business number (80 messages/s by default,
// more for upgraded numbers, 20 in coexistence), a bucket per number+customer pair (about one message every 6 s
// sustained, with a burst allowance), and back-off when Meta still says no: 130429 pauses the whole number
// (doubling), 131056 the pair (4^X seconds). The answer is always "send now" or "retry at T": the caller keeps the
// message and asks again at T, so nothing is ever dropped. The clock is injected so tests control time.

export type ThrottleLimits = {
  /** Messages per second per business number (sustained and burst). */
  perSecond: number
  /** One message per this many ms to the same customer, sustained. */
  pairIntervalMs: number
  /** How many messages to one customer may go at once before the sustained rate applies. */
  pairBurst: number
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perSecond: 80, pairIntervalMs: 6_000, pairBurst: 20 }

export type ThrottleDecision = { sendNow: true } | { sendNow: false; retryAt: number }

type Bucket = { tokens: number; at: number; capacity: number; perMs: number }
type Backoff = { until: number; streak: number }

export type ThrottleOptions = {
  now?: () => number
  defaults?: Partial<ThrottleLimits>
  /** The longest a number waits after repeated 130429s. */
  maxNumberBackoffMs?: number
  /** The longest a customer waits after repeated 131056s. */
  maxPairBackoffMs?: number
}

function refill(b: Bucket, now: number): void {
  if (now > b.at) b.tokens = Math.min(b.capacity, b.tokens + (now - b.at) * b.perMs)
  b.at = Math.max(b.at, now)
}

/** When the bucket holds a whole token again. */
function readyAt(b: Bucket, now: number): number {
  return b.tokens >= 1 ? now : now + Math.ceil((1 - b.tokens) / b.perMs)
}

export class SendThrottle {
  private readonly now: () => number
  private readonly defaults: ThrottleLimits
  private readonly maxNumberBackoffMs: number
  private readonly maxPairBackoffMs: number
  private readonly numbers = new Map<string, { bucket: Bucket; backoff: Backoff }>()
  private readonly pairs = new Map<string, { bucket: Bucket; backoff: Backoff }>()
  private calls = 0

  constructor(options: ThrottleOptions = {}) {
    this.now = options.now ?? Date.now
    this.defaults = { ...DEFAULT_THROTTLE_LIMITS, ...options.defaults }
    this.maxNumberBackoffMs = options.maxNumberBackoffMs ?? 60_000
    this.maxPairBackoffMs = options.maxPairBackoffMs ?? 15 * 60_000
  }

  /**
   * May a message from `number` to `recipient` go now? If so, its tokens are spent; if not, nothing is spent and the
   * answer is the earliest time worth asking again.
   */
  take(number: string, recipient: string, limits: Partial<ThrottleLimits> = {}): ThrottleDecision {
    const now = this.now()
    const l = { ...this.defaults, ...limits }
    if (++this.calls % 1024 === 0) this.prune(now)
    const n = this.state(this.numbers, number, l.perSecond, l.perSecond / 1000)
    const p = this.state(this.pairs, `${number}\u0000${recipient}`, l.pairBurst, 1 / l.pairIntervalMs)
    refill(n.bucket, now)
    refill(p.bucket, now)
    const at = Math.max(readyAt(n.bucket, now), readyAt(p.bucket, now), n.backoff.until, p.backoff.until)
    if (at > now) return { sendNow: false, retryAt: at }
    n.bucket.tokens -= 1
    p.bucket.tokens -= 1
    return { sendNow: true }
  }

  /**
   * Meta answered a rate-limit error for this send: back off the number (130429) or the pair (131056) and say when to
   * retry. Any other code gets a short pause of the pair. `retryAfterMs` (a Retry-After header) is honoured if longer.
   */
  rateLimited(number: string, recipient: string, code: number | null, retryAfterMs?: number): number {
    const now = this.now()
    const l = this.defaults
    if (code === NUMBER_RATE_LIMIT) {
      const n = this.state(this.numbers, number, l.perSecond, l.perSecond / 1000)
      n.backoff.streak += 1
      n.bucket.tokens = 0
      n.bucket.at = now
      const wait = Math.max(Math.min(this.maxNumberBackoffMs, 1000 * 2 ** (n.backoff.streak - 1)), retryAfterMs ?? 0)
      n.backoff.until = Math.max(n.backoff.until, now + wait)
      return n.backoff.until
    }
    const p = this.state(this.pairs, `${number}\u0000${recipient}`, l.pairBurst, 1 / l.pairIntervalMs)
    p.backoff.streak += 1
    p.bucket.tokens = 0
    p.bucket.at = now
    const base = code === PAIR_RATE_LIMIT ? 1000 * 4 ** p.backoff.streak : 1000 * 2 ** (p.backoff.streak - 1)
    const wait = Math.max(Math.min(this.maxPairBackoffMs, base), retryAfterMs ?? 0)
    p.backoff.until = Math.max(p.backoff.until, now + wait)
    return p.backoff.until
  }

  /** A send went through: the back-off streaks of the number and the pair start over. */
  succeeded(number: string, recipient: string): void {
    const n = this.numbers.get(number)
    if (n) n.backoff.streak = 0
    const p = this.pairs.get(`${number}\u0000${recipient}`)
    if (p) p.backoff.streak = 0
  }

  /** The throttle's clock (retry times are on it). */
  time(): number {
    return this.now()
  }

  /** How many customers are being tracked (pruned once their bucket is full again). */
  get trackedPairs(): number {
    return this.pairs.size
  }

  private state(map: Map<string, { bucket: Bucket; backoff: Backoff }>, key: string, capacity: number, perMs: number) {
    let s = map.get(key)
    if (!s) {
      s = { bucket: { tokens: capacity, at: this.now(), capacity, perMs }, backoff: { until: 0, streak: 0 } }
      map.set(key, s)
    } else if (s.bucket.capacity !== capacity || s.bucket.perMs !== perMs) {
      // The channel's limits changed: keep the tokens spent, apply the new shape.
      s.bucket.capacity = capacity
      s.bucket.perMs = perMs
      s.bucket.tokens = Math.min(s.bucket.tokens, capacity)
    }
    return s
  }

  private prune(now: number): void {
    for (const map of [this.pairs, this.numbers]) {
      for (const [key, s] of map) {
        refill(s.bucket, now)
        if (s.bucket.tokens >= s.bucket.capacity && s.backoff.until <= now && s.backoff.streak === 0) map.delete(key)
      }
    }
  }
}
