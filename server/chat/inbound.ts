import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm'
import { clientByPhone } from '../crm/keys.ts'
import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import type { Db } from '../db/client.ts'
import { routeCampaignReply, routeNewRoom } from './acd/route.ts'
import { startAttachmentDownload } from './attachment-download.ts'
import { Batcher, perDatabase } from './batch.ts'
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

type ContinueItem = { siteId: number; channelId: number; identity: { contact: string; address: string }; message: InboundMessage }
/** A batch item's answer: its message and room; 'duplicate' (its room is open, its ids are taken); null (no open room). */
type ContinueAnswer = { room: RoomRow; row: MessageRow; marked: boolean } | 'duplicate' | null

/**
 * The common case, for every customer's message that arrives together, in one statement (one round trip, one
 * commit): each customer's room is open, the messages go in (ON CONFLICT DO NOTHING on the unique ids, also between
 * two of the same batch) and each room takes its newest message's preview and one revision. The batch is one JSON
 * parameter (jsonb_to_recordset: the same on PostgreSQL and PGlite, no statement text per size). An item without an
 * open room, or whose ids are taken, is answered null / 'duplicate' and goes the transaction's way. A statement that
 * fails (one bad item fails its batch) answers every item null, so each goes its own way and only the bad one fails.
 */
async function continueOpenRooms(db: Db, items: ContinueItem[]): Promise<ContinueAnswer[]> {
  const input = items.map((item, idx) => {
    const m = messageValues(item.message, item.siteId, item.channelId)
    return {
      idx,
      uid: m.uid,
      site_id: item.siteId,
      channel_id: item.channelId,
      contact: item.identity.contact,
      address: item.identity.address,
      name: (item.message.customer.name ?? '').slice(0, 255),
      type: m.type,
      content: m.content,
      attachment_file: m.attachmentFile,
      attachment_name: m.attachmentName,
      attachment_mime: m.attachmentMime,
      attachment_size: m.attachmentSize,
      attachment_state: m.attachmentState,
      attachment_source: m.attachmentSource,
      latitude: m.latitude,
      longitude: m.longitude,
      location_name: m.locationName,
      location_address: m.locationAddress,
      contacts: m.contacts,
      reply_to: item.message.replyToExternalId ?? null,
      external_id: m.externalId,
      created_at: m.createdAt.toISOString(),
      preview: preview(item.message),
      event_id: item.message.webhookEventId ?? null,
    }
  })
  let answer: { messages: Record<string, unknown>[]; rooms: Record<string, unknown>[]; targeted: number[]; marked: (number | string)[] }
  try {
    const result = (await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as t(idx int, uid varchar, site_id int, channel_id int,
        contact varchar, address varchar, name varchar, type varchar, content text, attachment_file varchar, attachment_name varchar,
        attachment_mime varchar, attachment_size int, attachment_state varchar, attachment_source jsonb, latitude float8,
        longitude float8, location_name varchar, location_address varchar, contacts jsonb, reply_to varchar, external_id varchar,
        created_at timestamptz, preview text, event_id bigint)
    ), target as (
      select i.*, r.id as room_id from input i
      join chat_rooms r on r.channel_id = i.channel_id and r.contact = i.contact and r.ended_at is null
    ), msg as (
      insert into chat_room_messages (uid, site_id, room_id, channel_id, sent_by, type, content, attachment_file, attachment_name,
        attachment_mime, attachment_size, attachment_state, attachment_source, latitude, longitude, location_name, location_address,
        contacts, reply_to_id, external_id, created_at)
      select t.uid, t.site_id, t.room_id, t.channel_id, 'client', t.type, t.content, t.attachment_file, t.attachment_name,
        t.attachment_mime, t.attachment_size, t.attachment_state, t.attachment_source, t.latitude, t.longitude, t.location_name,
        t.location_address, t.contacts,
        case when t.reply_to is null then null
          else (select r.id from chat_room_messages r where r.channel_id = t.channel_id and r.external_id = t.reply_to) end,
        t.external_id, t.created_at
      from target t order by t.idx
      on conflict do nothing
      returning *
    ), newest as (
      select distinct on (msg.room_id) msg.room_id, i.preview, i.address, i.name
      from msg join input i on i.uid = msg.uid and i.site_id = msg.site_id
      order by msg.room_id, msg.created_at desc, i.idx desc
    ), per_room as (
      select room_id, max(created_at) as created_at, max(id) as id from msg group by room_id
    ), updated as (
      update chat_rooms r set
        last_message_at = greatest(r.last_message_at, p.created_at),
        last_message_id = greatest(r.last_message_id, p.id),
        last_client_message_at = greatest(r.last_client_message_at, p.created_at),
        -- The newest message's preview, also when an older one commits later (concurrent deliveries of one room).
        last_client_message_content = case when p.created_at >= coalesce(r.last_client_message_at, '-infinity') then n.preview
          else r.last_client_message_content end,
        address = coalesce(nullif(n.address, ''), r.address),
        title = case when r.title = '' then n.name else r.title end,
        awaiting_template_reply = false,
        window_closed_at = null,
        revision = nextval('chat_revision_seq')
      from per_room p join newest n on n.room_id = p.room_id
      where r.id = p.room_id
      returning r.*
    ), marked as (
      -- The webhook events whose only message is stored here are processed by this same statement.
      update chat_webhook_events e set processed_at = now(), last_error = null
      from (select distinct i.event_id from input i join msg on msg.uid = i.uid and msg.site_id = i.site_id where i.event_id is not null) x
      where e.id = x.event_id
      returning e.id
    )
    select coalesce((select jsonb_agg(to_jsonb(msg)) from msg), '[]'::jsonb) as messages,
      coalesce((select jsonb_agg(to_jsonb(updated)) from updated), '[]'::jsonb) as rooms,
      coalesce((select jsonb_agg(idx) from target), '[]'::jsonb) as targeted,
      coalesce((select jsonb_agg(id) from marked), '[]'::jsonb) as marked`)) as unknown as { rows: (typeof answer)[] }
    answer = result.rows[0]!
  } catch {
    return items.map(() => null)
  }
  const rooms = new Map<number, RoomRow>()
  for (const json of answer.rooms) {
    const room = rowFromJson<RoomRow>(ROOM_COLUMNS, json)
    rooms.set(room.id, room)
  }
  const byUid = new Map<string, MessageRow>()
  for (const json of answer.messages) {
    const row = rowFromJson<MessageRow>(MESSAGE_COLUMNS, json)
    byUid.set(`${row.siteId}:${row.uid}`, row)
  }
  const targeted = new Set(answer.targeted)
  const marked = new Set(answer.marked.map(Number))
  return input.map((item) => {
    const key = `${item.site_id}:${item.uid}`
    const row = byUid.get(key)
    const room = row && rooms.get(row.roomId)
    if (row && room) {
      // Two items of one uid (a redelivery within the batch): the first takes the row, the next is the duplicate.
      byUid.delete(key)
      return { room, row, marked: item.event_id !== null && marked.has(item.event_id) }
    }
    return targeted.has(item.idx) ? 'duplicate' : null
  })
}

const continuer = perDatabase((db: Db) => new Batcher<ContinueItem, ContinueAnswer>((items) => continueOpenRooms(db, items)))

export async function receiveInbound(deps: AppDeps, message: InboundMessage): Promise<InboundResult> {
  const { db } = deps
  const channel = await channelOf(db, message.channelId)
  if (!channel || channel.siteId !== message.siteId) throw new Error(`receiveInbound: no channel ${message.channelId} on site ${message.siteId}`)
  const siteId = channel.siteId
  // No look-up first: the message's unique ids make the insert below the duplicate check (a redelivery rolls its
  // transaction back, a room it opened included, and answers the first delivery's message), one statement less.
  const identity = normalizeContact(channel.type as ChannelType, message.customer.contact)

  let outcome: { room: RoomRow; created: boolean; row: MessageRow; marked?: boolean }
  const continued = await continuer(db).add({ siteId, channelId: channel.id, identity, message })
  if (continued === 'duplicate') {
    const existing = await existingMessage(db, siteId, channel.id, message)
    if (existing) return { roomId: existing.roomId, messageId: existing.id, duplicate: true, newRoom: false }
    // Not found (the conflicting row went away meanwhile): the transaction below decides.
  }
  if (continued && continued !== 'duplicate') outcome = { ...continued, created: false }
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
            // The newest message's preview, also when an older one commits later (concurrent deliveries of one room).
            lastClientMessageContent: sql`case when ${message.sentAt.toISOString()}::timestamptz >= coalesce(${chatRooms.lastClientMessageAt}, '-infinity')
              then ${preview(message)}::text else ${chatRooms.lastClientMessageContent} end`,
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

  const { room, created, row, marked } = outcome
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
  return { roomId: room.id, messageId: row.id, duplicate: false, newRoom: created, ...(marked ? { eventMarked: true as const } : {}) }
}
