import { sql } from 'drizzle-orm'
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, varchar, bigserial } from 'drizzle-orm/pg-core'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { crmLeads, serviceChatsCampaigns } from './entities.generated.ts'
import { chatRooms } from './chat.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// WhatsApp template campaigns' runtime (server/chat/campaigns.ts): whether a campaign is sending, and one row per lead
// it has taken — the claim that makes a lead sent once, whichever instance sends and across restarts.

export const CHAT_CAMPAIGN_STATUSES = ['running', 'paused', 'stopped'] as const
export type ChatCampaignStatus = (typeof CHAT_CAMPAIGN_STATUSES)[number]

export const chatCampaignRuns = pgTable('chat_campaign_runs', {
  campaignId: integer('campaign_id')
    .primaryKey()
    .references((): AnyPgColumn => serviceChatsCampaigns.id, { onDelete: 'cascade' }),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  status: varchar('status', { length: 16 }).$type<ChatCampaignStatus>().notNull(),
  startedBy: integer('started_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** sending (claimed, the template being written) → sent; skipped (no phone, the customer in another open chat, a bad phone). */
export const CHAT_CAMPAIGN_SEND_STATUSES = ['sending', 'sent', 'skipped'] as const
export type ChatCampaignSendStatus = (typeof CHAT_CAMPAIGN_SEND_STATUSES)[number]

export const chatCampaignSends = pgTable(
  'chat_campaign_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references((): AnyPgColumn => serviceChatsCampaigns.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    leadId: integer('lead_id')
      .notNull()
      .references((): AnyPgColumn => crmLeads.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).$type<ChatCampaignSendStatus>().notNull(),
    reason: text('reason').notNull().default(''),
    roomId: bigint('room_id', { mode: 'number' }).references((): AnyPgColumn => chatRooms.id, { onDelete: 'set null' }),
    messageId: bigint('message_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('chat_campaign_sends_lead_idx').on(t.campaignId, t.leadId),
    index('chat_campaign_sends_sending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'sending'`),
    index('chat_campaign_sends_room_idx')
      .on(t.roomId)
      .where(sql`${t.roomId} IS NOT NULL`),
  ],
)
