import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'
import { chatPendingDeliveries, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { serializeMessage, serializeRoom } from './serialize.ts'
import type { DeliveryReport } from './types.ts'

// A delivery report (WHATSAPP.md §A1.5): statuses only move forward — sending < accepted < dispatched < received <
// consumed — and `failed` ends a message that was not read yet. A duplicate, a late or an out-of-order report
// changes nothing, so applying is idempotent. A report for an id not stored yet (the provider answered the webhook
// before the dispatcher stored the send call's answer) waits in chat_pending_deliveries: the dispatcher applies it
// when it stores that id; after PENDING_KEEP_MS the sweep forgets it (the id was never ours).

export const STATUS_RANK: Record<string, number> = { sending: 0, accepted: 1, dispatched: 2, received: 3, consumed: 4 }

/** WhatsApp's "Re-engagement message": free text outside the 24-hour window (WHATSAPP.md §A1.7). */
export const WINDOW_CLOSED_CODE = 131047

/**
 * The provider refused free text as outside the window (synchronously from the send call, or later in a status): the
 * room shows as expired (send a template) until the customer writes again, whatever our clock thought.
 */
export async function markWindowClosed(deps: AppDeps, roomId: number, at: Date): Promise<void> {
  const [room] = await deps.db
    .update(chatRooms)
    .set({ windowClosedAt: at, revision: sql`nextval('chat_revision_seq')` })
    .where(and(eq(chatRooms.id, roomId), isNull(chatRooms.windowClosedAt), or(isNull(chatRooms.lastClientMessageAt), lt(chatRooms.lastClientMessageAt, at))))
    .returning()
  if (room)
    await publishChatEvent(deps.bus, { type: 'room', site_id: room.siteId, users: await roomAudience(deps, room), room: await serializeRoom(deps, room) })
}

/** How long a report for an unknown provider id is kept. */
export const PENDING_KEEP_MS = 60 * 60 * 1000

const rankSql = sql`(case ${chatRoomMessages.status} when 'sending' then 0 when 'accepted' then 1 when 'dispatched' then 2 when 'received' then 3 when 'consumed' then 4 else 99 end)`

/** Applies a report to its message; false when no message carries that provider id (yet). */
async function applyToMessage(deps: AppDeps, report: DeliveryReport): Promise<boolean> {
  const { db } = deps
  const match = and(
    eq(chatRoomMessages.channelId, report.channelId),
    eq(chatRoomMessages.siteId, report.siteId),
    eq(chatRoomMessages.externalId, report.externalId),
  )
  const forward =
    report.status === 'failed'
      ? // A message read by the customer was delivered, whatever a late failure says; failed is final.
        sql`${rankSql} < 4`
      : sql`${rankSql} < ${STATUS_RANK[report.status]!}`
  const [updated] = await db
    .update(chatRoomMessages)
    .set({
      status: report.status,
      statusAt: report.at,
      ...(report.status === 'failed'
        ? { errorCode: report.error?.code ?? null, errorReason: report.error?.reason ?? '', externalError: report.error?.external_error ?? true }
        : {}),
      revision: sql`nextval('chat_revision_seq')`,
    })
    .where(and(match, forward))
    .returning()
  if (updated) {
    if (report.status === 'failed' && report.error?.code === WINDOW_CLOSED_CODE) await markWindowClosed(deps, updated.roomId, report.at)
    const [room] = await db
      .select({ id: chatRooms.id, siteId: chatRooms.siteId, userId: chatRooms.userId })
      .from(chatRooms)
      .where(eq(chatRooms.id, updated.roomId))
    if (room) {
      await publishChatEvent(deps.bus, {
        type: 'status',
        site_id: room.siteId,
        users: await roomAudience(deps, room),
        room_id: room.id,
        message: await serializeMessage(deps, updated),
      })
    }
    return true
  }
  const [known] = await db.select({ id: chatRoomMessages.id }).from(chatRoomMessages).where(match)
  return known !== undefined
}

export async function applyDelivery(deps: AppDeps, report: DeliveryReport): Promise<void> {
  if (await applyToMessage(deps, report)) return
  await deps.db.insert(chatPendingDeliveries).values({
    siteId: report.siteId,
    channelId: report.channelId,
    externalId: report.externalId,
    status: report.status,
    at: report.at,
    error: report.error ?? null,
  })
  // The dispatcher may have stored the id between the update above and this insert, and looked for pending reports
  // before this one existed: look once more.
  await applyPendingDeliveries(deps, report.channelId, report.externalId)
}

/** Applies (in status order) and forgets the reports that arrived before their message's provider id was stored. */
export async function applyPendingDeliveries(deps: AppDeps, channelId: number, externalId: string): Promise<void> {
  const pending = await deps.db
    .select()
    .from(chatPendingDeliveries)
    .where(and(eq(chatPendingDeliveries.channelId, channelId), eq(chatPendingDeliveries.externalId, externalId)))
    .orderBy(asc(chatPendingDeliveries.id))
  if (pending.length === 0) return
  pending.sort((a, b) => (STATUS_RANK[a.status] ?? 99) - (STATUS_RANK[b.status] ?? 99))
  for (const row of pending) {
    const report: DeliveryReport = {
      siteId: row.siteId,
      channelId: row.channelId,
      externalId: row.externalId,
      status: row.status as DeliveryReport['status'],
      at: row.at,
      ...(row.error ? { error: row.error } : {}),
    }
    if (!(await applyToMessage(deps, report))) return
    await deps.db.delete(chatPendingDeliveries).where(eq(chatPendingDeliveries.id, row.id))
  }
}

/** Forgets reports for ids that never became a message of ours. */
export async function sweepPendingDeliveries(deps: AppDeps, now = new Date()): Promise<void> {
  await deps.db.delete(chatPendingDeliveries).where(lt(chatPendingDeliveries.receivedAt, new Date(now.getTime() - PENDING_KEEP_MS)))
}
