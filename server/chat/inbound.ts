import { and, eq, isNull, sql } from 'drizzle-orm'
import { clientByPhone } from '../crm/keys.ts'
import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import type { Db } from '../db/client.ts'
import { routeNewRoom } from './acd/route.ts'
import { startAttachmentDownload } from './attachment-download.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { normalizeContact } from './identity.ts'
import type { MessageRow, RoomRow } from './serialize.ts'
import { serializeMessages, serializeRoom } from './serialize.ts'
import type { ChannelType, InboundMessage, InboundResult } from './types.ts'

// A customer's message into its room (README.md). One open room per channel + customer: the partial unique index
// decides a race between deliveries for a new customer (INSERT … ON CONFLICT DO NOTHING, then read the winner's
// room). One message per provider id and per sender uid: ON CONFLICT DO NOTHING makes a redelivery a no-op.

export const nextRevision = sql`nextval('chat_revision_seq')`

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

class Duplicate extends Error {
  readonly existing: MessageRow
  constructor(existing: MessageRow) {
    super('duplicate message')
    this.existing = existing
  }
}

async function existingMessage(db: Db | Tx, siteId: number, channelId: number, message: InboundMessage): Promise<MessageRow | undefined> {
  if (message.externalId) {
    const [row] = await db
      .select()
      .from(chatRoomMessages)
      .where(and(eq(chatRoomMessages.channelId, channelId), eq(chatRoomMessages.externalId, message.externalId)))
    if (row) return row
  }
  if (message.uid) {
    const [row] = await db
      .select()
      .from(chatRoomMessages)
      .where(and(eq(chatRoomMessages.siteId, siteId), eq(chatRoomMessages.uid, message.uid)))
    if (row) return row
  }
  return undefined
}

/** The open room of a customer on a channel, opening one when there is none (a concurrent opener's room wins). */
async function openOrContinue(
  tx: Tx,
  channelId: number,
  siteId: number,
  identity: { contact: string; address: string; phone: string },
  message: InboundMessage,
): Promise<{ room: RoomRow; created: boolean }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [open] = await tx
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channelId), eq(chatRooms.contact, identity.contact), isNull(chatRooms.endedAt)))
    if (open) return { room: open, created: false }
    const [created] = await tx
      .insert(chatRooms)
      .values({
        uid: randomUUID(),
        siteId,
        channelId,
        contact: identity.contact,
        address: identity.address,
        phone: message.customer.phone ? message.customer.phone.replace(/\D/g, '').slice(0, 32) : identity.phone,
        title: (message.customer.name ?? '').slice(0, 255),
        email: (message.customer.email ?? '').slice(0, 255),
        avatar: message.customer.avatar?.slice(0, 500) ?? null,
        // The CRM client the number belongs to (E.164 lookup, server/crm/keys.ts); a widget visitor has none.
        clientId: identity.phone ? await clientByPhone(tx as unknown as Db, siteId, `+${identity.phone}`) : null,
        chatType: 20,
        state: 'new',
      })
      .onConflictDoNothing()
      .returning()
    if (created) return { room: created, created: true }
    // Another delivery opened it first (ON CONFLICT waited for its commit): read it on the next turn.
  }
  throw new Error(`receiveInbound: no open room for channel ${channelId} after 5 attempts`)
}

export async function receiveInbound(deps: AppDeps, message: InboundMessage): Promise<InboundResult> {
  const { db } = deps
  const [channel] = await db
    .select({ id: chatChannels.id, siteId: chatChannels.siteId, type: chatChannels.type })
    .from(chatChannels)
    .where(and(eq(chatChannels.id, message.channelId), eq(chatChannels.siteId, message.siteId)))
  if (!channel) throw new Error(`receiveInbound: no channel ${message.channelId} on site ${message.siteId}`)
  const siteId = channel.siteId
  // No look-up first: the message's unique ids make the insert below the duplicate check (a redelivery rolls its
  // transaction back, a room it opened included, and answers the first delivery's message), one statement less.
  const identity = normalizeContact(channel.type as ChannelType, message.customer.contact)

  let outcome: { room: RoomRow; created: boolean; row: MessageRow }
  try {
    outcome = await db.transaction(async (tx) => {
      const { room, created } = await openOrContinue(tx, channel.id, siteId, identity, message)
      let replyToId: number | null = null
      if (message.replyToExternalId) {
        const [replied] = await tx
          .select({ id: chatRoomMessages.id })
          .from(chatRoomMessages)
          .where(and(eq(chatRoomMessages.channelId, channel.id), eq(chatRoomMessages.externalId, message.replyToExternalId)))
        replyToId = replied?.id ?? null
      }
      const attachment = message.attachment
      const [row] = await tx
        .insert(chatRoomMessages)
        .values({
          uid: message.uid ?? randomUUID(),
          siteId,
          roomId: room.id,
          channelId: channel.id,
          sentBy: 'client',
          type: message.type,
          content: message.content,
          attachmentFile: attachment && 'file' in attachment ? attachment.file : null,
          attachmentName: (attachment?.name ?? '').slice(0, 255),
          attachmentMime: (attachment?.mime ?? '').slice(0, 100),
          attachmentSize: attachment && 'file' in attachment ? attachment.size : null,
          attachmentState: !attachment ? 'none' : 'file' in attachment ? 'ready' : 'pending',
          attachmentSource: attachment && 'pending' in attachment ? attachment.pending : null,
          latitude: message.location?.latitude ?? null,
          longitude: message.location?.longitude ?? null,
          locationName: (message.location?.name ?? '').slice(0, 255),
          locationAddress: (message.location?.address ?? '').slice(0, 500),
          contacts: message.contacts ?? [],
          replyToId,
          externalId: message.externalId ?? null,
          createdAt: message.sentAt,
        })
        .onConflictDoNothing()
        .returning()
      if (!row) {
        // A redelivery that raced this one: roll back (a room opened for it included) and answer the first.
        const existing = await existingMessage(tx, siteId, channel.id, message)
        if (!existing) throw new Error('receiveInbound: conflicting message not found')
        throw new Duplicate(existing)
      }
      const preview = message.content || attachment?.name || message.type
      const [updated] = await tx
        .update(chatRooms)
        .set({
          lastMessageAt: sql`greatest(${chatRooms.lastMessageAt}, ${message.sentAt})`,
          lastMessageId: sql`greatest(${chatRooms.lastMessageId}, ${row.id})`,
          lastClientMessageAt: sql`greatest(${chatRooms.lastClientMessageAt}, ${message.sentAt})`,
          lastClientMessageContent: preview,
          address: identity.address || room.address,
          title: room.title || (message.customer.name ?? '').slice(0, 255),
          // The customer answered: an outgoing chat may now be written to freely.
          awaitingTemplateReply: false,
          windowClosedAt: null,
          revision: nextRevision,
        })
        .where(eq(chatRooms.id, room.id))
        .returning()
      return { room: updated!, created, row }
    })
  } catch (error) {
    if (error instanceof Duplicate) return { roomId: error.existing.roomId, messageId: error.existing.id, duplicate: true, newRoom: false }
    throw error
  }

  const { room, created, row } = outcome
  const users = await roomAudience(deps, room)
  if (created) await publishChatEvent(deps.bus, { type: 'room', site_id: siteId, users, room: await serializeRoom(deps, room) })
  // The room is at hand: its title names the customer without another query.
  const [serialized] = await serializeMessages(deps, [row], room)
  await publishChatEvent(deps.bus, { type: 'message', site_id: siteId, users, room_id: room.id, message: serialized! })
  if (row.attachmentState === 'pending') startAttachmentDownload(deps, row.id)
  if (created) await routeNewRoom(deps, room.id)
  return { roomId: room.id, messageId: row.id, duplicate: false, newRoom: created }
}
