import type { Db } from '../db/client.ts'
import type { SessionRow, UserRow } from '../db/schema/index.ts'
import type { Bus, SessionEndedEvent } from '../bus/bus.ts'
import { SESSION_ENDED } from '../bus/bus.ts'
import type { NewSession } from './session-store.ts'
import { deleteSession, deleteUserSessions, rotateSession } from './session-store.ts'
import { revokeToken, revokeUserTokens } from './token-store.ts'
import { authChanged } from './auth-cache.ts'

/** The credential a request was authenticated with (http/authenticate.ts AuthContext has these fields). */
type AuthContext = { user: Pick<UserRow, 'id' | 'siteId'>; via: 'session' | 'token'; keyHash: string; session: SessionRow | null }

// Ending credentials always goes with a `session-ended` event, so live sockets of those sessions can close, and with
// an auth-cache change, so no instance accepts an ended credential on its next request (auth/auth-cache.ts).

/** Logout: ends the credential the request used. */
export async function endCurrentCredential(db: Db, bus: Bus, auth: AuthContext): Promise<void> {
  if (auth.via === 'token') await revokeToken(db, auth.keyHash)
  else await deleteSession(db, auth.keyHash)
  await announce(db, bus, auth, 'logout', null)
}

/**
 * Password change: every other session and token of the user ends. The caller's session survives under a new id
 * (returned, so the cookie can follow); a caller's token survives as it is.
 */
export async function endOtherCredentials(db: Db, bus: Bus, auth: AuthContext): Promise<NewSession | null> {
  const rotated = auth.session ? await rotateSession(db, auth.session) : null
  const keep = rotated?.keyHash ?? auth.keyHash
  await deleteUserSessions(db, auth.user.id, auth.via === 'session' ? keep : undefined)
  await revokeUserTokens(db, auth.user.id, auth.via === 'token' ? keep : undefined)
  await announce(db, bus, auth, 'password-change', keep, rotated ? auth.keyHash : null)
  return rotated
}

async function announce(db: Db, bus: Bus, auth: AuthContext, reason: SessionEndedEvent['reason'], keep: string | null, rotatedFrom: string | null = null) {
  const event: SessionEndedEvent = { user_id: auth.user.id, site_id: auth.user.siteId, reason, keep, rotated_from: rotatedFrom }
  await authChanged(db, bus, { kind: 'user', user_id: auth.user.id })
  await bus.publish(SESSION_ENDED, event)
}

/** Why every credential of a user ends at once. */
export type EndAllReason = 'user-disabled' | 'password-reset'

/**
 * Every session and token of the user ends, and every instance closes their sockets at once (the credential sweep
 * would only notice within two sweeps). The one way to sign a user out everywhere: a user disabled or deleted, and
 * every password reset by someone else (an administrator's PUT/PATCH of the user). Deleting a user deletes their
 * credentials by cascade; the deletes here then find nothing, and the event still goes out.
 */
export async function endUserCredentials(db: Db, bus: Bus, who: { siteId: number; userId: number }, reason: EndAllReason = 'user-disabled'): Promise<void> {
  await deleteUserSessions(db, who.userId)
  await revokeUserTokens(db, who.userId)
  const event: SessionEndedEvent = { user_id: who.userId, site_id: who.siteId, reason, keep: null, rotated_from: null }
  await authChanged(db, bus, { kind: 'user', user_id: who.userId })
  await bus.publish(SESSION_ENDED, event)
}
