// Fixed-window counters behind a small interface: in memory for one process, Redis (redis-throttle-store.ts) when
// several instances must share them.
export type Counter = { count: number; resetInMs: number }

export interface ThrottleStore {
  /** Adds one to the key's counter (starting a window of `windowMs` on the first hit) and returns it. */
  hit(key: string, windowMs: number): Promise<Counter>
  /** Takes back one hit, if the window is still open. */
  undo(key: string): Promise<void>
  reset(key: string): Promise<void>
  close(): Promise<void>
}

export function createMemoryThrottleStore(now: () => number = Date.now): ThrottleStore {
  const counters = new Map<string, { count: number; resetAt: number }>()
  let hitsSinceSweep = 0

  // Expired windows are dropped now and then, so a spray of usernames cannot grow the map without bound.
  function sweep(time: number) {
    if (++hitsSinceSweep < 1000) return
    hitsSinceSweep = 0
    for (const [key, entry] of counters) if (entry.resetAt <= time) counters.delete(key)
  }

  function live(key: string, time: number) {
    const entry = counters.get(key)
    return entry && entry.resetAt > time ? entry : undefined
  }

  return {
    async hit(key, windowMs) {
      const time = now()
      sweep(time)
      const entry = live(key, time) ?? { count: 0, resetAt: time + windowMs }
      entry.count += 1
      counters.set(key, entry)
      return { count: entry.count, resetInMs: entry.resetAt - time }
    },
    async undo(key) {
      const entry = live(key, now())
      if (entry && entry.count > 0) entry.count -= 1
    },
    async reset(key) {
      counters.delete(key)
    },
    async close() {
      counters.clear()
    },
  }
}

/** Redis counters when a URL is given (shared by every instance), else in memory. */
export async function createThrottleStore(redisUrl: string | undefined, prefix?: string): Promise<ThrottleStore> {
  if (!redisUrl) return createMemoryThrottleStore()
  const { createRedisThrottleStore } = await import('./redis-throttle-store.ts')
  return createRedisThrottleStore(redisUrl, prefix)
}
