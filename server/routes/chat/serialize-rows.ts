import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { ChatCompatibility, ChatMessage, ChatRoom, DeliveryStatus, MessageType, RoomState, SentBy } from '../../../contract/api/chat.ts'
import { OUTGOING_CHAT_TYPES } from '../../../contract/api/chat.ts'
import type { Db } from '../../db/client.ts'
import { chatChannels, chatQueues, chatRoomMessages, chatRooms, users } from '../../db/schema/index.ts'

// Rows of chat_rooms / chat_room_messages → the shapes of contract/api/chat.ts, in batches (a list of 50 rooms is a
// handful of queries, not 50 × n). The chat core's serializer (server/chat/serialize.ts, chatcore) writes the same
// shapes for the bus events; until it lands, the socket's answers and the REST lists use this one. Keep the two in
// step: tests/server/chat/ parse every frame with the contract's schemas.

export type RoomRow = typeof chatRooms.$inferSelect
export type MessageRow = typeof chatRoomMessages.$inferSelect

/** WhatsApp's customer-service window (WHATSAPP.md §A1.7): free text only within 24 h of the customer's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null)

const fullName = (u: { firstName: string; lastName: string; username: string }) => `${u.firstName} ${u.lastName}`.trim() || u.username

async function userNames(db: Db, ids: Iterable<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))]
  if (wanted.length === 0) return new Map()
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .where(inArray(users.id, wanted))
  return new Map(rows.map((u) => [u.id, fullName(u)]))
}

/** The attachment's authenticated URL (served by the core's attachment route, server/chat/attachments.ts). */
export function attachmentUrl(row: Pick<MessageRow, 'uid' | 'attachmentFile' | 'attachmentState'>): string | null {
  if (!row.attachmentFile || row.attachmentState !== 'ready') return null
  return `/api/v1/chat/attachments/${row.uid}/`
}

export async function serializeMessageRows(
  db: Db,
  rows: readonly MessageRow[],
  rooms?: ReadonlyMap<number, Pick<RoomRow, 'title' | 'avatar'>>,
): Promise<ChatMessage[]> {
  if (rows.length === 0) return []
  const names = await userNames(
    db,
    rows.map((r) => r.userId),
  )
  const roomInfo = new Map(rooms ?? [])
  const missingRooms = [...new Set(rows.map((r) => r.roomId))].filter((id) => !roomInfo.has(id))
  if (missingRooms.length) {
    for (const r of await db
      .select({ id: chatRooms.id, title: chatRooms.title, avatar: chatRooms.avatar })
      .from(chatRooms)
      .where(inArray(chatRooms.id, missingRooms)))
      roomInfo.set(r.id, r)
  }
  const replyIds = [...new Set(rows.map((r) => r.replyToId).filter((id): id is number => id !== null))]
  const replies = new Map<number, { id: number; content: string; type: MessageType; sent_by: SentBy }>()
  if (replyIds.length) {
    const found = await db
      .select({ id: chatRoomMessages.id, content: chatRoomMessages.content, type: chatRoomMessages.type, sentBy: chatRoomMessages.sentBy })
      .from(chatRoomMessages)
      .where(inArray(chatRoomMessages.id, replyIds))
    for (const r of found) replies.set(r.id, { id: r.id, content: r.content, type: r.type as MessageType, sent_by: r.sentBy as SentBy })
  }
  return rows.map((row) => {
    const room = roomInfo.get(row.roomId)
    const sentBy = row.sentBy as SentBy
    const name = sentBy === 'agent' ? (row.userId !== null ? (names.get(row.userId) ?? '') : '') : sentBy === 'client' ? (room?.title ?? '') : ''
    return {
      id: row.id,
      uid: row.uid,
      step: row.roomId,
      sent_by: sentBy,
      type: row.type as MessageType,
      content: row.content,
      attachment: attachmentUrl(row),
      attachment_name: row.attachmentName,
      name,
      avatar: sentBy === 'client' ? (room?.avatar ?? null) : null,
      datetime: row.createdAt.toISOString(),
      status: (row.status as DeliveryStatus | null) ?? null,
      visible: row.visible,
      visible_agent: row.visibleAgent,
      read: sentBy === 'client' ? row.readByAgent : true,
      is_reply: row.replyToId !== null,
      replied_message: row.replyToId !== null ? (replies.get(row.replyToId) ?? null) : null,
      can_reply: sentBy !== 'system' && row.type !== 'system',
      error: row.status === 'failed' ? { code: row.errorCode, reason: row.errorReason, external_error: row.externalError } : null,
      location:
        row.latitude !== null && row.longitude !== null
          ? { name: row.locationName, address: row.locationAddress, latitude: row.latitude, longitude: row.longitude }
          : null,
      contacts: row.contacts,
      template_type: null,
      template: null,
      user: row.userId,
      revision: row.revision,
    } satisfies ChatMessage
  })
}

function compatibility(type: string, phone: string, sendAttachment: boolean): ChatCompatibility {
  if (type === 'whatsapp') return { btn_template: true, btn_dial: true, send_attachment: true, emoji: true, send_voice: true, show_message_status: true }
  return { btn_template: false, btn_dial: phone !== '', send_attachment: sendAttachment, emoji: true, send_voice: false, show_message_status: true }
}

/** Unread customer messages per room (the console's badge: unread_messages). */
export async function unreadByRoom(db: Db, roomIds: readonly number[]): Promise<Map<number, number[]>> {
  const unread = new Map<number, number[]>()
  if (roomIds.length === 0) return unread
  const rows = await db
    .select({ id: chatRoomMessages.id, roomId: chatRoomMessages.roomId })
    .from(chatRoomMessages)
    .where(and(inArray(chatRoomMessages.roomId, [...roomIds]), eq(chatRoomMessages.sentBy, 'client'), eq(chatRoomMessages.readByAgent, false)))
    .orderBy(asc(chatRoomMessages.id))
  for (const r of rows) {
    let list = unread.get(r.roomId)
    if (!list) unread.set(r.roomId, (list = []))
    list.push(r.id)
  }
  return unread
}

export async function serializeRoomRows(db: Db, rows: readonly RoomRow[], now = Date.now()): Promise<ChatRoom[]> {
  if (rows.length === 0) return []
  const channelIds = [...new Set(rows.map((r) => r.channelId))]
  const queueIds = [...new Set(rows.map((r) => r.queueId).filter((id): id is number => id !== null))]
  const [channels, queues, names, unread] = await Promise.all([
    db
      .select({
        id: chatChannels.id,
        description: chatChannels.description,
        type: chatChannels.type,
        color: chatChannels.widgetColor,
        sendAttachment: chatChannels.sendAttachment,
      })
      .from(chatChannels)
      .where(inArray(chatChannels.id, channelIds)),
    queueIds.length ? db.select({ id: chatQueues.id, description: chatQueues.description }).from(chatQueues).where(inArray(chatQueues.id, queueIds)) : [],
    userNames(
      db,
      rows.map((r) => r.userId),
    ),
    unreadByRoom(
      db,
      rows.map((r) => r.id),
    ),
  ])
  const channelById = new Map(channels.map((c) => [c.id, c]))
  const queueById = new Map(queues.map((q) => [q.id, q]))
  const lastIds = rows.map((r) => r.lastMessageId).filter((id): id is number => id !== null)
  const lastRows = lastIds.length ? await db.select().from(chatRoomMessages).where(inArray(chatRoomMessages.id, lastIds)) : []
  const last = new Map((await serializeMessageRows(db, lastRows, new Map(rows.map((r) => [r.id, r])))).map((m) => [m.id, m]))
  const positions = new Map<number, number>()
  for (const r of rows) {
    if (r.state !== 'queued' || r.queueId === null || r.queuedAt === null) continue
    const [ahead] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(chatRooms)
      .where(and(eq(chatRooms.siteId, r.siteId), eq(chatRooms.queueId, r.queueId), eq(chatRooms.state, 'queued'), lte(chatRooms.queuedAt, r.queuedAt)))
    positions.set(r.id, ahead?.n ?? 1)
  }
  return rows.map((row) => {
    const channel = channelById.get(row.channelId)
    const type = channel?.type === 'webchat' ? 'webchat' : 'whatsapp'
    const queue = row.queueId !== null ? queueById.get(row.queueId) : undefined
    const ended = row.endedAt !== null
    const outgoing = OUTGOING_CHAT_TYPES.includes(row.chatType)
    const lastClient = row.lastClientMessageAt?.getTime() ?? null
    const hasExpired = type === 'whatsapp' && !ended && (lastClient === null ? !outgoing : now - lastClient > WINDOW_MS)
    const canSend = !ended && !hasExpired && !row.awaitingTemplateReply && (lastClient !== null || (type === 'webchat' && !outgoing))
    return {
      id: row.id,
      uid: row.uid,
      title: row.title,
      phone: row.phone,
      avatar: row.avatar,
      datetime: row.startedAt.toISOString(),
      end: iso(row.endedAt),
      finished_at: iso(row.finishedAt),
      status: row.state as RoomState,
      archived: row.archived,
      channel: { id: row.channelId, description: channel?.description ?? '', type },
      queue: queue ? { id: queue.id, description: queue.description } : null,
      subtitle: queue?.description ?? '',
      badge_color: type === 'whatsapp' ? '#25d366' : (channel?.color ?? '#1976d2'),
      badge_icon: type === 'whatsapp' ? 'mdi-whatsapp' : 'mdi-web',
      unread_messages: unread.get(row.id) ?? [],
      last_message: row.lastMessageId !== null ? (last.get(row.lastMessageId) ?? null) : null,
      last_client_message_content: row.lastClientMessageContent,
      last_client_response_ts: iso(row.lastClientMessageAt),
      has_expired: hasExpired,
      can_agent_send_message: canSend,
      chat_type: row.chatType,
      user: row.userId !== null ? { id: row.userId, name: names.get(row.userId) ?? '' } : null,
      compatibility: compatibility(type, row.phone, channel?.sendAttachment ?? true),
      queue_position: positions.get(row.id) ?? null,
      estimated_wait: null,
      revision: row.revision,
    } satisfies ChatRoom
  })
}
