import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { bigserial, index, serial, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { crmClientInteractions, crmClients } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// The CRM's own indexes beside the generated client table (contract/entities/crm-records.ts, server/crm/).

/**
 * Every phone (E.164) and document (digits) of every client, one row each, kept by the client's write hooks. A
 * ringing call or an arriving chat finds its client here by number, and two clients sharing a row are possible
 * duplicates: both are one index probe on (site, kind, value), whatever the number of clients.
 */
export const crmClientKeys = pgTable(
  'crm_client_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references((): AnyPgColumn => crmClients.id, { onDelete: 'cascade' }),
    /** phone or document. */
    kind: varchar('kind', { length: 16 }).notNull(),
    value: varchar('value', { length: 32 }).notNull(),
  },
  (t) => [
    uniqueIndex('crm_client_keys_unique').on(t.clientId, t.kind, t.value),
    index('crm_client_keys_lookup_idx').on(t.siteId, t.kind, t.value),
  ],
)

/**
 * A merge of two clients (server/crm/merge.ts): the one kept, the one merged into it (its row is gone), what the
 * merged one was and how many records of each kind moved. The audit log names the same change; this row keeps the
 * numbers for the client's page.
 */
export const crmClientMerges = pgTable(
  'crm_client_merges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references((): AnyPgColumn => crmClients.id, { onDelete: 'cascade' }),
    mergedClientId: integer('merged_client_id').notNull(),
    mergedRecord: jsonb('merged_record').$type<Record<string, unknown>>().notNull(),
    moved: jsonb('moved').$type<Record<string, number>>().notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('crm_client_merges_client_idx').on(t.clientId, t.createdAt.desc())],
)

/**
 * The files kept with an interaction (server/crm/interaction-files.ts), several per interaction. The bytes live under
 * DATA_DIR/media/crm-interactions-<site>/ with a random name carrying the sniffed type's extension; the uploaded
 * name (made safe) is only the download's name. They go with their interaction.
 */
export const crmInteractionAttachments = pgTable(
  'crm_interaction_attachments',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    interactionId: integer('interaction_id')
      .notNull()
      .references((): AnyPgColumn => crmClientInteractions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    stored: varchar('stored', { length: 40 }).notNull(),
    mime: varchar('mime', { length: 64 }).notNull(),
    size: integer('size').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('crm_interaction_attachments_interaction_idx').on(t.interactionId, t.id)],
)
