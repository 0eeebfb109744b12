import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { Bus } from './bus/bus.ts'
import type { ThrottleStore } from './auth/throttle-store.ts'
import type { AuthCache } from './auth/auth-cache.ts'
import type { SendLimiter } from './chat/send-limiter.ts'

// The infrastructure every route reaches through `app.deps`, built once by the composition root (server/app.ts).
export type AppDeps = {
  config: Config
  db: Db
  bus: Bus
  throttle: ThrottleStore
  /** Sites by Host, credentials, users and roles, kept between requests (auth/auth-cache.ts). */
  authCache: AuthCache
  /** How fast the chat outbox may send per number and per customer (Redis when configured: shared by every instance). */
  sendLimiter: SendLimiter
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps
  }
}
