// Token buckets in this instance's memory: each key (a visitor id, a client address) holds up to `burst` tokens and
// gets `perSecond` back over time; an action costs one. They are per instance on purpose (no Redis round trip per
// visitor message): with N instances behind a balancer a visitor may get up to N times the rate, which still bounds a
// flood. Idle buckets are forgotten (a full bucket is the same as none), so memory follows the active visitors.

export type BucketRule = { burst: number; perSecond: number }

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  private readonly rule: BucketRule

  constructor(rule: BucketRule) {
    this.rule = rule
  }

  /** Takes a token: 0 when allowed, else the seconds until one is back (for Retry-After). */
  take(key: string, now = Date.now()): number {
    const { burst, perSecond } = this.rule
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond)
    bucket.at = now
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket)
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))
    }
    bucket.tokens -= 1
    this.buckets.set(key, bucket)
    if (this.buckets.size > 10_000) this.sweep(now)
    return 0
  }

  /** Forgets the buckets that are full again. */
  sweep(now = Date.now()): void {
    const { burst, perSecond } = this.rule
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * perSecond >= burst) this.buckets.delete(key)
    }
  }
}
