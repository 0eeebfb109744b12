import type { FastifyRequest } from 'fastify'
import type { Db } from '../db/client.ts'
import type { SessionRow, SiteRow, UserRow } from '../db/schema/index.ts'
import { SESSION_COOKIE } from '../../contract/api/auth.ts'
import type { AuthCache, CachedCredential, CachedUser } from '../auth/auth-cache.ts'
import { hashKey, looksLikeKey } from '../auth/keys.ts'
import { findSession } from '../auth/session-store.ts'
import { findToken } from '../auth/token-store.ts'
import { findUser, loadRoles } from '../users/user-repo.ts'

// Who is calling: a token (`Authorization: Token <key>`) or a session cookie. A credential counts only on the site
// it was issued for and only while its user is active. With the app's cache (auth/auth-cache.ts) neither the
// credential nor the user and their roles are read again until something announces a change.
export type AuthContext = {
  user: UserRow
  roles: string[]
  via: 'session' | 'token'
  /** Hash of the session id or token used: the credential to keep or end. */
  keyHash: string
  session: SessionRow | null
}

const TOKEN_SCHEME = /^Token\s+(\S+)$/i

/**
 * A browser cannot set Authorization on a WebSocket, so an upgrade may carry the token as the subprotocol pair
 * `Sec-WebSocket-Protocol: token, <key>` (contract/realtime TOKEN_SUBPROTOCOL); it then counts as `Token <key>`.
 */
function websocketToken(request: FastifyRequest): string | undefined {
  const protocols = request.headers['sec-websocket-protocol']
  if (typeof protocols !== 'string' || request.headers.upgrade?.toLowerCase() !== 'websocket') return undefined
  const [scheme, key] = protocols.split(',').map((p) => p.trim())
  return scheme === 'token' ? `Token ${key ?? ''}` : undefined
}

export async function authenticate(db: Db, request: FastifyRequest, site: SiteRow, cache?: AuthCache): Promise<AuthContext | null> {
  const header = request.headers.authorization ?? websocketToken(request)
  // Like DRF, other Authorization schemes (Basic from a proxy...) are not ours and fall through to the cookie.
  const tokenKey = header ? TOKEN_SCHEME.exec(header)?.[1] : undefined
  const viaToken = !!header && (!!tokenKey || /^Token\b/i.test(header))
  const key = viaToken ? tokenKey : request.cookies[SESSION_COOKIE]
  if (!looksLikeKey(key)) return null
  const via = viaToken ? 'token' : 'session'
  const load = () => loadCredential(db, via, key)
  const credential = cache ? await cache.credential(via, hashKey(key), load) : await load()
  if (!credential || credential.siteId !== site.id) return null
  const loadUser = () => userWithRoles(db, site.id, credential.userId)
  const found = cache ? await cache.user(site.id, credential.userId, loadUser) : await loadUser()
  if (!found?.user.isActive) return null
  return { user: found.user, roles: found.roles, via, keyHash: credential.keyHash, session: credential.session }
}

async function loadCredential(db: Db, via: CachedCredential['via'], key: string): Promise<CachedCredential | null> {
  if (via === 'token') {
    const token = await findToken(db, key)
    return token && { via, siteId: token.siteId, userId: token.userId, keyHash: token.keyHash, expiresAt: token.expiresAt, session: null }
  }
  const session = await findSession(db, key)
  return session && { via, siteId: session.siteId, userId: session.userId, keyHash: session.keyHash, expiresAt: session.expiresAt, session }
}

async function userWithRoles(db: Db, siteId: number, userId: number): Promise<CachedUser | null> {
  const user = await findUser(db, siteId, userId)
  return user && { user, roles: await loadRoles(db, siteId, user.id) }
}
