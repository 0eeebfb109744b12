import { Redis } from 'ioredis'
import type { Counter, ThrottleStore } from './throttle-store.ts'

// Counters shared by every server instance. Lua keeps "increment, then start the window on the first hit" atomic.
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`

// DECR on a key that has just expired would create a counter without a window; only touch live keys.
const UNDO = `
if redis.call('PTTL', KEYS[1]) > 0 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`

export function createRedisThrottleStore(url: string, prefix = 'atende:throttle:'): ThrottleStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 })
  return {
    async hit(key, windowMs): Promise<Counter> {
      const [count, ttl] = (await redis.eval(HIT, 1, prefix + key, windowMs)) as [number, number]
      return { count, resetInMs: Math.max(ttl, 0) }
    },
    async undo(key) {
      await redis.eval(UNDO, 1, prefix + key)
    },
    async reset(key) {
      await redis.del(prefix + key)
    },
    async close() {
      await redis.quit()
    },
  }
}
