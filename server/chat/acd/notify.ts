import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { ChatRoom } from '../../../contract/api/chat.ts'
import { chatChannels, chatOutbox, chatQueues, chatRoomMessages, users } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import { publishChatEvent } from '../events.ts'
import type { ChatEvent } from '../types.ts'
import type { DbOrTx, RoomRow } from './store.ts'
import { updateRoom } from './store.ts'

// How the ACD tells the sockets and the customer. TEMPORARY until the chat core (server/chat/serialize.ts,
// outbound.ts) is merged: `roomShape` stands in for serializeRoom and `queueMessage` for outbound.systemMessage.

export async function roomShape(db: DbOrTx, row: RoomRow): Promise<ChatRoom> {
  const [channel] = await db.select().from(chatChannels).where(eq(chatChannels.id, row.channelId))
  const [queue] = row.queueId ? await db.select().from(chatQueues).where(eq(chatQueues.id, row.queueId)) : []
  const [user] = row.userId ? await db.select().from(users).where(eq(users.id, row.userId)) : []
  return {
    id: row.id,
    uid: row.uid,
    title: row.title,
    phone: row.phone,
    avatar: row.avatar,
    datetime: row.startedAt.toISOString(),
    end: row.endedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    status: row.state as ChatRoom['status'],
    archived: row.archived,
    channel: { id: row.channelId, description: channel?.description ?? '', type: (channel?.type ?? 'whatsapp') as 'whatsapp' | 'webchat' },
    queue: queue ? { id: queue.id, description: queue.description } : null,
    subtitle: '',
    badge_color: '',
    badge_icon: '',
    unread_messages: [],
    last_message: null,
    last_client_message_content: row.lastClientMessageContent,
    last_client_response_ts: row.lastClientMessageAt?.toISOString() ?? null,
    has_expired: false,
    can_agent_send_message: true,
    chat_type: row.chatType,
    user: user ? { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.username } : null,
    compatibility: {
      btn_template: channel?.btnTemplate ?? false,
      btn_dial: channel?.btnDial ?? false,
      send_attachment: channel?.sendAttachment ?? false,
      emoji: channel?.emoji ?? false,
      send_voice: channel?.sendVoice ?? false,
      show_message_status: channel?.showMessageStatus ?? false,
    },
    queue_position: null,
    estimated_wait: null,
    revision: row.revision,
  }
}

/** What happened to a room, told after the transaction that did it committed. */
export type RoomNotice =
  | { kind: 'offer'; room: RoomRow; userId: number; ringSeconds: number }
  | { kind: 'room'; room: RoomRow; users: number[] }
  | { kind: 'withdrawn'; room: RoomRow; userId: number; reason: 'no_answer' | 'taken' | 'ended' | 'transferred' }
  | { kind: 'removed'; room: RoomRow; userId: number }

export async function tell(deps: AppDeps, notices: readonly RoomNotice[]): Promise<void> {
  for (const notice of notices) {
    const base = { site_id: notice.room.siteId }
    let event: ChatEvent
    switch (notice.kind) {
      case 'offer':
        event = { type: 'offer', ...base, users: [notice.userId], room: await roomShape(deps.db, notice.room), ring_seconds: notice.ringSeconds }
        break
      case 'room':
        event = { type: 'room', ...base, users: notice.users, room: await roomShape(deps.db, notice.room) }
        break
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
 * A message of the system in a room: visible ones go to the customer through the outbox (queue announcements, the
 * time-out message, a canned message destination); hidden ones are notes for agents (a transfer). `uid` makes it
 * happen once even when two sweeps race (the unique (site, uid) index); answers whether it was written now.
 */
export async function queueMessage(db: DbOrTx, room: RoomRow, input: { uid?: string; content: string; visible: boolean }): Promise<boolean> {
  const [message] = await db
    .insert(chatRoomMessages)
    .values({
      uid: input.uid ?? randomUUID(),
      siteId: room.siteId,
      roomId: room.id,
      channelId: room.channelId,
      sentBy: 'system',
      type: input.visible ? 'text' : 'system',
      content: input.content,
      status: input.visible ? 'sending' : null,
      visible: input.visible,
    })
    .onConflictDoNothing()
    .returning()
  if (!message) return false
  if (input.visible) await db.insert(chatOutbox).values({ siteId: room.siteId, channelId: room.channelId, messageId: message.id, recipient: room.address })
  await updateRoom(db, room, null, { lastMessageAt: message.createdAt, lastMessageId: message.id })
  return true
}

/** Whether the room already has the message of this uid (a once-only announcement). */
export async function hasMessage(db: DbOrTx, siteId: number, uid: string): Promise<boolean> {
  const [row] = await db
    .select({ id: chatRoomMessages.id })
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.siteId, siteId), eq(chatRoomMessages.uid, uid)))
    .limit(1)
  return !!row
}
