import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm'
import { clientByPhone } from '../crm/keys.ts'
import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import type { Db } from '../db/client.ts'
import { routeCampaignReply, routeNewRoom } from './acd/route.ts'
import { startAttachmentDownload } from './attachment-download.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { normalizeContact } from './identity.ts'
import { answerNpsSurvey, waitingSurveyRoom } from './nps.ts'
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
    // No open room: a customer answering a closed chat's NPS survey writes into that chat (server/chat/nps.ts).
    const surveyed = await waitingSurveyRoom(tx, channelId, identity.contact)
    if (surveyed) return { room: surveyed, created: false }
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

type ChannelFacts = { id: number; siteId: number; type: string }
/** A channel's id, site and type never change: kept a short while (a deleted channel fails the insert meanwhile). */
const CHANNEL_FACTS_MS = 2000
const channelFacts = new Map<number, { db: Db; at: number; facts: Promise<ChannelFacts | undefined> }>()

function channelOf(db: Db, id: number): Promise<ChannelFacts | undefined> {
  const now = Date.now()
  const hit = channelFacts.get(id)
  if (hit && hit.db === db && now - hit.at < CHANNEL_FACTS_MS) return hit.facts
  if (channelFacts.size > 1000) channelFacts.clear()
  const facts = db
    .select({ id: chatChannels.id, siteId: chatChannels.siteId, type: chatChannels.type })
    .from(chatChannels)
    .where(eq(chatChannels.id, id))
    .then((rows) => rows[0])
  const entry = { db, at: now, facts }
  channelFacts.set(id, entry)
  facts.then(
    (f) => {
      if (!f && channelFacts.get(id) === entry) channelFacts.delete(id)
    },
    () => {
      if (channelFacts.get(id) === entry) channelFacts.delete(id)
    },
  )
  return facts
}

/** A row read as JSON (to_jsonb) back into drizzle's shape: column names to keys, timestamps to Dates. */
function rowFromJson<T>(columns: Record<string, { name: string; columnType: string }>, json: Record<string, unknown>): T {
  const row: Record<string, unknown> = {}
  for (const [key, column] of Object.entries(columns)) {
    const value = json[column.name] ?? null
    row[key] = column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value
  }
  return row as T
}
const MESSAGE_COLUMNS = getTableColumns(chatRoomMessages)
const ROOM_COLUMNS = getTableColumns(chatRooms)

/** What the message insert writes, in both paths. */
function messageValues(message: InboundMessage, siteId: number, channelId: number) {
  const attachment = message.attachment
  return {
    uid: message.uid ?? randomUUID(),
    siteId,
    channelId,
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
    externalId: message.externalId ?? null,
    createdAt: message.sentAt,
  }
}

const preview = (message: InboundMessage) => message.content || message.attachment?.name || message.type

/**
 * The common case in one statement (one round trip, one commit): the customer's room is open, the message goes in
 * and the room takes its preview and revision. Answers null when no room is open (the transaction below opens one),
 * 'duplicate' when the message's ids are taken.
 */
async function continueOpenRoom(
  db: Db,
  siteId: number,
  channelId: number,
  identity: { contact: string; address: string },
  message: InboundMessage,
): Promise<{ room: RoomRow; row: MessageRow } | 'duplicate' | null> {
  const m = messageValues(message, siteId, channelId)
  const name = (message.customer.name ?? '').slice(0, 255)
  const result = (await db.execute(sql`
    with room as (
      select id from chat_rooms where channel_id = ${channelId} and contact = ${identity.contact} and ended_at is null
    ), msg as (
      insert into chat_room_messages (uid, site_id, room_id, channel_id, sent_by, type, content, attachment_file, attachment_name,
        attachment_mime, attachment_size, attachment_state, attachment_source, latitude, longitude, location_name, location_address,
        contacts, reply_to_id, external_id, created_at)
      select ${m.uid}::varchar, ${siteId}::int, room.id, ${channelId}::int, 'client', ${m.type}::varchar, ${m.content}::text,
        ${m.attachmentFile}::varchar, ${m.attachmentName}::varchar, ${m.attachmentMime}::varchar, ${m.attachmentSize}::int,
        ${m.attachmentState}::varchar, ${m.attachmentSource === null ? null : JSON.stringify(m.attachmentSource)}::jsonb,
        ${m.latitude}::float8, ${m.longitude}::float8, ${m.locationName}::varchar, ${m.locationAddress}::varchar,
        ${JSON.stringify(m.contacts)}::jsonb,
        ${
          message.replyToExternalId
            ? sql`(select r.id from chat_room_messages r where r.channel_id = ${channelId} and r.external_id = ${message.replyToExternalId})`
            : sql`null::bigint`
        },
        ${m.externalId}::varchar, ${m.createdAt.toISOString()}::timestamptz
      from room
      on conflict do nothing
      returning *
    ), updated as (
      update chat_rooms r set
        last_message_at = greatest(r.last_message_at, msg.created_at),
        last_message_id = greatest(r.last_message_id, msg.id),
        last_client_message_at = greatest(r.last_client_message_at, msg.created_at),
        last_client_message_content = ${preview(message)}::text,
        address = coalesce(nullif(${identity.address}::varchar, ''), r.address),
        title = case when r.title = '' then ${name}::varchar else r.title end,
        awaiting_template_reply = false,
        window_closed_at = null,
        revision = nextval('chat_revision_seq')
      from msg where r.id = msg.room_id
      returning r.*
    )
    select (select count(*) from room)::int as rooms, (select to_jsonb(msg) from msg) as message, (select to_jsonb(updated) from updated) as room`)) as unknown as {
    rows: { rooms: number; message: Record<string, unknown> | null; room: Record<string, unknown> | null }[]
  }
  const answer = result.rows[0]!
  if (answer.rooms === 0) return null
  if (!answer.message || !answer.room) return 'duplicate'
  return { room: rowFromJson<RoomRow>(ROOM_COLUMNS, answer.room), row: rowFromJson<MessageRow>(MESSAGE_COLUMNS, answer.message) }
}

export async function receiveInbound(deps: AppDeps, message: InboundMessage): Promise<InboundResult> {
  const { db } = deps
  const channel = await channelOf(db, message.channelId)
  if (!channel || channel.siteId !== message.siteId) throw new Error(`receiveInbound: no channel ${message.channelId} on site ${message.siteId}`)
  const siteId = channel.siteId
  // No look-up first: the message's unique ids make the insert below the duplicate check (a redelivery rolls its
  // transaction back, a room it opened included, and answers the first delivery's message), one statement less.
  const identity = normalizeContact(channel.type as ChannelType, message.customer.contact)

  let outcome: { room: RoomRow; created: boolean; row: MessageRow }
  const continued = await continueOpenRoom(db, siteId, channel.id, identity, message)
  if (continued === 'duplicate') {
    const existing = await existingMessage(db, siteId, channel.id, message)
    if (!existing) throw new Error('receiveInbound: conflicting message not found')
    return { roomId: existing.roomId, messageId: existing.id, duplicate: true, newRoom: false }
  }
  if (continued) outcome = { ...continued, created: false }
  else {
    // No open room: open one and write the message in one transaction.
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
        const [row] = await tx
          .insert(chatRoomMessages)
          .values({ ...messageValues(message, siteId, channel.id), roomId: room.id, replyToId })
          .onConflictDoNothing()
          .returning()
        if (!row) {
          // A redelivery that raced this one: roll back (a room opened for it included) and answer the first.
          const existing = await existingMessage(tx, siteId, channel.id, message)
          if (!existing) throw new Error('receiveInbound: conflicting message not found')
          throw new Duplicate(existing)
        }
        const [updated] = await tx
          .update(chatRooms)
          .set({
            lastMessageAt: sql`greatest(${chatRooms.lastMessageAt}, ${message.sentAt})`,
            lastMessageId: sql`greatest(${chatRooms.lastMessageId}, ${row.id})`,
            lastClientMessageAt: sql`greatest(${chatRooms.lastClientMessageAt}, ${message.sentAt})`,
            lastClientMessageContent: preview(message),
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
  }

  const { room, created, row } = outcome
  const users = await roomAudience(deps, room)
  if (created) await publishChatEvent(deps.bus, { type: 'room', site_id: siteId, users, room: await serializeRoom(deps, room) })
  // The room is at hand: its title names the customer without another query.
  const [serialized] = await serializeMessages(deps, [row], room)
  await publishChatEvent(deps.bus, { type: 'message', site_id: siteId, users, room_id: room.id, message: serialized! })
  if (row.attachmentState === 'pending') startAttachmentDownload(deps, row.id)
  if (created) await routeNewRoom(deps, room.id)
  // The first answer to a WhatsApp campaign's template: its room goes to the campaign's chat queue.
  else if (room.state === 'new' && room.userId === null && room.queueId !== null) await routeCampaignReply(deps, room)
  else if (room.endedAt !== null) await answerNpsSurvey(deps, room, row.content)
  return { roomId: room.id, messageId: row.id, duplicate: false, newRoom: created }
}
