import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { crmClients, crmLeads, crmMailings } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Activities (spec 000 §2 activity screen, §3 Activity, §4 "the next is dialled automatically, done after 50
// attempts"): scheduled callbacks of one agent. `client`, `mailing` and `mailing_client` are CRM rows (cleared when
// those go); `campaign` and `dialer` name rows of the dialer issue, whose tables do not exist yet.

/** One scheduled call (or task) of an agent. */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The agent who works it. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The number to call ('call to'). */
    destination: varchar('destination', { length: 64 }).notNull().default(''),
    clientId: integer('client_id').references((): AnyPgColumn => crmClients.id, { onDelete: 'set null' }),
    mailingId: integer('mailing_id').references((): AnyPgColumn => crmMailings.id, { onDelete: 'set null' }),
    mailingClientId: integer('mailing_client_id').references((): AnyPgColumn => crmLeads.id, { onDelete: 'set null' }),
    campaignId: integer('campaign_id'),
    dialerId: integer('dialer_id'),
    /** Dial attempts so far; the 50th makes it done. */
    count: integer('count').notNull().default(0),
    done: boolean('done').notNull().default(false),
    start: timestamp('start', { withTimezone: true }).notNull(),
    end: timestamp('end', { withTimezone: true }),
    subject: varchar('subject', { length: 255 }).notNull().default(''),
    type: varchar('type', { length: 32 }).notNull().default('call'),
    target: text('target').notNull().default(''),
    active: boolean('active').notNull().default(true),
    /** Dialled automatically when the agent is available (spec 000 §4). */
    automaticExecution: boolean('automatic_execution').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The agent's pending list (get_activities every 5 s): only rows not done, by start.
    index('activities_pending_idx')
      .on(t.siteId, t.userId, t.start)
      .where(sql`${t.done} = false`),
    // A client's timeline (server/crm/timeline.ts).
    index('activities_client_idx')
      .on(t.clientId, t.start.desc(), t.id.desc())
      .where(sql`${t.clientId} IS NOT NULL`),
  ],
)

export type ActivityRow = typeof activities.$inferSelect
