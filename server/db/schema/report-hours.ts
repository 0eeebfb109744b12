import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, numeric, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'

// The reports' pre-aggregated call hours (server/reports/hours.ts, README "Speed at 1,000,000 calls"). Every write
// to call_records marks the UTC hours it touches dirty in its own transaction (a trigger, migration
// 00xx_reports19a), so no crash can leave a written call outside a dirty hour; a refresher recomputes dirty hours
// from the raw rows and marks them clean only if no write bumped `version` meanwhile. A report reads the clean
// hours from report_call_hours and every other hour of its period from call_records.

/** One UTC hour of a site: clean (report_call_hours holds it) or dirty (read call_records). */
export const reportHours = pgTable(
  'report_hours',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The hour's first instant (UTC, whole hour). */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    dirty: boolean('dirty').notNull().default(true),
    /** Bumped by every write that marks the hour; the refresher cleans it only if unchanged since it read the rows. */
    version: bigint('version', { mode: 'number' }).notNull().default(1),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.hour] }),
    index('report_hours_dirty_idx')
      .on(t.siteId, t.hour)
      .where(sql`${t.dirty}`),
  ],
)

/**
 * A clean hour's figures per agent and queue (0: none). Call columns (calls … talk_sum): the calls whose step 1
 * started in the hour, as the calls report counts them, under the call's agent (who answered, else the last one
 * rung, else who placed it) and its first queue. Agent columns (agent_* and placed*): the steps that started in the
 * hour, as agent productivity counts them, under the step's agent and queue.
 */
export const reportCallHours = pgTable(
  'report_call_hours',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    userId: integer('user_id').notNull().default(0),
    queueId: integer('queue_id').notNull().default(0),
    calls: integer('calls').notNull().default(0),
    callsAnswered: integer('calls_answered').notNull().default(0),
    waitSum: bigint('wait_sum', { mode: 'number' }).notNull().default(0),
    waitN: integer('wait_n').notNull().default(0),
    /** Talk of the answered calls (the calls report's average talk). */
    talkSum: bigint('talk_sum', { mode: 'number' }).notNull().default(0),
    /** Calls offered to the agent that they answered (each once, at its first answered step), their talk. */
    agentAnswered: integer('agent_answered').notNull().default(0),
    agentTalk: bigint('agent_talk', { mode: 'number' }).notNull().default(0),
    /** Calls the agent placed (each once, at its first step), those answered, their talk. */
    placed: integer('placed').notNull().default(0),
    placedAnswered: integer('placed_answered').notNull().default(0),
    placedTalk: bigint('placed_talk', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.hour, t.userId, t.queueId] })],
)

/**
 * A clean hour's queue calls (KPI, queue service level; migration 00xx_hours): each call once per queue it entered,
 * in the UTC hour of its first step in that queue (`hour`, the hour that must be clean) and, for the day it is
 * counted on, the hour it entered the queue (`queue_hour`, its earliest queue start); under the agent who answered
 * it (0: abandoned) — and `missed` under each other agent it was offered to. `in_target` used the queue's
 * service_level of the refresh: a change of a queue's target marks its hours dirty (trigger on pabx_queues).
 */
export const reportQueueHours = pgTable(
  'report_queue_hours',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    queueHour: timestamp('queue_hour', { withTimezone: true }).notNull(),
    userId: integer('user_id').notNull().default(0),
    queueId: integer('queue_id').notNull(),
    offered: integer('offered').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    inTarget: integer('in_target').notNull().default(0),
    /** Seconds from entering the queue to the answer (or the end), summed exactly (numeric), and the calls summed. */
    waitedSum: numeric('waited_sum').notNull().default('0'),
    waitedN: integer('waited_n').notNull().default(0),
    talkSum: bigint('talk_sum', { mode: 'number' }).notNull().default(0),
    acwSum: bigint('acw_sum', { mode: 'number' }).notNull().default(0),
    acwN: integer('acw_n').notNull().default(0),
    missed: integer('missed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.hour, t.queueHour, t.userId, t.queueId] })],
)
