import { and, asc, eq, inArray } from 'drizzle-orm'
import type { ChatCompatibility, ChatMessage, ChatRoom, DeliveryStatus, MessageType, RoomState, SentBy } from '../../contract/api/chat.ts'
import { CHAT_TYPES } from '../../contract/api/chat.ts'
import type { AppDeps } from '../deps.ts'
import type { Db } from '../db/client.ts'
import { chatChannels, chatQueues, chatRoomMessages, chatRooms, chatTemplates, users } from '../db/schema/index.ts'
import { windowOpen } from './window.ts'
import { queuePositions } from './acd/positions.ts'
import type { QueuePlace } from './acd/positions.ts'

// Rows → the shapes of contract/api/chat.ts, the same for REST answers, chat-socket frames and the widget.

export type RoomRow = typeof chatRooms.$inferSelect
export type MessageRow = typeof chatRoomMessages.$inferSelect
export type ChannelRow = typeof chatChannels.$inferSelect

/** The authenticated URL of a message's attachment (server/chat/attachments.ts serves it). */
export function attachmentUrl(messageId: number): string {
  return `/api/v1/chat/attachments/${messageId}/`
}

export function compatibility(channel: ChannelRow): ChatCompatibility {
  const whatsapp = channel.type === 'whatsapp'
  return {
    btn_template: whatsapp && channel.btnTemplate,
    btn_dial: channel.btnDial,
    send_attachment: channel.sendAttachment,
    emoji: channel.emoji,
    send_voice: channel.sendVoice,
    show_message_status: channel.showMessageStatus,
  }
}

/**
 * WhatsApp only: the customer wrote and their last message is past the 24-hour window, or the provider said so (a
 * 131047 refusal) since their last message.
 */
export function roomHasExpired(room: Pick<RoomRow, 'lastClientMessageAt' | 'windowClosedAt'>, channel: Pick<ChannelRow, 'type'>, now = new Date()): boolean {
  if (channel.type !== 'whatsapp') return false
  return room.windowClosedAt !== null || (room.lastClientMessageAt !== null && !windowOpen(room.lastClientMessageAt, now))
}

/**
 * Spec 001 §4: not on an ended room, not while an outgoing chat waits for the customer's answer to its template, and
 * on an outgoing chat only once the customer has written.
 */
export function agentMaySend(room: Pick<RoomRow, 'state' | 'awaitingTemplateReply' | 'chatType' | 'lastClientMessageAt'>): boolean {
  if (room.state === 'ended' || room.awaitingTemplateReply) return false
  return room.chatType === CHAT_TYPES.inbound || room.lastClientMessageAt !== null
}

const userName = (u: { firstName: string; lastName: string; username: string }) => `${u.firstName} ${u.lastName}`.trim() || u.username

async function userNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .where(inArray(users.id, ids))
  return new Map(rows.map((row) => [row.id, userName(row)]))
}

export async function serializeMessages(deps: Pick<AppDeps, 'db'>, rows: MessageRow[], room?: Pick<RoomRow, 'id' | 'title'>): Promise<ChatMessage[]> {
  if (rows.length === 0) return []
  const { db } = deps
  const names = await userNames(db, [...new Set(rows.map((row) => row.userId).filter((id): id is number => id !== null))])
  const replyIds = [...new Set(rows.map((row) => row.replyToId).filter((id): id is number => id !== null))]
  const replies = replyIds.length
    ? new Map(
        (
          await db
            .select({ id: chatRoomMessages.id, content: chatRoomMessages.content, type: chatRoomMessages.type, sentBy: chatRoomMessages.sentBy })
            .from(chatRoomMessages)
            .where(inArray(chatRoomMessages.id, replyIds))
        ).map((r) => [r.id, r]),
      )
    : new Map()
  const titles = new Map<number, string>()
  if (room) titles.set(room.id, room.title)
  const missing = [...new Set(rows.map((row) => row.roomId))].filter((id) => !titles.has(id))
  if (missing.length) {
    for (const r of await db.select({ id: chatRooms.id, title: chatRooms.title }).from(chatRooms).where(inArray(chatRooms.id, missing)))
      titles.set(r.id, r.title)
  }
  const templateIds = [...new Set(rows.map((row) => row.templateId).filter((id): id is number => id !== null))]
  const templates = templateIds.length
    ? new Map(
        (
          await db
            .select({ id: chatTemplates.id, templateType: chatTemplates.templateType, media: chatTemplates.media })
            .from(chatTemplates)
            .where(inArray(chatTemplates.id, templateIds))
        ).map((t) => [t.id, t]),
      )
    : new Map<number, { id: number; templateType: string; media: string | null }>()
  return rows.map((row) => {
    const reply = row.replyToId !== null ? replies.get(row.replyToId) : undefined
    const template = row.templateId !== null ? templates.get(row.templateId) : undefined
    const templateType = template && (template.templateType === 'IMAGE' || template.templateType === 'VIDEO') ? template.templateType : null
    const name =
      row.sentBy === 'agent' ? (row.userId !== null ? (names.get(row.userId) ?? '') : '') : row.sentBy === 'client' ? (titles.get(row.roomId) ?? '') : ''
    return {
      id: row.id,
      uid: row.uid,
      step: row.roomId,
      sent_by: row.sentBy as SentBy,
      type: row.type as MessageType,
      content: row.content,
      attachment: row.attachmentState === 'ready' && row.attachmentFile ? attachmentUrl(row.id) : null,
      attachment_name: row.attachmentName,
      name,
      avatar: null,
      datetime: row.createdAt.toISOString(),
      status: (row.status as DeliveryStatus | null) ?? null,
      visible: row.visible,
      visible_agent: row.visibleAgent,
      read: row.readByAgent,
      is_reply: row.replyToId !== null,
      replied_message: reply ? { id: reply.id, content: reply.content, type: reply.type as MessageType, sent_by: reply.sentBy as SentBy } : null,
      can_reply: row.sentBy !== 'system' && (row.externalId !== null || row.sentBy === 'client'),
      error: row.status === 'failed' ? { code: row.errorCode, reason: row.errorReason, external_error: row.externalError } : null,
      location:
        row.latitude !== null && row.longitude !== null
          ? { name: row.locationName, address: row.locationAddress, latitude: row.latitude, longitude: row.longitude }
          : null,
      contacts: row.contacts,
      template_type: templateType,
      template: templateType && template?.media ? template.media : null,
      user: row.userId,
      revision: row.revision,
    }
  })
}

export async function serializeMessage(deps: Pick<AppDeps, 'db'>, row: MessageRow): Promise<ChatMessage> {
  return (await serializeMessages(deps, [row]))[0]!
}

const BADGES: Record<string, { color: string; icon: string }> = {
  whatsapp: { color: '#25D366', icon: 'mdi-whatsapp' },
  webchat: { color: '#1976D2', icon: 'mdi-chat' },
}

export async function serializeRooms(deps: Pick<AppDeps, 'db'>, rows: RoomRow[], now = new Date()): Promise<ChatRoom[]> {
  if (rows.length === 0) return []
  const { db } = deps
  const channelIds = [...new Set(rows.map((r) => r.channelId))]
  const channels = new Map((await db.select().from(chatChannels).where(inArray(chatChannels.id, channelIds))).map((c) => [c.id, c]))
  const queueIds = [...new Set(rows.map((r) => r.queueId).filter((id): id is number => id !== null))]
  const queues = queueIds.length
    ? new Map(
        (await db.select({ id: chatQueues.id, description: chatQueues.description }).from(chatQueues).where(inArray(chatQueues.id, queueIds))).map((q) => [
          q.id,
          q,
        ]),
      )
    : new Map<number, { id: number; description: string }>()
  const names = await userNames(db, [...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))])
  const roomIds = rows.map((r) => r.id)
  const unread = await db
    .select({ id: chatRoomMessages.id, roomId: chatRoomMessages.roomId })
    .from(chatRoomMessages)
    .where(and(inArray(chatRoomMessages.roomId, roomIds), eq(chatRoomMessages.sentBy, 'client'), eq(chatRoomMessages.readByAgent, false)))
    .orderBy(asc(chatRoomMessages.id))
  const unreadByRoom = new Map<number, number[]>()
  for (const u of unread) (unreadByRoom.get(u.roomId) ?? unreadByRoom.set(u.roomId, []).get(u.roomId)!).push(u.id)
  const lastIds = rows.map((r) => r.lastMessageId).filter((id): id is number => id !== null)
  const lastRows = lastIds.length ? await db.select().from(chatRoomMessages).where(inArray(chatRoomMessages.id, lastIds)) : []
  const lastMessages = new Map((await serializeMessages(deps, lastRows)).map((m) => [m.id, m]))
  const places = await waitingPlaces(deps, rows)
  return rows.map((room) => {
    const channel = channels.get(room.channelId)!
    const queue = room.queueId !== null ? queues.get(room.queueId) : undefined
    const badge = BADGES[channel.type] ?? BADGES.webchat!
    return {
      id: room.id,
      uid: room.uid,
      title: room.title || room.phone || room.contact,
      phone: room.phone,
      avatar: room.avatar,
      datetime: room.startedAt.toISOString(),
      end: room.endedAt?.toISOString() ?? null,
      finished_at: room.finishedAt?.toISOString() ?? null,
      status: room.state as RoomState,
      archived: room.archived,
      channel: { id: channel.id, description: channel.description, type: channel.type === 'webchat' ? 'webchat' : 'whatsapp' },
      queue: queue ? { id: queue.id, description: queue.description } : null,
      subtitle: channel.description,
      badge_color: channel.type === 'webchat' ? channel.widgetColor || badge.color : badge.color,
      badge_icon: badge.icon,
      unread_messages: unreadByRoom.get(room.id) ?? [],
      last_message: room.lastMessageId !== null ? (lastMessages.get(room.lastMessageId) ?? null) : null,
      last_client_message_content: room.lastClientMessageContent,
      last_client_response_ts: room.lastClientMessageAt?.toISOString() ?? null,
      has_expired: roomHasExpired(room, channel, now),
      can_agent_send_message: agentMaySend(room),
      chat_type: room.chatType,
      user: room.userId !== null ? { id: room.userId, name: names.get(room.userId) ?? '' } : null,
      compatibility: compatibility(channel),
      queue_position: places.get(room.id)?.position ?? null,
      estimated_wait: places.get(room.id)?.estimated_wait ?? null,
      revision: room.revision,
    }
  })
}

/** The queue place and estimated wait of the rooms waiting in a queue (acd/positions.ts). */
async function waitingPlaces(deps: Pick<AppDeps, 'db'>, rows: RoomRow[]): Promise<Map<number, QueuePlace>> {
  const places = new Map<number, QueuePlace>()
  const queues = new Map(rows.filter((r) => r.state === 'queued' && r.queueId !== null).map((r) => [r.queueId!, r.siteId]))
  for (const [queueId, siteId] of queues) for (const [id, place] of await queuePositions(deps, siteId, queueId)) places.set(id, place)
  return places
}

export async function serializeRoom(deps: Pick<AppDeps, 'db'>, row: RoomRow): Promise<ChatRoom> {
  return (await serializeRooms(deps, [row]))[0]!
}

/** A room by id within a site, serialized; null when absent. */
export async function loadRoom(deps: Pick<AppDeps, 'db'>, siteId: number, roomId: number): Promise<ChatRoom | null> {
  const [row] = await deps.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), eq(chatRooms.id, roomId)))
  return row ? serializeRoom(deps, row) : null
}
