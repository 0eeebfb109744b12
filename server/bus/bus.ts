import { EventEmitter } from 'node:events'

// Publish/subscribe between the parts of the server (and, with Redis, between server instances). The websocket host
// and socket paths subscribe; services publish. Payloads must be JSON-serialisable so both implementations behave alike.
export type BusHandler = (payload: unknown) => void

export interface Bus {
  publish(channel: string, payload: unknown): Promise<void>
  /** Resolves once the subscription is live; the returned function ends it. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** Channel on which the server announces that sessions of a user ended (logout, password change). */
export const SESSION_ENDED = 'session-ended'

export type SessionEndedEvent = {
  user_id: number
  site_id: number
  reason: 'logout' | 'password-change' | 'password-reset' | 'user-disabled'
  /** Hash of the one session or token that stays open (a password change keeps the caller's), if any. */
  keep: string | null
  /** When the kept session is the caller's under a new id: its old hash (its sockets stay open and follow it). */
  rotated_from?: string | null
}

export function createMemoryBus(): Bus {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    async publish(channel, payload) {
      // A round trip through JSON gives subscribers the same copy Redis would.
      emitter.emit(channel, JSON.parse(JSON.stringify(payload)))
    },
    async subscribe(channel, handler) {
      emitter.on(channel, handler)
      return async () => {
        emitter.off(channel, handler)
      }
    },
    async close() {
      emitter.removeAllListeners()
    },
  }
}

/** Redis pub/sub when a URL is given, else the in-process bus. */
export async function createBus(redisUrl: string | undefined, prefix?: string): Promise<Bus> {
  if (!redisUrl) return createMemoryBus()
  const { createRedisBus } = await import('./redis-bus.ts')
  return createRedisBus(redisUrl, prefix)
}
