import { bigint, bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'
import { users } from './users.ts'

// The reports' processing queue (server/reports/jobs/, spec 000 §2 /reports/processing-queue): an export too large to
// stream becomes a durable job, like the lead imports (lead-imports.ts): claimed with SKIP LOCKED, its progress and a
// heartbeat written as it runs, taken again from the start when its process died. The file is written to
// DATA_DIR/reports/ under a random name and kept until the job is deleted.

/** queued → running → done | failed. */
export const REPORT_JOB_STATUS = ['queued', 'running', 'done', 'failed'] as const

export const reportJobs = pgTable(
  'report_jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A report id of contract/api/reports.ts and its filters as the query string had them; or a backup's kind
     * (`backup:reports`, `backup:chats`, contract/api/backups.ts) and its period. */
    report: varchar('report', { length: 64 }).notNull(),
    filters: jsonb('filters').$type<Record<string, string>>().notNull().default({}),
    /** The requester's language: the CSV's header, separator and yes/no are written in it. */
    lang: varchar('lang', { length: 8 }).notNull().default('pt-BR'),
    status: varchar('status', { length: 16 }).$type<(typeof REPORT_JOB_STATUS)[number]>().notNull().default('queued'),
    totalRows: integer('total_rows').notNull().default(0),
    rowsWritten: integer('rows_written').notNull().default(0),
    /** The file's name inside DATA_DIR/reports/ (random hex), and the name it downloads as. */
    storedName: varchar('stored_name', { length: 64 }).notNull(),
    fileName: varchar('file_name', { length: 255 }).notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    /** A backup's archive (server/reports/backup.ts): its SHA-256, hex. */
    checksum: varchar('checksum', { length: 64 }).notNull().default(''),
    error: jsonb('error').$type<{ text: string }>(),
    attempts: integer('attempts').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('report_jobs_site_user_idx').on(t.siteId, t.userId, t.id.desc()), index('report_jobs_status_idx').on(t.status)],
)
