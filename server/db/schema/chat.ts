import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core'
import { chatChannels, chatInbounds, chatQueues, chatTemplates, crmClients } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Chat (spec 001 §3–§4, server/chat/): rooms (the spec's "step"), their messages, the raw webhook events kept before
// a provider is answered, and the outbox that delivers agents' messages. Every row carries its site.
//
// Re-sync: every insert and update of a room or a message takes the next value of one sequence (`revision`), so a
// chat socket that reconnects asks for "everything of my rooms past revision N" and ends with the server's set.

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

/** One increasing number for every room and message change (the chat socket's re-sync cursor). */
export const chatRevision = pgSequence('chat_revision_seq')

const revision = () =>
  bigint('revision', { mode: 'number' })
    .notNull()
    .default(sql`nextval('chat_revision_seq')`)

/**
 * A conversation with one customer on one channel, from the first message until it ends (the spec's chat room or
 * step). At most one open room (not ended) per customer per channel: the partial unique index makes two webhooks
 * racing for a new customer open one room, not two.
 */
export const chatRooms = pgTable(
  'chat_rooms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: varchar('uid', { length: 36 }).notNull().unique(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    /** Who the customer is on the channel: canonical E.164 digits for WhatsApp (server/chat/identity.ts), the visitor id for the widget. */
    contact: varchar('contact', { length: 64 }).notNull(),
    /** Where replies go, as the channel last named the customer (WhatsApp may send a Brazilian wa_id without the ninth digit). */
    address: varchar('address', { length: 64 }).notNull(),
    /** E.164 digits without '+', '' when unknown (a visitor who gave none). */
    phone: varchar('phone', { length: 32 }).notNull().default(''),
    title: varchar('title', { length: 255 }).notNull().default(''),
    email: varchar('email', { length: 255 }).notNull().default(''),
    avatar: varchar('avatar', { length: 500 }),
    /** 20 inbound; 10, 11, 31 outgoing (CHAT_TYPES in contract/api/chat.ts). */
    chatType: integer('chat_type').notNull().default(20),
    /** new → queued → offered → active → ended (ROOM_STATES). */
    state: varchar('state', { length: 16 }).notNull().default('new'),
    archived: boolean('archived').notNull().default(false),
    inboundId: integer('inbound_id').references((): AnyPgColumn => chatInbounds.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references((): AnyPgColumn => chatQueues.id, { onDelete: 'set null' }),
    /** The agent serving the room, or offered it while `offered`. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Agents who let an offer of this room ring out or refused it (the ACD offers the next one). */
    declinedUserIds: jsonb('declined_user_ids').$type<number[]>().notNull().default([]),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** agent, client, system, timeout, transfer… */
    endedBy: varchar('ended_by', { length: 16 }),
    /** Removed from the agent's console after the inactivity countdown (spec 001 §4). */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    /** The customer's last message: its provider time opens the 24-hour window (WHATSAPP.md §A1.7). */
    lastClientMessageAt: timestamp('last_client_message_at', { withTimezone: true }),
    lastClientMessageContent: text('last_client_message_content').notNull().default(''),
    /** An outgoing chat waits for the customer's answer to its template before free text is allowed. */
    awaitingTemplateReply: boolean('awaiting_template_reply').notNull().default(false),
    /** The provider refused free text as outside the 24-hour window (WhatsApp 131047); the customer's next message clears it. */
    windowClosedAt: timestamp('window_closed_at', { withTimezone: true }),
    /** The agent's classification (tab-form ?type=classification&step_type=chat; StepClassification), server/chat/outcomes.ts. */
    classification: jsonb('classification').$type<Record<string, unknown>>(),
    classifiedAt: timestamp('classified_at', { withTimezone: true }),
    /** The chat form the agent sent (tab-form ?type=form&form_id=&step_type=chat): its id and values, once. */
    formId: integer('form_id'),
    formValues: jsonb('form_values').$type<Record<string, unknown>>(),
    formSentAt: timestamp('form_sent_at', { withTimezone: true }),
    /** The CRM client the customer's number matched when the room opened (server/crm/), or the one an agent linked. */
    clientId: integer('client_id').references((): AnyPgColumn => crmClients.id, { onDelete: 'set null' }),
    revision: revision(),
  },
  (t) => [
    uniqueIndex('chat_rooms_one_open_per_contact')
      .on(t.channelId, t.contact)
      .where(sql`${t.endedAt} IS NULL`),
    index('chat_rooms_user_idx').on(t.siteId, t.userId, t.finishedAt),
    index('chat_rooms_queue_idx')
      .on(t.siteId, t.queueId, t.queuedAt)
      .where(sql`${t.state} = 'queued'`),
    index('chat_rooms_offered_idx')
      .on(t.offeredAt)
      .where(sql`${t.state} = 'offered'`),
    index('chat_rooms_last_client_idx').on(t.siteId, t.lastClientMessageAt.desc()),
    index('chat_rooms_revision_idx').on(t.siteId, t.revision),
    index('chat_rooms_archived_idx').on(t.siteId, t.archived, t.endedAt.desc()),
    // The inactivity removal's sweep (server/chat/lifecycle.ts), every second: only rooms ended and not yet finished.
    index('chat_rooms_finishing_idx')
      .on(t.endedAt)
      .where(sql`${t.endedAt} IS NOT NULL AND ${t.finishedAt} IS NULL`),
    index('chat_rooms_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('chat_rooms_phone_trgm_idx').using('gin', t.phone.op('gin_trgm_ops')),
    // A client's timeline (server/crm/timeline.ts): the client's rooms, newest first.
    index('chat_rooms_client_idx')
      .on(t.clientId, t.startedAt.desc(), t.id.desc())
      .where(sql`${t.clientId} IS NOT NULL`),
  ],
)

/** A message of a room, from the customer, an agent or the system. */
export const chatRoomMessages = pgTable(
  'chat_room_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The sender's own id: an agent's or visitor's resend after a time-out carries the same uid (unique). */
    uid: varchar('uid', { length: 36 }).notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    roomId: bigint('room_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => chatRooms.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    sentBy: varchar('sent_by', { length: 8 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** MESSAGE_TYPES. */
    type: varchar('type', { length: 16 }).notNull().default('text'),
    content: text('content').notNull().default(''),
    /** Stored name under DATA_DIR/media/chat-<site>/ (server/entities/media-store.ts), null without one. */
    attachmentFile: varchar('attachment_file', { length: 64 }),
    attachmentName: varchar('attachment_name', { length: 255 }).notNull().default(''),
    attachmentMime: varchar('attachment_mime', { length: 100 }).notNull().default(''),
    attachmentSize: integer('attachment_size'),
    /** none, pending (the provider's media still to download), ready, failed. */
    attachmentState: varchar('attachment_state', { length: 8 }).notNull().default('none'),
    /** The provider's media reference to download it (WhatsApp media id, sha256, mime). */
    attachmentSource: jsonb('attachment_source').$type<Record<string, unknown>>(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    locationName: varchar('location_name', { length: 255 }).notNull().default(''),
    locationAddress: varchar('location_address', { length: 500 }).notNull().default(''),
    contacts: jsonb('contacts').$type<{ client_id: number | null; full_name: string; phone: string; avatar: string | null }[]>().notNull().default([]),
    replyToId: bigint('reply_to_id', { mode: 'number' }).references((): AnyPgColumn => chatRoomMessages.id, { onDelete: 'set null' }),
    /** The provider's id (WhatsApp wamid): unique per channel, so a redelivered webhook leaves one message. */
    externalId: varchar('external_id', { length: 255 }),
    /** DELIVERY_STATUSES for agent messages; null for the customer's. */
    status: varchar('status', { length: 12 }),
    statusAt: timestamp('status_at', { withTimezone: true }),
    errorCode: integer('error_code'),
    errorReason: text('error_reason').notNull().default(''),
    externalError: boolean('external_error').notNull().default(false),
    visible: boolean('visible').notNull().default(true),
    visibleAgent: boolean('visible_agent').notNull().default(true),
    /** Read by the agent (customer messages) — the console's unread count. */
    readByAgent: boolean('read_by_agent').notNull().default(false),
    templateId: integer('template_id').references((): AnyPgColumn => chatTemplates.id, { onDelete: 'set null' }),
    templateParams: jsonb('template_params').$type<{ name: string; value: string }[]>(),
    /** When the message was written (the provider's timestamp for a customer's message). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: revision(),
  },
  (t) => [
    uniqueIndex('chat_room_messages_uid_idx').on(t.siteId, t.uid),
    uniqueIndex('chat_room_messages_external_idx')
      .on(t.channelId, t.externalId)
      .where(sql`${t.externalId} IS NOT NULL`),
    index('chat_room_messages_room_idx').on(t.roomId, t.id),
    index('chat_room_messages_revision_idx').on(t.roomId, t.revision),
    index('chat_room_messages_site_time_idx').on(t.siteId, t.createdAt),
    // Attachments still to download (resumed at start).
    index('chat_room_messages_pending_attachment_idx')
      .on(t.id)
      .where(sql`${t.attachmentState} = 'pending'`),
    index('chat_room_messages_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')),
  ],
)

/**
 * A provider's webhook POST exactly as it arrived, stored before the provider is answered 200 (durability before
 * acknowledgement), then processed; `processed_at` null marks work a restart must finish.
 */
export const chatWebhookEvents = pgTable(
  'chat_webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    body: bytea('body').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('chat_webhook_events_pending_idx')
      .on(t.id)
      .where(sql`${t.processedAt} IS NULL`),
  ],
)

/**
 * An agent's message to deliver through its channel, written in the same transaction as the message: a crash
 * between the two cannot lose it. The dispatcher claims due rows (FOR UPDATE SKIP LOCKED, so several instances
 * share the work), calls the channel's driver and either deletes the row, retries it later or fails the message.
 */
export const chatOutbox = pgTable(
  'chat_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => chatRoomMessages.id, { onDelete: 'cascade' })
      .unique(),
    /** The channel's address of the customer (wa_id, visitor id): the per-recipient throttle's key. */
    recipient: varchar('recipient', { length: 64 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Claimed by a dispatcher until then; a crashed claim is due again after it. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The claim takes only the oldest row of each recipient (order per customer).
  (t) => [index('chat_outbox_due_idx').on(t.nextAttemptAt), index('chat_outbox_recipient_idx').on(t.channelId, t.recipient, t.id)],
)

/**
 * A provider's delivery report whose message is not known yet: WhatsApp may report `sent`/`delivered` before the
 * dispatcher has stored the id its send call answered. Kept a short while (server/chat/delivery.ts); the dispatcher
 * applies and deletes it as soon as it stores that id.
 */
export const chatPendingDeliveries = pgTable(
  'chat_pending_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    externalId: varchar('external_id', { length: 255 }).notNull(),
    status: varchar('status', { length: 12 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    error: jsonb('error').$type<{ code: number | null; reason: string; external_error: boolean }>(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_pending_deliveries_external_idx').on(t.channelId, t.externalId), index('chat_pending_deliveries_received_idx').on(t.receivedAt)],
)
