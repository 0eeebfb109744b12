// The whole schema, one module per area; drizzle-kit reads this file to generate migrations.
export * from './sites.ts'
export * from './teams.ts'
export * from './users.ts'
export * from './groups.ts'
export * from './sessions.ts'
export * from './audit-log.ts'
// The settings catalogue's tables, generated from contract/entities (server/db/entity-schema/).
export * from './entities.generated.ts'
// Agent presence: pause reports, current agent statuses and their timeline (server/agent/).
export * from './agent.ts'
// Activities: scheduled callbacks of an agent (server/agent/activity-service.ts).
export * from './activities.ts'
// Call control: call records (CDR) and SIP registrations (server/telephony/control/).
export * from './calls.ts'
// Rows per site of the generated settings tables, kept by triggers (server/db/entity-schema/list-counts.ts).
export * from './list-counts.ts'
// Chat: rooms, their messages, raw webhook events and the outbox (server/chat/).
export * from './chat.ts'
// Chat NPS surveys sent after a close and their answers (server/chat/nps.ts).
export * from './chat-nps.ts'
// CRM: the phone and document index of clients and their merges (server/crm/).
export * from './crm.ts'
// CSV imports of leads (server/crm/lead-import/).
export * from './lead-imports.ts'
// The dialer's runtime: campaign runs, lead reservations and states, pacing decisions (server/dialer/).
export * from './dialer.ts'
// The media app's records: voicemail messages and telephony NPS answers (server/media/app/).
export * from './media.ts'
// The reports' processing queue: large CSV exports as durable jobs (server/reports/jobs/).
export * from './report-jobs.ts'
// WhatsApp template campaigns: runs and the leads sent (server/chat/campaigns.ts).
export * from './chat-campaigns.ts'
export * from './report-hours.ts'
