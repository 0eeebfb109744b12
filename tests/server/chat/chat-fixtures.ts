import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../../server/db/client.ts'
import type { Bus } from '../../../server/bus/bus.ts'
import { chatChannels, chatRoomMessages, chatRooms, users } from '../../../server/db/schema/index.ts'
import { publishChatEvent } from '../../../server/chat/events.ts'
import { serializeMessageRows, serializeRoomRows } from '../../../server/routes/chat/serialize-rows.ts'
import type { MessageRow, RoomRow } from '../../../server/routes/chat/serialize-rows.ts'
import { CHAT_SOCKET_PATH } from '../../../contract/realtime/chat-socket.ts'
import type { ChatServerMessage } from '../../../contract/realtime/chat-socket.ts'
import { openTypedSocket } from '../realtime/ws-helper.ts'
import type { OpenOptions, SocketClient } from '../realtime/ws-helper.ts'

// Rooms and messages written straight into the tables, and the events the chat core would publish for them: the
// socket and the routes are tested on their own, whatever the core does to produce the rows.

export type ChatClient = SocketClient<ChatServerMessage>

export function openChat(base: string, options: OpenOptions = {}): Promise<ChatClient> {
  return openTypedSocket<ChatServerMessage>(base, { path: CHAT_SOCKET_PATH, ...options })
}

export async function userId(db: Db, siteId: number, username: string): Promise<number> {
  const [row] = await db.select({ id: users.id, siteId: users.siteId }).from(users).where(eq(users.username, username))
  if (!row || row.siteId !== siteId) throw new Error(`no user ${username} in site ${siteId}`)
  return row.id
}

export async function channel(db: Db, siteId: number, type: 'whatsapp' | 'webchat' = 'whatsapp'): Promise<number> {
  const [row] = await db
    .insert(chatChannels)
    .values({ siteId, description: `${type} ${randomUUID().slice(0, 6)}`, type })
    .returning({ id: chatChannels.id })
  return row!.id
}

let contacts = 0

export async function room(
  db: Db,
  values: {
    siteId: number
    channelId: number
    userId: number | null
    state?: string
    title?: string
    phone?: string
    ended?: boolean
    archived?: boolean
    contact?: string
  },
): Promise<RoomRow> {
  const contact = values.contact ?? `55119${String(++contacts).padStart(8, '0')}${Date.now() % 1000}`
  const ended = values.ended ?? values.state === 'ended'
  const [row] = await db
    .insert(chatRooms)
    .values({
      uid: randomUUID(),
      siteId: values.siteId,
      channelId: values.channelId,
      contact,
      address: contact,
      phone: values.phone ?? contact,
      title: values.title ?? `Cliente ${contacts}`,
      userId: values.userId,
      state: values.state ?? 'active',
      answeredAt: values.state === 'offered' ? null : new Date(),
      endedAt: ended ? new Date() : null,
      archived: values.archived ?? false,
    })
    .returning()
  return row!
}

/** A message as the core would write it: the row, then the room's last message and revision. */
export async function message(
  db: Db,
  target: RoomRow,
  values: { sentBy?: 'client' | 'agent' | 'system'; content?: string; userId?: number | null; attachment?: string; at?: Date } = {},
): Promise<MessageRow> {
  const sentBy = values.sentBy ?? 'client'
  const at = values.at ?? new Date()
  const [row] = await db
    .insert(chatRoomMessages)
    .values({
      uid: randomUUID(),
      siteId: target.siteId,
      roomId: target.id,
      channelId: target.channelId,
      sentBy,
      userId: sentBy === 'agent' ? (values.userId ?? target.userId) : null,
      content: values.content ?? 'olá',
      status: sentBy === 'agent' ? 'accepted' : null,
      attachmentFile: values.attachment ? `${randomUUID().slice(0, 8)}.pdf` : null,
      attachmentName: values.attachment ?? '',
      attachmentState: values.attachment ? 'ready' : 'none',
      createdAt: at,
    })
    .returning()
  await db
    .update(chatRooms)
    .set({
      lastMessageId: row!.id,
      lastMessageAt: at,
      revision: sql`nextval('chat_revision_seq')`,
      ...(sentBy === 'client' ? { lastClientMessageAt: at, lastClientMessageContent: row!.content } : {}),
    })
    .where(eq(chatRooms.id, target.id))
  return row!
}

export async function reload(db: Db, id: number): Promise<RoomRow> {
  const [row] = await db.select().from(chatRooms).where(eq(chatRooms.id, id))
  return row!
}

/** Publishes what the core publishes after writing a message. */
export async function announceMessage(db: Db, bus: Bus, row: MessageRow, usersToTell: number[]): Promise<void> {
  const [serialized] = await serializeMessageRows(db, [row])
  await publishChatEvent(bus, { type: 'message', site_id: row.siteId, users: usersToTell, room_id: row.roomId, message: serialized! })
}

export async function announceRoom(db: Db, bus: Bus, row: RoomRow, usersToTell: number[]): Promise<void> {
  const [serialized] = await serializeRoomRows(db, [await reload(db, row.id)])
  await publishChatEvent(bus, { type: 'room', site_id: row.siteId, users: usersToTell, room: serialized! })
}
