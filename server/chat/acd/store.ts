import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { chatQueues, chatRooms } from '../../db/schema/index.ts'

// What the chat ACD's modules share: the rows, the per-site lock every load-increasing write takes, and the one way a
// room row is updated (always with the next chat revision, so a reconnecting chat socket sees the change).

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx
export type RoomRow = typeof chatRooms.$inferSelect
export type QueueRow = typeof chatQueues.$inferSelect

/** The answer of an ACD command: done, or refused with the status and the message the REST route answers. */
export type AcdRefusal = {
  ok: false
  status: 400 | 403 | 404 | 409
  key: 'notFound' | 'permissionDenied' | 'chatAnswerFailed' | 'chatTransferFailed' | 'chatTransferUnavailable' | 'userPaused'
}
export type AcdResult<T = { room: RoomRow }> = ({ ok: true } & T) | AcdRefusal

export const refuse = (status: AcdRefusal['status'], key: AcdRefusal['key']): AcdRefusal => ({ ok: false, status, key })

/** Rooms holding an agent: offered to them (ringing) or being served. Both count towards `chat_limit_per_user`. */
export const HOLDING_STATES = ['offered', 'active'] as const

const ACD_LOCK_SPACE = 0x43484154 // 'CHAT'

/**
 * Runs `fn` in a transaction holding the site's ACD lock (a transaction-scoped advisory lock, so it works the same on
 * PGlite and across PostgreSQL instances): everything that gives an agent a room (an offer, an auto-answer, a transfer
 * to an agent) happens under it, one after the other, so an agent's capacity and a room's single offer hold even when
 * two servers sweep at once. Answering, declining, ringing out and closing only free load and need no lock.
 */
export async function withAcdLock<T>(db: Db, siteId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ACD_LOCK_SPACE}::int, ${siteId}::int)`)
    return fn(tx)
  })
}

type RoomChanges = Partial<Omit<RoomRow, 'id' | 'uid' | 'siteId' | 'revision'>>

/** Updates a room (with its next revision) only if it is still in one of `states`; answers the new row or null. */
export async function updateRoom(
  db: DbOrTx,
  room: { id: number; siteId: number },
  states: readonly string[] | null,
  set: RoomChanges,
): Promise<RoomRow | null> {
  const where = [eq(chatRooms.id, room.id), eq(chatRooms.siteId, room.siteId)]
  if (states) where.push(sql`${chatRooms.state} in ${states}`)
  const [row] = await db
    .update(chatRooms)
    .set({ ...set, revision: sql`nextval('chat_revision_seq')` })
    .where(and(...where))
    .returning()
  return row ?? null
}

export async function findRoom(db: DbOrTx, siteId: number, roomId: number): Promise<RoomRow | null> {
  const [row] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.id, roomId), eq(chatRooms.siteId, siteId)))
  return row ?? null
}

export async function findQueue(db: DbOrTx, siteId: number, queueId: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(chatQueues)
    .where(and(eq(chatQueues.id, queueId), eq(chatQueues.siteId, siteId), eq(chatQueues.isActive, true)))
  return row ?? null
}

/** A destination's appdata naming a row id ('12'); null when it names none. */
export function idOf(appdata: string): number | null {
  return /^\d{1,9}$/.test(appdata) ? Number(appdata) : null
}
