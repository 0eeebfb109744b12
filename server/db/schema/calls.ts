import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { crmClients, crmLeads, pabxDevices, pabxInboundRoutes, pabxOutboundRoutes, pabxQueues, pabxTrunks } from './entities.generated.ts'
import { activities } from './activities.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Call control (server/telephony/control/): the call records (CDR, spec 000 §3 "Call (detail)", 001 §3 "Call
// detail") and the SIP registrations Kamailio reports. Everything the ACD remembers (the last member a queue offered
// a call to, calls per member, who is ringing) is derived from these rows, so a restart of Node loses nothing.

/**
 * One step of a call: each decision Node gives Kamailio for a SIP Call-ID (step 1 the first route, then one per
 * failure answered with a new target: the next queue member, the next trunk, an overflow). The decision given is
 * kept, so a repeated question gets the same answer; (site, call id, step) is unique, so writes are idempotent.
 */
export const callRecords = pgTable(
  'call_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The SIP Call-ID of the caller's leg. */
    callId: varchar('call_id', { length: 255 }).notNull(),
    step: integer('step').notNull(),
    /** A random id of the step (the webphone's call uid, X-Atende-Uid). */
    uid: varchar('uid', { length: 36 }).notNull(),
    /** The uid of step 1 for every later step; null on step 1. */
    parentUid: varchar('parent_uid', { length: 36 }),
    /** inbound (from a trunk), outbound (to a trunk) or internal (device to device). */
    direction: varchar('direction', { length: 16 }).notNull(),
    callType: integer('call_type').notNull(),
    /** What the step does: device, queue, trunk or reject. */
    kind: varchar('kind', { length: 16 }).notNull(),
    caller: varchar('caller', { length: 80 }).notNull().default(''),
    callee: varchar('callee', { length: 80 }).notNull().default(''),
    /** The customer's number (the external party), '' on internal calls. */
    phone: varchar('phone', { length: 80 }).notNull().default(''),
    /** The device that placed the call (outbound and internal). */
    callerDeviceId: integer('caller_device_id').references((): AnyPgColumn => pabxDevices.id, { onDelete: 'set null' }),
    callerUserId: integer('caller_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The device and agent offered the call (internal, pjsip, queue member). */
    deviceId: integer('device_id').references((): AnyPgColumn => pabxDevices.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** A ring-all offer names every member rung at once here (user ids). */
    offeredUserIds: jsonb('offered_user_ids').$type<number[]>().notNull().default([]),
    queueId: integer('queue_id').references((): AnyPgColumn => pabxQueues.id, {
      onDelete: 'set null',
    }),
    inboundRouteId: integer('inbound_route_id').references((): AnyPgColumn => pabxInboundRoutes.id, { onDelete: 'set null' }),
    outboundRouteId: integer('outbound_route_id').references((): AnyPgColumn => pabxOutboundRoutes.id, { onDelete: 'set null' }),
    trunkId: integer('trunk_id').references((): AnyPgColumn => pabxTrunks.id, {
      onDelete: 'set null',
    }),
    did: varchar('did', { length: 80 }).notNull().default(''),
    areaCode: varchar('area_code', { length: 8 }).notNull().default(''),
    /** The SIP answer of the step (spec 000 §4 dial status codes); null while it rings. */
    dialStatus: integer('dial_status'),
    dialStatusText: varchar('dial_status_text', { length: 255 }).notNull().default(''),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    ringingAt: timestamp('ringing_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Seconds from the step's start to its end, and from the answer to the end (served). */
    totalDuration: integer('total_duration'),
    answeredDuration: integer('answered_duration'),
    /** When the call entered the queue (the first step of that queue in the call), and seconds it waited. */
    queueStartedAt: timestamp('queue_started_at', { withTimezone: true }),
    queueWait: integer('queue_wait'),
    /** caller or callee. */
    hungUpBy: varchar('hung_up_by', { length: 16 }),
    record: boolean('record').notNull().default(false),
    recordingPath: text('recording_path'),
    /** The agent's webphone accepted the call (the service socket's webphone_answer). */
    agentAnsweredAt: timestamp('agent_answered_at', { withTimezone: true }),
    /** The agent's classification (spec 000 §3 "Classification chain", POST tab-form ?type=classification). */
    classification: jsonb('classification').$type<Record<string, unknown>>(),
    classifiedAt: timestamp('classified_at', { withTimezone: true }),
    /** The call form the agent sent (POST tab-form ?type=form&form_id=): its id and values, once. */
    formId: integer('form_id'),
    formValues: jsonb('form_values').$type<Record<string, unknown>>(),
    formSentAt: timestamp('form_sent_at', { withTimezone: true }),
    /** After-service (spec 000 §4): started (its pause report), finished with a type and duration (?type=hangup). */
    afterServiceStartedAt: timestamp('after_service_started_at', { withTimezone: true }),
    afterServicePauseReportId: integer('after_service_pause_report_id'),
    afterServiceType: integer('after_service_type'),
    afterServiceDuration: integer('after_service_duration'),
    afterServiceFinishedAt: timestamp('after_service_finished_at', { withTimezone: true }),
    /** A transfer's call: the uid of the step it was transferred from and how (blind, attend, pendulum). */
    transferOfUid: varchar('transfer_of_uid', { length: 36 }),
    transferType: varchar('transfer_type', { length: 16 }),
    /** The agent cancelled the transfer (POST /v1/agent/transfer/cancel/): when, and the destination it had. */
    transferCancelledAt: timestamp('transfer_cancelled_at', { withTimezone: true }),
    transferApp: varchar('transfer_app', { length: 32 }),
    transferAppdata: varchar('transfer_appdata', { length: 255 }),
    /** The scheduled activity this call works (the webphone dialled it: X-Atende-Activity, the caller's own). */
    activityId: integer('activity_id').references((): AnyPgColumn => activities.id, { onDelete: 'set null' }),
    /** The CRM client the customer's number matched when the call rang (server/crm/), or the one the agent dialled from. */
    clientId: integer('client_id').references((): AnyPgColumn => crmClients.id, { onDelete: 'set null' }),
    /** The lead (mailing client) this call dialled. */
    leadId: integer('lead_id').references((): AnyPgColumn => crmLeads.id, { onDelete: 'set null' }),
    /** The answer Kamailio got for this step (protocol.ts Decision). */
    decision: jsonb('decision').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex('call_records_call_step_unique').on(t.siteId, t.callId, t.step),
    uniqueIndex('call_records_uid_unique').on(t.uid),
    index('call_records_site_started_idx').on(t.siteId, t.startedAt),
    index('call_records_user_idx').on(t.userId, t.startedAt),
    index('call_records_caller_user_idx').on(t.callerUserId, t.startedAt),
    index('call_records_queue_idx').on(t.queueId, t.startedAt),
    // A client's and a lead's calls (the CRM timeline, /leads/{id}/show), newest first.
    index('call_records_client_idx')
      .on(t.clientId, t.startedAt.desc(), t.id.desc())
      .where(sql`${t.clientId} IS NOT NULL`),
    index('call_records_lead_idx')
      .on(t.leadId, t.startedAt.desc())
      .where(sql`${t.leadId} IS NOT NULL`),
    index('call_records_transfer_of_idx').on(t.transferOfUid),
    // The pause check tells an after-service's pause report from the agent's own pause (server/agent/pause-service.ts).
    index('call_records_after_service_report_idx')
      .on(t.afterServicePauseReportId)
      .where(sql`${t.afterServicePauseReportId} IS NOT NULL`),
    // Agent productivity's after-services of a period (server/reports/datasets.ts).
    index('call_records_after_service_started_idx')
      .on(t.siteId, t.afterServiceStartedAt)
      .where(sql`${t.afterServiceStartedAt} IS NOT NULL`),
    // Steps still ringing or talking: busy devices, agents being offered a call, callers waiting in a queue.
    index('call_records_open_idx')
      .on(t.siteId)
      .where(sql`${t.endedAt} IS NULL`),
  ],
)

/** The registration state of a SIP address (device username) as Kamailio last reported it. */
export const sipRegistrations = pgTable(
  'sip_registrations',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    username: varchar('username', { length: 80 }).notNull(),
    registered: boolean('registered').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sip_registrations_site_username_unique').on(t.siteId, t.username)],
)

export type CallRecordRow = typeof callRecords.$inferSelect
export type NewCallRecord = typeof callRecords.$inferInsert
