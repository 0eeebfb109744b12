import { and, asc, desc, eq, gte, isNotNull, sql } from 'drizzle-orm'
import { chatRooms } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import type { DbOrTx } from './store.ts'

// A waiting room's place in its queue and its estimated wait (the serializer fills queue_position / estimated_wait
// from it). Imports nothing of the chat engine, so serialize.ts can use it.

/** How many recent answered rooms of the queue the average wait is taken over. */
export const EWT_SAMPLE = 20
const DAY_MS = 24 * 60 * 60 * 1000

export type QueuePlace = { position: number; estimated_wait: number | null }

/**
 * The place of every waiting room of a queue (1 = next; oldest first) and its estimated wait in seconds:
 * EWT(position p) = round(W̄ × p), where W̄ is the mean wait (answered_at − queued_at) of the queue's last EWT_SAMPLE
 * rooms answered in the last 24 hours; null while the queue has no such history.
 */
export async function queuePositions(deps: Pick<AppDeps, 'db'>, siteId: number, queueId: number): Promise<Map<number, QueuePlace>> {
  const waiting = await deps.db
    .select({ id: chatRooms.id })
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), eq(chatRooms.queueId, queueId), eq(chatRooms.state, 'queued')))
    .orderBy(asc(chatRooms.queuedAt), asc(chatRooms.id))
  const average = waiting.length === 0 ? null : await averageWait(deps.db, siteId, queueId, new Date())
  return new Map(waiting.map((row, index) => [row.id, { position: index + 1, estimated_wait: average === null ? null : Math.round(average * (index + 1)) }]))
}

/** Mean wait in seconds of the queue's recent answered rooms (see queuePositions), null without any. */
export async function averageWait(db: DbOrTx, siteId: number, queueId: number, now: Date): Promise<number | null> {
  const recent = db
    .select({ wait: sql<number>`extract(epoch from (${chatRooms.answeredAt} - ${chatRooms.queuedAt}))`.as('wait') })
    .from(chatRooms)
    .where(
      and(
        eq(chatRooms.siteId, siteId),
        eq(chatRooms.queueId, queueId),
        isNotNull(chatRooms.queuedAt),
        gte(chatRooms.answeredAt, new Date(now.getTime() - DAY_MS)),
        sql`${chatRooms.answeredAt} >= ${chatRooms.queuedAt}`,
      ),
    )
    .orderBy(desc(chatRooms.answeredAt))
    .limit(EWT_SAMPLE)
    .as('recent')
  const [row] = await db.select({ avg: sql<number | string | null>`avg(${recent.wait})` }).from(recent)
  return row?.avg === null || row?.avg === undefined ? null : Number(row.avg)
}
