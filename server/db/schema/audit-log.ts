import { bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'
import { users } from './users.ts'

// Who changed which settings row, and how: written in the same transaction as the change, so no change goes
// unrecorded and no record describes a change that was rolled back. Secrets appear only as "[redacted]".
/** The delete a cascaded entry followed from. */
export type CascadeOf = { entity: string; object_id: number }

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    // Kept when the user is deleted: the entry still says what happened, without naming who.
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    entity: varchar('entity', { length: 64 }).notNull(),
    objectId: integer('object_id').notNull(),
    action: varchar('action', { length: 16 }).$type<'create' | 'update' | 'delete'>().notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    // Set on entries the database's ON DELETE CASCADE / SET NULL caused: the row whose delete was asked for.
    cascadeOf: jsonb('cascade_of').$type<CascadeOf>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_site_at_idx').on(t.siteId, t.at), index('audit_log_site_entity_object_idx').on(t.siteId, t.entity, t.objectId)],
)

export type AuditRow = typeof auditLog.$inferSelect
