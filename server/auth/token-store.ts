import { and, eq, gt, lte, ne } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { authTokens } from '../db/schema/index.ts'
import { TOKEN_MAX_AGE } from '../../contract/api/auth.ts'
import { hashKey, looksLikeKey, randomKey } from './keys.ts'
// This instance's cache forgets an ended credential at once; end-sessions.ts tells the other instances.
import { forgetLocally } from './auth-cache.ts'

// API tokens of the token strategy (`Authorization: Token <key>`), Knox-like: only the hash is stored.
export type TokenRow = typeof authTokens.$inferSelect

export async function createToken(db: Db, owner: { siteId: number; userId: number }): Promise<{ token: string; expiry: Date }> {
  const token = randomKey()
  const expiry = new Date(Date.now() + TOKEN_MAX_AGE * 1000)
  // Expired tokens are swept per user at each new sign-in, so the table does not grow without bound.
  await db.delete(authTokens).where(and(eq(authTokens.userId, owner.userId), lte(authTokens.expiresAt, new Date())))
  await db.insert(authTokens).values({ keyHash: hashKey(token), expiresAt: expiry, ...owner })
  return { token, expiry }
}

export async function findToken(db: Db, token: unknown): Promise<TokenRow | null> {
  if (!looksLikeKey(token)) return null
  const [row] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.keyHash, hashKey(token)), gt(authTokens.expiresAt, new Date())))
  return row ?? null
}

export async function revokeToken(db: Db, keyHash: string): Promise<void> {
  await db.delete(authTokens).where(eq(authTokens.keyHash, keyHash))
  forgetLocally(db, { kind: 'credential', key_hash: keyHash })
}

/** Revokes every token of a user, except the one whose hash is given. */
export async function revokeUserTokens(db: Db, userId: number, exceptKeyHash?: string): Promise<void> {
  const mine = eq(authTokens.userId, userId)
  await db.delete(authTokens).where(exceptKeyHash ? and(mine, ne(authTokens.keyHash, exceptKeyHash)) : mine)
  forgetLocally(db, { kind: 'user', user_id: userId })
}
