import { Redis } from 'ioredis'
import {
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_SEND_LIMITS,
  MAX_PAIR_BACKOFF_MS,
  MAX_SENDER_BACKOFF_MS,
  STREAK_KEEP_MS,
  gcra,
  type BackOffKind,
  type LimiterOptions,
  type Reservation,
  type SendLimiter,
  type SendLimits,
} from './send-limiter.ts'

// The send limiter (send-limiter.ts) in Redis, shared by every server instance: each call is one Lua script, so a
// reservation reads and takes both limits (sender and pair) and both back-offs atomically, on Redis's own clock (TIME:
// the instances' clocks never have to agree). Keys: `<prefix>t:<sender>` and `<prefix>t:<sender>:<recipient>` hold a
// theoretical arrival time (GCRA), `<prefix>b:...` a back-off {until, streak}; every key expires once it holds nothing.
//
// Why a script and not a library: rate-limiter-flexible's Redis limiters count fixed windows (80 per second could send
// 160 across a window's edge), take one key per call (the sender's slot would be spent for a customer the pair limit
// then refuses) and know nothing of a provider's back-off; bottleneck wants to own the job queue (the outbox is ours)
// and is unmaintained; redis-gcra is one key per call as well. The GCRA is a dozen lines of Lua on the ioredis client
// the bus already uses.

// Times in ms (Lua numbers are doubles: exact to well below a ms for today's epoch); written with string.format so
// Redis never stores them in %.14g.
const CLOCK = `
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end`

const RESERVE = `${CLOCK}
local sT, sTau, pT, pTau, maxWait = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local sTat = tonumber(redis.call('GET', KEYS[1]) or now)
local pTat = tonumber(redis.call('GET', KEYS[2]) or now)
local sUntil = tonumber(redis.call('HGET', KEYS[3], 'until') or 0)
local pUntil = tonumber(redis.call('HGET', KEYS[4], 'until') or 0)
local at = math.max(now, sTat - sTau, pTat - pTau, sUntil, pUntil)
if at - now > maxWait then return {0, math.max(1, math.ceil(at - now))} end
sTat = math.max(sTat, at) + sT
pTat = math.max(pTat, at) + pT
redis.call('SET', KEYS[1], string.format('%.3f', sTat), 'PX', math.ceil(sTat - now) + 1000)
redis.call('SET', KEYS[2], string.format('%.3f', pTat), 'PX', math.ceil(pTat - now) + 1000)
return {1, math.max(0, math.ceil(at - now))}`

// ARGV: now, kind, retryAfterMs, maxSender, maxPair, keepMs.
const BACK_OFF = `${CLOCK}
local kind, retryAfter, maxS, maxP, keep = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local streak = redis.call('HINCRBY', KEYS[1], 'streak', 1)
local wait
if kind == 'sender' then wait = math.min(maxS, 1000 * 2 ^ (streak - 1))
elseif kind == 'pair' then wait = math.min(maxP, 1000 * 4 ^ streak)
else wait = math.min(maxP, 1000 * 2 ^ (streak - 1)) end
wait = math.max(wait, retryAfter)
local untilAt = math.max(tonumber(redis.call('HGET', KEYS[1], 'until') or 0), now + wait)
redis.call('HSET', KEYS[1], 'until', string.format('%.3f', untilAt))
redis.call('PEXPIRE', KEYS[1], math.ceil(untilAt - now) + keep)
return math.max(0, math.ceil(untilAt - now))`

const SUCCEEDED = `
for i = 1, #KEYS do
  if redis.call('HEXISTS', KEYS[i], 'streak') == 1 then redis.call('HSET', KEYS[i], 'streak', 0) end
end
return 0`

type Scripted = Redis & {
  limiterReserve(...args: (string | number)[]): Promise<[number, number]>
  limiterBackOff(...args: (string | number)[]): Promise<number>
  limiterSucceeded(...args: (string | number)[]): Promise<number>
}

export function createRedisSendLimiter(url: string, prefix = 'atende:send:', options: LimiterOptions = {}): SendLimiter {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 }) as Scripted
  redis.on('error', () => {})
  // defineCommand: EVALSHA with a fall back to EVAL (the script is sent once per connection, not per call).
  redis.defineCommand('limiterReserve', { numberOfKeys: 4, lua: RESERVE })
  redis.defineCommand('limiterBackOff', { numberOfKeys: 1, lua: BACK_OFF })
  redis.defineCommand('limiterSucceeded', { numberOfKeys: 2, lua: SUCCEEDED })
  const now = () => (options.now ? options.now() : -1)
  const maxS = options.maxSenderBackoffMs ?? MAX_SENDER_BACKOFF_MS
  const maxP = options.maxPairBackoffMs ?? MAX_PAIR_BACKOFF_MS
  // Braces would put a sender's keys in one cluster slot; a plain Redis ignores them.
  const senderKey = (sender: string) => `${prefix}{${sender}}`
  const pairKey = (sender: string, recipient: string) => `${prefix}{${sender}}:${recipient}`

  return {
    async reserve(sender, recipient, limits: Partial<SendLimits> = {}, maxWaitMs = DEFAULT_MAX_WAIT_MS): Promise<Reservation> {
      const g = gcra({ ...DEFAULT_SEND_LIMITS, ...limits })
      const [ok, ms] = await redis.limiterReserve(
        `${senderKey(sender)}:t`,
        `${pairKey(sender, recipient)}:t`,
        `${senderKey(sender)}:b`,
        `${pairKey(sender, recipient)}:b`,
        now(),
        g.senderT,
        g.senderTau,
        g.pairT,
        g.pairTau,
        maxWaitMs,
      )
      return ok === 1 ? { ok: true, waitMs: Number(ms) } : { ok: false, retryInMs: Number(ms) }
    },
    async backOff(sender, recipient, kind: BackOffKind, retryAfterMs = 0) {
      const key = kind === 'sender' ? `${senderKey(sender)}:b` : `${pairKey(sender, recipient)}:b`
      return Number(await redis.limiterBackOff(key, now(), kind, retryAfterMs, maxS, maxP, STREAK_KEEP_MS))
    },
    async succeeded(sender, recipient) {
      await redis.limiterSucceeded(`${senderKey(sender)}:b`, `${pairKey(sender, recipient)}:b`)
    },
    async close() {
      await redis.quit().catch(() => {})
    },
  }
}
