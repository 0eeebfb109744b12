import { bigint, bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { crmMailings, serviceShipmentsLayouts } from './entities.generated.ts'
import { sites } from './sites.ts'
import { users } from './users.ts'

// CSV imports of leads into a mailing (server/crm/lead-import/): one row per upload, the durable job that imports it.
// The file waits in DATA_DIR/imports/ until the job ends; the job's progress is written here as it goes, so any
// instance answers the progress bar, and a job a crash interrupted is found here and started again (its transaction
// was rolled back with the crash: nothing of it was kept).

/** queued → running → done | failed. */
export const LEAD_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type LeadImportStatus = (typeof LEAD_IMPORT_STATUSES)[number]

export const crmLeadImports = pgTable(
  'crm_lead_imports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id')
      .notNull()
      .references(() => crmMailings.id, { onDelete: 'cascade' }),
    layoutId: integer('layout_id').references(() => serviceShipmentsLayouts.id, { onDelete: 'set null' }),
    /** The layout as it was at upload: a later edit of the layout does not change a queued import. */
    layout: jsonb('layout').$type<{ name: string; surname: string; phones: string[] }>().notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The uploader's language: the error file's header and messages are written in it. */
    lang: varchar('lang', { length: 8 }).notNull().default('pt-BR'),
    fileName: varchar('file_name', { length: 255 }).notNull().default(''),
    /** The stored upload's name inside DATA_DIR/imports/ (random, never the client's). */
    storedName: varchar('stored_name', { length: 64 }).notNull(),
    status: varchar('status', { length: 16 }).$type<LeadImportStatus>().notNull().default('queued'),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull().default(0),
    readBytes: bigint('read_bytes', { mode: 'number' }).notNull().default(0),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsImported: integer('rows_imported').notNull().default(0),
    rowsFailed: integer('rows_failed').notNull().default(0),
    /** Why a failed import failed (a message key of the contract, with its values). */
    error: jsonb('error').$type<{ text: string }>(),
    attempts: integer('attempts').notNull().default(0),
    /** Refreshed while a job runs; a running job whose heartbeat is old lost its process and is taken again. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('crm_lead_imports_site_idx').on(t.siteId, t.id.desc()), index('crm_lead_imports_status_idx').on(t.status)],
)
