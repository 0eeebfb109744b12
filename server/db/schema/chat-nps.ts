import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { bigint, bigserial, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { chatRooms } from './chat.ts'
import { chatChannels, serviceNpsChat } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

/**
 * The NPS survey a closed chat sends its customer (server/chat/nps.ts): one per room, tied to the room and its agent.
 * While `pending` (the score) or `comment` (the optional comment) and not expired, the customer's next message on the
 * channel is its answer, not a new chat.
 */
export const chatNpsSurveys = pgTable(
  'chat_nps_surveys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    roomId: bigint('room_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => chatRooms.id, { onDelete: 'cascade' }),
    npsId: integer('nps_id').references((): AnyPgColumn => serviceNpsChat.id, { onDelete: 'set null' }),
    channelId: integer('channel_id')
      .notNull()
      .references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    /** The customer on the channel (chat_rooms.contact). */
    contact: varchar('contact', { length: 64 }).notNull(),
    /** The agent who served the room. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id'),
    /** '0-10' or '1-5'. */
    scale: varchar('scale', { length: 8 }).notNull(),
    /** pending → (comment →) answered; failed (attempts used up), expired (timeout), unsent (no way to reach the customer). */
    state: varchar('state', { length: 12 }).notNull(),
    /** text (inside the 24-hour window) or template. */
    sentAs: varchar('sent_as', { length: 12 }).notNull().default('text'),
    invalidAnswers: smallint('invalid_answers').notNull().default(0),
    score: smallint('score'),
    comment: text('comment').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('chat_nps_surveys_room_idx').on(t.roomId),
    // The inbound look-up: the customer's open survey on the channel.
    index('chat_nps_surveys_waiting_idx')
      .on(t.channelId, t.contact)
      .where(sql`${t.state} in ('pending', 'comment')`),
    index('chat_nps_surveys_site_idx').on(t.siteId, t.sentAt.desc()),
  ],
)
