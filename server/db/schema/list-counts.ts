import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core'

// How many rows each site has in each generated settings table, so an unfiltered list answers its exact `count`
// without counting the rows (a million-row table takes about 100 ms to count). Statement triggers on every such table
// append, in the writing transaction, one row per statement and site with the rows it added (or removed: negative);
// the count is the sum, and a reader folds a key's rows into one when they pile up (server/entities/list-query.ts).
// Appending instead of updating one row per key keeps concurrent writers from waiting on each other, and a
// transaction of many small statements from walking an ever longer chain of its own row versions.
// The triggers: server/db/entity-schema/list-counts.ts. No foreign key to sites: a site's cascade deletes its rows
// first and the triggers write after the statement.
export const listCounts = pgTable(
  'list_counts',
  {
    tableName: text('table_name').notNull(),
    siteId: integer('site_id').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('list_counts_table_site_idx').on(t.tableName, t.siteId)],
)
