import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { bigserial, index, integer, pgTable, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { pabxQueues, pabxVoicemails, serviceNpsTelephony } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// What the media app records (server/media/app/): voicemail messages and the keys callers press in telephony NPS
// surveys.

/**
 * One voicemail message: the caller's audio recorded after the tone into `file` (8 kHz mono WAV, in
 * DATA_DIR/telephony/voicemail/), who left it and how long it is. Unheard until its owner (or a supervisor) marks it.
 */
export const voicemailMessages = pgTable(
  'voicemail_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    voicemailId: integer('voicemail_id')
      .notNull()
      .references((): AnyPgColumn => pabxVoicemails.id, { onDelete: 'cascade' }),
    /** The SIP Call-ID of the caller's leg (call_records.call_id). */
    callId: varchar('call_id', { length: 255 }).notNull(),
    /** Who called: the caller's number or extension, and the customer's number ('' on internal calls). */
    caller: varchar('caller', { length: 80 }).notNull().default(''),
    phone: varchar('phone', { length: 80 }).notNull().default(''),
    durationMs: integer('duration_ms').notNull(),
    /** The WAV's file name in the voicemail folder. */
    file: varchar('file', { length: 120 }).notNull(),
    heardAt: timestamp('heard_at', { withTimezone: true }),
    heardBy: integer('heard_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voicemail_messages_box_idx').on(t.siteId, t.voicemailId, t.createdAt.desc()), uniqueIndex('voicemail_messages_file_unique').on(t.file)],
)

/**
 * One answer of a telephony NPS survey (by keypad): the call, the agent who served it and the queue, the question
 * (0 the first) and the key pressed. A question unanswered (timeout, invalid keys, hang-up) has no row.
 */
export const telephonyNpsAnswers = pgTable(
  'telephony_nps_answers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    npsId: integer('nps_id').references((): AnyPgColumn => serviceNpsTelephony.id, { onDelete: 'set null' }),
    callId: varchar('call_id', { length: 255 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references((): AnyPgColumn => pabxQueues.id, { onDelete: 'set null' }),
    question: smallint('question').notNull(),
    /** '0-10' or '1-5'. */
    scale: varchar('scale', { length: 8 }).notNull(),
    score: smallint('score').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('telephony_nps_answers_call_question_unique').on(t.siteId, t.callId, t.question),
    index('telephony_nps_answers_site_idx').on(t.siteId, t.answeredAt.desc()),
    index('telephony_nps_answers_user_idx').on(t.userId, t.answeredAt.desc()),
  ],
)
