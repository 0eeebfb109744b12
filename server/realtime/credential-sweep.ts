import { and, eq, gt, inArray } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { authTokens, sessions, users } from '../db/schema/index.ts'
import type { Connection } from './connections.ts'

// Sessions and tokens that expired or were deleted without an event, and users since disabled, lose their sockets.
// Two sweeps in a row must agree, so a logout whose own event is still on its way over the bus is reported as a
// logout rather than as an expiry.

export async function sweepCredentials(
  db: Db,
  open: Iterable<Connection>,
  endSession: (connection: Connection, reason: 'expired' | 'user-disabled') => void,
): Promise<void> {
  const connections = [...open]
  if (connections.length === 0) return
  const hashes = (via: 'session' | 'token') => [...new Set(connections.filter((c) => c.via === via).map((c) => c.credential))]
  const now = new Date()
  const sessionHashes = hashes('session')
  const tokenHashes = hashes('token')
  const userIds = [...new Set(connections.map((c) => c.userId))]
  const [liveSessions, liveTokens, activeUsers] = await Promise.all([
    sessionHashes.length
      ? db
          .select({ hash: sessions.keyHash })
          .from(sessions)
          .where(and(inArray(sessions.keyHash, sessionHashes), gt(sessions.expiresAt, now)))
      : [],
    tokenHashes.length
      ? db
          .select({ hash: authTokens.keyHash })
          .from(authTokens)
          .where(and(inArray(authTokens.keyHash, tokenHashes), gt(authTokens.expiresAt, now)))
      : [],
    db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, userIds), eq(users.isActive, true))),
  ])
  const live = new Set([...liveSessions, ...liveTokens].map((row) => row.hash))
  const active = new Set(activeUsers.map((row) => row.id))
  for (const connection of connections) {
    const reason = !live.has(connection.credential) ? 'expired' : !active.has(connection.userId) ? 'user-disabled' : null
    if (reason && connection.suspect) endSession(connection, reason)
    connection.suspect = reason !== null
  }
}
