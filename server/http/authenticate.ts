import type { FastifyRequest } from 'fastify'
import type { Db } from '../db/client.ts'
import type { SessionRow, SiteRow, UserRow } from '../db/schema/index.ts'
import { SESSION_COOKIE } from '../../contract/api/auth.ts'
import { findSession } from '../auth/session-store.ts'
import { findToken } from '../auth/token-store.ts'
import { findUser, loadRoles } from '../users/user-repo.ts'

// Who is calling: a token (`Authorization: Token <key>`) or a session cookie. A credential counts only on the site
// it was issued for and only while its user is active.
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

export async function authenticate(db: Db, request: FastifyRequest, site: SiteRow): Promise<AuthContext | null> {
  const header = request.headers.authorization ?? websocketToken(request)
  // Like DRF, other Authorization schemes (Basic from a proxy...) are not ours and fall through to the cookie.
  const tokenKey = header ? TOKEN_SCHEME.exec(header)?.[1] : undefined
  if (header && (tokenKey || /^Token\b/i.test(header))) {
    const token = await findToken(db, tokenKey)
    if (!token || token.siteId !== site.id) return null
    return withUser(db, site, token.userId, { via: 'token', keyHash: token.keyHash, session: null })
  }
  const session = await findSession(db, request.cookies[SESSION_COOKIE])
  if (!session || session.siteId !== site.id) return null
  return withUser(db, site, session.userId, { via: 'session', keyHash: session.keyHash, session })
}

async function withUser(
  db: Db,
  site: SiteRow,
  userId: number,
  credential: Pick<AuthContext, 'via' | 'keyHash' | 'session'>,
): Promise<AuthContext | null> {
  const user = await findUser(db, site.id, userId)
  if (!user?.isActive) return null
  return { user, roles: await loadRoles(db, site.id, user.id), ...credential }
}
