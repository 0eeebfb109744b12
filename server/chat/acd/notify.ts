import { and, eq } from 'drizzle-orm'
import { chatRoomMessages } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import { publishChatEvent, roomAudience } from '../events.ts'
import { systemMessage } from '../outbound.ts'
import { serializeRoom } from '../serialize.ts'
import type { ChatEvent } from '../types.ts'
import type { DbOrTx, RoomRow } from './store.ts'

// How the ACD tells the sockets and the customer, always after the transaction that changed the room committed.

/** What happened to a room. */
export type RoomNotice =
  | { kind: 'offer'; room: RoomRow; userId: number; ringSeconds: number }
  | { kind: 'room'; room: RoomRow }
  | { kind: 'withdrawn'; room: RoomRow; userId: number; reason: 'no_answer' | 'taken' | 'ended' | 'transferred' }
  | { kind: 'removed'; room: RoomRow; userId: number }

/**
 * Publishes the notices: an offer to the agent it rings for; a room change to the room's audience (its agent and
 * whoever watches it, events.ts roomAudience); withdrawn / removed to the agent who loses the room. An offer and a
 * withdrawn offer are also a room change for the watchers (supervisors), never for the agent concerned.
 */
export async function tell(deps: AppDeps, notices: readonly RoomNotice[]): Promise<void> {
  for (const notice of notices) {
    if (notice.kind === 'offer' || (notice.kind === 'withdrawn' && notice.reason !== 'transferred' && notice.reason !== 'ended')) {
      const watchers = (await roomAudience(deps, notice.room)).filter((user) => user !== notice.userId)
      if (watchers.length > 0) {
        await publishChatEvent(deps.bus, { type: 'room', site_id: notice.room.siteId, users: watchers, room: await serializeRoom(deps, notice.room) })
      }
    }
    const base = { site_id: notice.room.siteId }
    let event: ChatEvent
    switch (notice.kind) {
      case 'offer':
        event = { type: 'offer', ...base, users: [notice.userId], room: await serializeRoom(deps, notice.room), ring_seconds: notice.ringSeconds }
        break
      case 'room': {
        const users = await roomAudience(deps, notice.room)
        if (users.length === 0) continue
        event = { type: 'room', ...base, users, room: await serializeRoom(deps, notice.room) }
        break
      }
      case 'withdrawn':
        event = { type: 'withdrawn', ...base, users: [notice.userId], room_id: notice.room.id, reason: notice.reason }
        break
      case 'removed':
        event = { type: 'removed', ...base, users: [notice.userId], room_id: notice.room.id }
        break
    }
    await publishChatEvent(deps.bus, event)
  }
}

/**
 * A message of the system in a room (outbound.ts systemMessage): visible ones go to the customer through the outbox
 * (queue announcements, the time-out message, a canned message destination); hidden ones are notes for agents (a
 * transfer). With a `uid` it is written once (a once-only announcement): answers whether it was written now.
 */
export async function queueMessage(deps: AppDeps, room: RoomRow, input: { uid?: string; content: string; visible: boolean }): Promise<boolean> {
  if (input.uid && (await hasMessage(deps.db, room.siteId, input.uid))) return false
  await systemMessage(deps, { siteId: room.siteId, roomId: room.id, content: input.content, visible: input.visible, uid: input.uid })
  return true
}

/** Whether the site already has the message of this uid. */
export async function hasMessage(db: DbOrTx, siteId: number, uid: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chatRoomMessages.id })
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.siteId, siteId), eq(chatRoomMessages.uid, uid)))
    .limit(1)
  return !!row
}
