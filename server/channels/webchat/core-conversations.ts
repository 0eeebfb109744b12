import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { and, desc, eq, gt, inArray, isNull, lte, notInArray, sql } from 'drizzle-orm'
import type { ChatMessage, ChatRoom } from '../../../contract/api/chat.ts'
import type { VisitorMessage, VisitorMessageType, VisitorServerMessage } from '../../../contract/realtime/visitor-socket.ts'
import { applyDelivery } from '../../chat/delivery.ts'
import { CHAT_CHANNEL, publishChatEvent } from '../../chat/events.ts'
import { receiveInbound } from '../../chat/inbound.ts'
import type { ChatEvent } from '../../chat/types.ts'
import { chatRoomMessages, chatRooms } from '../../db/schema/chat.ts'
import { users } from '../../db/schema/users.ts'
import type { AppDeps } from '../../deps.ts'
import type { VisitorRef, WebchatConversations } from './conversations.ts'

// Phase 2: the visitor's conversation is a room of the chat core (server/chat/README.md). A visitor's message is an
// inbound message (contact = the visitor id: one open room per visitor per channel); the widget's uid becomes the
// message uid, namespaced by the visitor (a UUID made from both) so one visitor can neither collide with nor read
// another's message by guessing its uid, and a re-send after a time-out leaves one message (QUALITY 10). What agents do
// reaches the widget two ways: their messages through the outbox and this channel's driver (driver.ts), and
// typing/read/end/agent changes through the core's bus events, bridged here to the visitor sockets of this instance.

const HISTORY_LIMIT = 200

/** The message uid the core stores for a visitor's own uid (UUID-shaped, 36 characters). */
export function coreUid(visitorId: string, uid: string): string {
  const hex = createHash('sha256').update(`webchat:${visitorId}:${uid}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

const VISITOR_TYPES: Record<string, VisitorMessageType> = { text: 'text', photo: 'photo', video: 'video', audio: 'audio', voice: 'audio', document: 'document' }

type Row = typeof chatRoomMessages.$inferSelect & { agentName: string | null }

export function toVisitorMessage(ref: Pick<VisitorRef, 'channelId' | 'visitorId'>, row: Row): VisitorMessage {
  const type = VISITOR_TYPES[row.type] ?? 'text'
  const hasFile = row.attachmentFile !== null && row.attachmentState === 'ready'
  let content = row.content
  if (row.type === 'location' && row.latitude !== null && row.longitude !== null) {
    content = [row.locationName, row.locationAddress, `https://www.openstreetmap.org/?mlat=${row.latitude}&mlon=${row.longitude}`].filter(Boolean).join('\n')
  }
  return {
    id: row.id,
    uid: row.uid,
    sent_by: row.sentBy === 'client' || row.sentBy === 'agent' ? row.sentBy : 'system',
    type: hasFile ? type : 'text',
    content,
    attachment: hasFile ? `/widget/files/${ref.channelId}/${ref.visitorId}/${row.attachmentFile}` : null,
    attachment_name: hasFile ? row.attachmentName || row.attachmentFile : null,
    name: row.sentBy === 'agent' ? row.agentName : null,
    datetime: row.createdAt.toISOString(),
    status: row.sentBy === 'client' && row.readByAgent ? 'read' : 'sent',
  }
}

const agentName = sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`

/** A room of a webchat channel: whose it is (cached per instance; a room's channel and contact never change). */
type RoomOwner = { siteId: number; channelId: number; visitorId: string } | null

export type CoreConversations = WebchatConversations & {
  /** Starts forwarding the core's events to this instance's visitor sockets; answers the unsubscribe. */
  bridge(deliver: (channelId: number, visitorId: string, frame: VisitorServerMessage) => void): Promise<() => Promise<void>>
}

export function createCoreConversations(deps: AppDeps): CoreConversations {
  const { db, bus } = deps
  const owners = new Map<number, RoomOwner>()

  const visitorRooms = (ref: VisitorRef) => and(eq(chatRooms.siteId, ref.siteId), eq(chatRooms.channelId, ref.channelId), eq(chatRooms.contact, ref.visitorId))

  async function openRoom(ref: VisitorRef) {
    const [room] = await db
      .select({ id: chatRooms.id, userId: chatRooms.userId })
      .from(chatRooms)
      .where(and(visitorRooms(ref), isNull(chatRooms.endedAt)))
      .limit(1)
    return room ?? null
  }

  async function messages(ref: VisitorRef, where: ReturnType<typeof and>, limit = HISTORY_LIMIT): Promise<VisitorMessage[]> {
    const rows = await db
      .select({ message: chatRoomMessages, agentName })
      .from(chatRoomMessages)
      .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
      .leftJoin(users, eq(users.id, chatRoomMessages.userId))
      .where(and(visitorRooms(ref), eq(chatRoomMessages.visible, true), where))
      .orderBy(desc(chatRoomMessages.id))
      .limit(limit)
    return rows.reverse().map((row) => toVisitorMessage(ref, { ...row.message, agentName: row.agentName }))
  }

  async function ownerOf(roomId: number): Promise<RoomOwner> {
    if (owners.has(roomId)) return owners.get(roomId)!
    const [room] = await db
      .select({ siteId: chatRooms.siteId, channelId: chatRooms.channelId, contact: chatRooms.contact })
      .from(chatRooms)
      .where(eq(chatRooms.id, roomId))
    const owner = room ? { siteId: room.siteId, channelId: room.channelId, visitorId: room.contact } : null
    if (owners.size > 50_000) owners.clear()
    owners.set(roomId, owner)
    return owner
  }

  return {
    async startSession() {
      // Nothing to store: the profile travels in the visitor token and reaches the core with the first message.
    },

    async deliverVisitorMessage(ref, input) {
      const uid = coreUid(ref.visitorId, input.uid)
      // The core keeps a room's files under DATA_DIR/media/chat-<site>/ by their stored name: the upload goes there
      // too, under the same random name (the visitor's copy keeps serving /widget/files/).
      if (input.file) {
        const dir = path.join(deps.config.mediaDir, `chat-${ref.siteId}`)
        await mkdir(dir, { recursive: true })
        await copyFile(input.file.path, path.join(dir, input.file.id), constants.COPYFILE_EXCL).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error
        })
      }
      const result = await receiveInbound(deps, {
        siteId: ref.siteId,
        channelId: ref.channelId,
        customer: {
          contact: ref.visitorId,
          name: input.profile.name || undefined,
          email: input.profile.email || undefined,
          phone: input.profile.phone.replace(/\D/g, '') || undefined,
        },
        uid,
        type: input.file?.type ?? 'text',
        content: input.content,
        attachment: input.file ? { file: input.file.id, name: input.file.name, mime: input.file.mime, size: input.file.size } : undefined,
        sentAt: new Date(),
      })
      const [stored] = await messages(ref, eq(chatRoomMessages.id, result.messageId), 1)
      if (!stored) throw new Error(`webchat: inbound message ${result.messageId} not found`)
      // The widget matches its pending bubble by its own uid.
      return { ...stored, uid: input.uid }
    },

    async history(ref, cursor) {
      return messages(ref, cursor === null ? undefined : gt(chatRoomMessages.id, cursor))
    },

    async visitorRead(ref, upTo) {
      const rows = await db
        .select({ uid: chatRoomMessages.uid })
        .from(chatRoomMessages)
        .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
        .where(
          and(
            visitorRooms(ref),
            eq(chatRoomMessages.sentBy, 'agent'),
            lte(chatRoomMessages.id, upTo),
            notInArray(chatRoomMessages.status, ['consumed', 'failed']),
          ),
        )
        .limit(HISTORY_LIMIT)
      const at = new Date()
      for (const row of rows) await applyDelivery(deps, { siteId: ref.siteId, channelId: ref.channelId, externalId: row.uid, status: 'consumed', at })
    },

    async visitorReceived(ref, received) {
      if (!received.length) return
      // The driver reported each agent message under its uid (driver.ts), which is its external id: a receipt that
      // beats the driver's own result is kept by the core until it lands (pending deliveries). Only this visitor's.
      const rows = await db
        .select({ uid: chatRoomMessages.uid })
        .from(chatRoomMessages)
        .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
        .where(
          and(
            visitorRooms(ref),
            inArray(
              chatRoomMessages.id,
              received.map((m) => m.id),
            ),
            inArray(chatRoomMessages.status, ['sending', 'accepted', 'dispatched']),
          ),
        )
      const at = new Date()
      for (const row of rows) await applyDelivery(deps, { siteId: ref.siteId, channelId: ref.channelId, externalId: row.uid, status: 'received', at })
    },

    async visitorTyping(ref, typing) {
      if (!typing) return
      const room = await openRoom(ref)
      if (!room?.userId) return
      await publishChatEvent(bus, { type: 'typing', site_id: ref.siteId, users: [room.userId], room_id: room.id, from: 'client' })
    },

    async currentAgent(ref) {
      const [row] = await db
        .select({ name: agentName, avatar: users.avatar })
        .from(chatRooms)
        .innerJoin(users, eq(users.id, chatRooms.userId))
        .where(and(visitorRooms(ref), isNull(chatRooms.endedAt)))
        .limit(1)
      return row ? { name: row.name ?? '', avatar: null } : null
    },

    async attachmentPath(ref, name) {
      const [row] = await db
        .select({ id: chatRoomMessages.id })
        .from(chatRoomMessages)
        .innerJoin(chatRooms, eq(chatRooms.id, chatRoomMessages.roomId))
        .where(and(visitorRooms(ref), eq(chatRoomMessages.attachmentFile, name), eq(chatRoomMessages.visible, true)))
        .limit(1)
      // Where the core keeps chat files (server/db/schema/chat.ts attachment_file).
      return row ? path.join(deps.config.mediaDir, `chat-${ref.siteId}`, name) : null
    },

    async bridge(deliver) {
      return bus.subscribe(CHAT_CHANNEL, (payload) => {
        const event = payload as ChatEvent
        void forward(event, deliver).catch(() => {})
      })
    },
  }

  async function forward(event: ChatEvent, deliver: (channelId: number, visitorId: string, frame: VisitorServerMessage) => void): Promise<void> {
    if (event.type === 'typing') {
      if (event.from !== 'agent') return
      const owner = await ownerOf(event.room_id)
      if (owner) deliver(owner.channelId, owner.visitorId, { action: 'typing', typing: true })
    } else if (event.type === 'status') {
      // The agent read the visitor's message (spec 001 §3 `read`).
      const message: ChatMessage = event.message
      if (message.sent_by !== 'client' || !message.read) return
      const owner = await ownerOf(event.room_id)
      if (owner) deliver(owner.channelId, owner.visitorId, { action: 'status', ids: [message.id], status: 'read' })
    } else if (event.type === 'room') {
      const room: ChatRoom = event.room
      if (room.channel.type !== 'webchat') return
      const owner = await ownerOf(room.id)
      if (!owner) return
      if (room.end) deliver(owner.channelId, owner.visitorId, { action: 'ended' })
      else if (room.user) deliver(owner.channelId, owner.visitorId, { action: 'agent', name: room.user.name, avatar: null })
    }
  }
}
