import { and, eq, gt, lte, ne } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { sessions } from '../db/schema/index.ts'
import type { SessionRow } from '../db/schema/index.ts'
import { hashKey, looksLikeKey, randomKey } from './keys.ts'
// This instance's cache forgets an ended credential at once; end-sessions.ts tells the other instances.
import { forgetLocally } from './auth-cache.ts'

// Server-side sessions of the cookie strategy. The browser holds the random key; the table holds its hash.
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60

export type NewSession = { key: string; keyHash: string; expiresAt: Date }

export async function createSession(db: Db, owner: { siteId: number; userId: number; csrfToken: string }): Promise<NewSession> {
  const key = randomKey()
  const keyHash = hashKey(key)
  const expiresAt = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000)
  // Expired rows are swept per user at each new sign-in, so the table does not grow without bound.
  await db.delete(sessions).where(and(eq(sessions.userId, owner.userId), lte(sessions.expiresAt, new Date())))
  await db.insert(sessions).values({ keyHash, expiresAt, ...owner })
  return { key, keyHash, expiresAt }
}

export async function findSession(db: Db, key: unknown): Promise<SessionRow | null> {
  if (!looksLikeKey(key)) return null
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.keyHash, hashKey(key)), gt(sessions.expiresAt, new Date())))
  return row ?? null
}

export async function deleteSession(db: Db, keyHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.keyHash, keyHash))
  forgetLocally(db, { kind: 'credential', key_hash: keyHash })
}

/** Ends every session of a user, except the one whose hash is given. */
export async function deleteUserSessions(db: Db, userId: number, exceptKeyHash?: string): Promise<void> {
  const mine = eq(sessions.userId, userId)
  await db.delete(sessions).where(exceptKeyHash ? and(mine, ne(sessions.keyHash, exceptKeyHash)) : mine)
  forgetLocally(db, { kind: 'user', user_id: userId })
}

/** Same user, same CSRF token, new id: the old id stops working (used after a password change). */
export async function rotateSession(db: Db, current: SessionRow): Promise<NewSession> {
  const next = await createSession(db, { siteId: current.siteId, userId: current.userId, csrfToken: current.csrfToken })
  await deleteSession(db, current.keyHash)
  return next
}
