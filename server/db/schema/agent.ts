import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { bigserial, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { servicePauses } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Agent presence (spec 000 §3 pause, §4 pause and aggregate status, §7 agent channel and pause): the pauses agents
// took (one report per pause) and the status each agent reports on the service socket, current and as a timeline.

/**
 * One pause (break) of an agent, from start to stop. The pause type's description, maximum and flags are copied at
 * start, so a later edit of the type neither changes a running pause nor rewrites history. At most one open pause
 * (not ended) per user: the partial unique index makes a double start fail instead of running two.
 */
export const pauseReports = pgTable(
  'pause_reports',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pauseId: integer('pause_id').references((): AnyPgColumn => servicePauses.id, { onDelete: 'set null' }),
    description: text('description').notNull().default(''),
    maximumDuration: integer('maximum_duration').notNull().default(0),
    enableWebphone: boolean('enable_webphone').notNull().default(true),
    enableWebchat: boolean('enable_webchat').notNull().default(true),
    allowIncomingCall: boolean('allow_incoming_call').notNull().default(false),
    allowOutgoingCall: boolean('allow_outgoing_call').notNull().default(false),
    allowIncomingChat: boolean('allow_incoming_chat').notNull().default(false),
    allowOutgoingChat: boolean('allow_outgoing_chat').notNull().default(false),
    lockScreen: boolean('lock_screen').notNull().default(false),
    /** A supervisor's pause on an agent who was on a call waits (pending) until the agent is available. */
    pending: boolean('pending').notNull().default(false),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Seconds from start to end, set at the end. */
    duration: integer('duration'),
    exceeded: boolean('exceeded').notNull().default(false),
    justification: text('justification').notNull().default(''),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    stoppedBy: integer('stopped_by').references(() => users.id, { onDelete: 'set null' }),
    /** The pause this one replaced in a swap ('Trocar', report_pause_id). */
    previousReportId: integer('previous_report_id').references((): AnyPgColumn => pauseReports.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('pause_reports_one_open_per_user')
      .on(t.userId)
      .where(sql`${t.endedAt} IS NULL`),
    index('pause_reports_site_user_idx').on(t.siteId, t.userId, t.requestedAt),
  ],
)

/** The status each agent last reported per channel (one row per user). */
export const agentStates = pgTable('agent_states', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  telephonyStatus: varchar('telephony_status', { length: 32 }),
  telephonyChangedAt: timestamp('telephony_changed_at', { withTimezone: true }),
  chatStatus: varchar('chat_status', { length: 32 }),
  chatChangedAt: timestamp('chat_changed_at', { withTimezone: true }),
})

/** Every change of an agent's status (the timeline reports are built from). */
export const agentStatusEvents = pgTable(
  'agent_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: varchar('channel', { length: 16 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    previousStatus: varchar('previous_status', { length: 32 }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_status_events_site_user_at_idx').on(t.siteId, t.userId, t.at)],
)

export type PauseReportRow = typeof pauseReports.$inferSelect
