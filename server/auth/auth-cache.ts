import type { Db } from '../db/client.ts'
import type { SessionRow, SiteRow, UserRow } from '../db/schema/index.ts'
import type { Bus } from '../bus/bus.ts'

// What every request would otherwise read again: the site of its Host, its credential (session or token row) and its
// user with their roles. Each server instance keeps them in memory; whatever changes one of them says so through
// `authChanged` — this instance forgets at once, every other instance when the bus delivers — so a logout, a password
// change or reset, a disabled user or a role change counts on the very next request everywhere. The TTL is only a
// backstop for rows changed behind the server's back (SQL by hand, `npm run create-admin` while it runs).
export const AUTH_CACHE_CHANNEL = 'auth:cache'

export type AuthChange =
  /** One session or token ended (by the hash of its key). */
  | { kind: 'credential'; key_hash: string }
  /** A user's row, groups or credentials changed: their entry and every credential of theirs are read again. */
  | { kind: 'user'; user_id: number }
  /** Roles of a site's users changed (a permission group was edited or deleted, a team removed). */
  | { kind: 'site'; site_id: number }
  /** Sites changed (created, renamed, deleted): everything is read again. */
  | { kind: 'all' }

export type CachedCredential = {
  via: 'session' | 'token'
  siteId: number
  userId: number
  keyHash: string
  expiresAt: Date
  session: SessionRow | null
}
export type CachedUser = { user: UserRow; roles: string[] }

export type AuthCache = {
  site(hostname: string, load: () => Promise<SiteRow | null>): Promise<SiteRow | null>
  credential(via: CachedCredential['via'], keyHash: string, load: () => Promise<CachedCredential | null>): Promise<CachedCredential | null>
  user(siteId: number, userId: number, load: () => Promise<CachedUser | null>): Promise<CachedUser | null>
  apply(change: AuthChange): void
  close(): Promise<void>
}

export type AuthCacheOptions = { ttlMs?: number; maxEntries?: number }

const DEFAULT_TTL_MS = 60_000
const DEFAULT_MAX_ENTRIES = 20_000
/** The Host header is the caller's to choose: only so many distinct ones are remembered. */
const MAX_HOSTS = 256

type Entry<V> = { value: V; until: number }

/** The caches of the apps running on one database handle: a change made through it reaches them without the bus. */
const LOCAL = new WeakMap<Db, Set<AuthCache>>()

export async function createAuthCache(db: Db, bus: Bus, options: AuthCacheOptions = {}): Promise<AuthCache> {
  const ttl = options.ttlMs ?? DEFAULT_TTL_MS
  const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES
  const hosts = new Map<string, Entry<SiteRow>>()
  const credentials = new Map<string, Entry<CachedCredential>>()
  const users = new Map<string, Entry<CachedUser>>()
  // Bumped by every change: a read that began before a change must not store what it read.
  let generation = 0

  async function through<V>(map: Map<string, Entry<V>>, key: string, limit: number, load: () => Promise<V | null>): Promise<V | null> {
    const hit = map.get(key)
    const now = Date.now()
    if (hit && hit.until > now) return hit.value
    if (hit) map.delete(key)
    const started = generation
    const value = await load()
    if (value !== null && started === generation) {
      if (map.size >= limit) map.delete(map.keys().next().value!)
      map.set(key, { value, until: now + ttl })
    }
    return value
  }

  const cache: AuthCache = {
    site: (hostname, load) => through(hosts, hostname, MAX_HOSTS, load),
    async credential(via, keyHash, load) {
      const key = `${via}:${keyHash}`
      const found = await through(credentials, key, max, load)
      if (found && found.expiresAt.getTime() <= Date.now()) {
        credentials.delete(key)
        return null
      }
      return found
    },
    user: (siteId, userId, load) => through(users, `${siteId}:${userId}`, max, load),
    apply(change) {
      generation++
      if (change.kind === 'all') {
        hosts.clear()
        credentials.clear()
        users.clear()
      } else if (change.kind === 'credential') {
        credentials.delete(`session:${change.key_hash}`)
        credentials.delete(`token:${change.key_hash}`)
      } else if (change.kind === 'user') {
        for (const [key, entry] of users) if (entry.value.user.id === change.user_id) users.delete(key)
        for (const [key, entry] of credentials) if (entry.value.userId === change.user_id) credentials.delete(key)
      } else {
        for (const [key, entry] of users) if (entry.value.user.siteId === change.site_id) users.delete(key)
      }
    },
    async close() {
      LOCAL.get(db)?.delete(cache)
      await unsubscribe()
    },
  }
  const unsubscribe = await bus.subscribe(AUTH_CACHE_CHANNEL, (payload) => cache.apply(payload as AuthChange))
  let local = LOCAL.get(db)
  if (!local) LOCAL.set(db, (local = new Set()))
  local.add(cache)
  return cache
}

/** This process forgets at once (every app on this database handle); for stores that have no bus at hand. */
export function forgetLocally(db: Db, change: AuthChange): void {
  for (const cache of LOCAL.get(db) ?? []) cache.apply(change)
}

/** A change every instance must see on its next request: forgotten here at once, then announced on the bus. */
export async function authChanged(db: Db, bus: Bus | undefined, change: AuthChange): Promise<void> {
  forgetLocally(db, change)
  await bus?.publish(AUTH_CACHE_CHANNEL, change)
}
