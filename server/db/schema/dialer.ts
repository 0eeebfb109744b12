import { sql } from 'drizzle-orm'
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { crmLeads, serviceShipmentsCampaigns } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// The dialer's runtime (server/dialer/README.md "Runtime"): what is not a setting. A campaign's run (started, paused,
// stopped, and which server instance drives it now), each lead's dialling state, and the pacing decisions. All of it
// lives here so a restart or another instance continues where the last one stopped.

/** running → paused → running … → stopped. A running campaign's heartbeat says an instance drives it. */
export const CAMPAIGN_RUN_STATUSES = ['running', 'paused', 'stopped'] as const
export type CampaignRunStatus = (typeof CAMPAIGN_RUN_STATUSES)[number]

export const dialerCampaignRuns = pgTable(
  'dialer_campaign_runs',
  {
    campaignId: integer('campaign_id')
      .primaryKey()
      .references((): AnyPgColumn => serviceShipmentsCampaigns.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).$type<CampaignRunStatus>().notNull(),
    startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The instance driving it (random per process) and when it last said so; an old heartbeat is taken over. */
    owner: varchar('owner', { length: 64 }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** Calls answered with no agent free within 2 s (the customer heard the safe message). */
    abandoned: integer('abandoned').notNull().default(0),
  },
  (t) => [index('dialer_campaign_runs_status_idx').on(t.status, t.heartbeatAt)],
)

/**
 * One row per lead the dialer has touched: its reservation (a lead is dialled, or shown in preview, for one agent or
 * one call at a time), when it may be dialled again, which of its phones is next and what the last try answered.
 * The lead's own `attempts` and `status` (crm_leads) are what the CRM shows.
 */
export const dialerLeadStates = pgTable(
  'dialer_lead_states',
  {
    leadId: integer('lead_id')
      .primaryKey()
      .references((): AnyPgColumn => crmLeads.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id').references((): AnyPgColumn => serviceShipmentsCampaigns.id, { onDelete: 'set null' }),
    /** The agent holding the lead (preview, make-call-to-mailing-client); null while the dialer itself dials it. */
    reservedBy: integer('reserved_by').references(() => users.id, { onDelete: 'set null' }),
    /** A reservation ends here even if nobody releases it (a crash, a closed tab). */
    reservedUntil: timestamp('reserved_until', { withTimezone: true }),
    phoneIndex: integer('phone_index').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastDialAt: timestamp('last_dial_at', { withTimezone: true }),
    /** The SIP Call-ID of the call in flight, if any. */
    callId: varchar('call_id', { length: 255 }),
  },
  (t) => [index('dialer_lead_states_campaign_idx').on(t.campaignId, t.nextAt), index('dialer_lead_states_call_idx').on(t.callId).where(sql`${t.callId} IS NOT NULL`)],
)

/** Every pacing decision (why the dialer placed N calls), newest first per campaign, for the supervisor. */
export const dialerPacingLog = pgTable(
  'dialer_pacing_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id')
      .notNull()
      .references((): AnyPgColumn => serviceShipmentsCampaigns.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    calls: integer('calls').notNull(),
    reason: text('reason').notNull().default(''),
    log: jsonb('log').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('dialer_pacing_log_campaign_idx').on(t.campaignId, t.at.desc())],
)
