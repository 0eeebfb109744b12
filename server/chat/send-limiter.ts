// How fast the outbox may send to a provider, shared by every dispatcher that sends for the same number: one limiter
// per deployment (Redis when the server has REDIS_URL, so several instances share it: redis-send-limiter.ts; in
// memory for one process). Two limits apply to every message (WHATSAPP.md §A1.9):
//
// - the sender's (a WhatsApp business number): `perSecond` messages a second, paced evenly (GCRA with no burst: never
//   more than `perSecond` in any one-second window, whoever sends);
// - the pair's (the number and one customer): a burst of `pairBurst`, then one message per `pairIntervalMs`.
//
// A send asks `reserve()`: the answer is a slot (send after `waitMs`, the slot is taken) when it is at most `maxWaitMs`
// away, else "ask again in `retryInMs`" and nothing is spent. The provider's own refusals (`backOff`) pause the
// number (doubling) or the pair (4^X seconds) for every instance; a success (`succeeded`) starts the streaks over.
// Nothing is dropped: the caller keeps the message and asks again.

export type SendLimits = {
  /** Messages per second per sender (a business number). */
  perSecond: number
  /** One message per this many ms to the same recipient, sustained. */
  pairIntervalMs: number
  /** How many messages to one recipient may go at once before the sustained rate applies. */
  pairBurst: number
}

export const DEFAULT_SEND_LIMITS: SendLimits = { perSecond: 80, pairIntervalMs: 6_000, pairBurst: 20 }

export type Reservation = { ok: true; waitMs: number } | { ok: false; retryInMs: number }

/** What the provider refused: the sender's throughput (WhatsApp 130429), the pair's rate (131056), or another limit. */
export type BackOffKind = 'sender' | 'pair' | 'other'

export interface SendLimiter {
  reserve(sender: string, recipient: string, limits?: Partial<SendLimits>, maxWaitMs?: number): Promise<Reservation>
  /** The provider refused for a rate: pause the sender or the pair; answers in how many ms to try again. */
  backOff(sender: string, recipient: string, kind: BackOffKind, retryAfterMs?: number): Promise<number>
  /** A send went through: the back-off streaks of the sender and the pair start over. */
  succeeded(sender: string, recipient: string): Promise<void>
  close(): Promise<void>
}

export type LimiterOptions = {
  /** The clock (ms); tests inject one. Redis uses its own TIME unless this is given. */
  now?: () => number
  /** The longest a sender waits after repeated 130429s. */
  maxSenderBackoffMs?: number
  /** The longest a recipient waits after repeated 131056s. */
  maxPairBackoffMs?: number
}

/** How long a reservation may wait in the caller rather than go back to the outbox. */
export const DEFAULT_MAX_WAIT_MS = 1000
export const MAX_SENDER_BACKOFF_MS = 60_000
export const MAX_PAIR_BACKOFF_MS = 15 * 60_000
/** A back-off's streak is remembered this long after it ran out (a new refusal soon after waits longer). */
export const STREAK_KEEP_MS = 10 * 60_000

/** The GCRA parameters of the two limits: emission interval and burst tolerance, in ms. */
export function gcra(limits: SendLimits): { senderT: number; senderTau: number; pairT: number; pairTau: number } {
  const perSecond = Math.max(0.001, limits.perSecond)
  const pairBurst = Math.max(1, Math.floor(limits.pairBurst))
  return { senderT: 1000 / perSecond, senderTau: 0, pairT: Math.max(1, limits.pairIntervalMs), pairTau: (pairBurst - 1) * Math.max(1, limits.pairIntervalMs) }
}

/** The pause a back-off asks for, by kind and streak (the streak counts this refusal). */
export function backOffMs(kind: BackOffKind, streak: number, options: { maxSenderBackoffMs: number; maxPairBackoffMs: number }): number {
  if (kind === 'sender') return Math.min(options.maxSenderBackoffMs, 1000 * 2 ** (streak - 1))
  if (kind === 'pair') return Math.min(options.maxPairBackoffMs, 1000 * 4 ** streak)
  return Math.min(options.maxPairBackoffMs, 1000 * 2 ** (streak - 1))
}

type State = { tat: number; until: number; streak: number; touched: number }

/** One process's limiter (no REDIS_URL, or a test). */
export class MemorySendLimiter implements SendLimiter {
  private readonly now: () => number
  private readonly options: { maxSenderBackoffMs: number; maxPairBackoffMs: number }
  private readonly senders = new Map<string, State>()
  private readonly pairs = new Map<string, State>()
  private calls = 0

  constructor(options: LimiterOptions = {}) {
    this.now = options.now ?? Date.now
    this.options = { maxSenderBackoffMs: options.maxSenderBackoffMs ?? MAX_SENDER_BACKOFF_MS, maxPairBackoffMs: options.maxPairBackoffMs ?? MAX_PAIR_BACKOFF_MS }
  }

  async reserve(sender: string, recipient: string, limits: Partial<SendLimits> = {}, maxWaitMs = DEFAULT_MAX_WAIT_MS): Promise<Reservation> {
    return this.reserveSync(sender, recipient, limits, maxWaitMs)
  }

  /** reserve() without the promise (the fake-clock tests drain thousands of messages). */
  reserveSync(sender: string, recipient: string, limits: Partial<SendLimits> = {}, maxWaitMs = DEFAULT_MAX_WAIT_MS): Reservation {
    const now = this.now()
    if (++this.calls % 1024 === 0) this.prune(now)
    const g = gcra({ ...DEFAULT_SEND_LIMITS, ...limits })
    const s = this.state(this.senders, sender, now)
    const p = this.state(this.pairs, pairKey(sender, recipient), now)
    const at = Math.max(now, s.tat - g.senderTau, p.tat - g.pairTau, s.until, p.until)
    if (at - now > maxWaitMs) return { ok: false, retryInMs: Math.max(1, Math.ceil(at - now)) }
    s.tat = Math.max(s.tat, at) + g.senderT
    p.tat = Math.max(p.tat, at) + g.pairT
    s.touched = p.touched = now
    return { ok: true, waitMs: Math.max(0, Math.ceil(at - now)) }
  }

  async backOff(sender: string, recipient: string, kind: BackOffKind, retryAfterMs = 0): Promise<number> {
    const now = this.now()
    const st = kind === 'sender' ? this.state(this.senders, sender, now) : this.state(this.pairs, pairKey(sender, recipient), now)
    st.streak += 1
    st.until = Math.max(st.until, now + Math.max(backOffMs(kind, st.streak, this.options), retryAfterMs))
    st.touched = now
    return Math.max(0, Math.ceil(st.until - now))
  }

  async succeeded(sender: string, recipient: string): Promise<void> {
    const s = this.senders.get(sender)
    if (s) s.streak = 0
    const p = this.pairs.get(pairKey(sender, recipient))
    if (p) p.streak = 0
  }

  async close(): Promise<void> {
    this.senders.clear()
    this.pairs.clear()
  }

  /** How many recipients are being tracked (forgotten once their limits no longer hold anything back). */
  get trackedPairs(): number {
    return this.pairs.size
  }

  private state(map: Map<string, State>, key: string, now: number): State {
    let s = map.get(key)
    if (!s) {
      s = { tat: now, until: 0, streak: 0, touched: now }
      map.set(key, s)
    }
    return s
  }

  private prune(now: number): void {
    for (const map of [this.pairs, this.senders]) {
      for (const [key, s] of map) {
        // A state whose slots and back-off are in the past and whose streak is over (or long past) holds nothing.
        if (s.tat <= now && s.until <= now && (s.streak === 0 || now - s.until > STREAK_KEEP_MS)) map.delete(key)
      }
    }
  }
}

function pairKey(sender: string, recipient: string): string {
  return `${sender}\u0000${recipient}`
}

/**
 * The deployment's limiter: Redis (shared by every instance) when a URL is given, else in memory. The Redis module is
 * loaded only then (like the bus).
 */
export async function createSendLimiter(redisUrl: string | undefined, prefix?: string, options: LimiterOptions = {}): Promise<SendLimiter> {
  if (!redisUrl) return new MemorySendLimiter(options)
  const { createRedisSendLimiter } = await import('./redis-send-limiter.ts')
  return createRedisSendLimiter(redisUrl, prefix, options)
}
