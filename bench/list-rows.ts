import { sql } from 'drizzle-orm'
import type { Db } from '../server/db/client.ts'

// The rows of the big-list bench, also what tests/server/entities/list-plans.test.ts explains its plans over:
// service blocklists "Bloqueio <n>", phones 55119 + n in 8 digits, inserted by one INSERT … SELECT generate_series.
export async function insertBlocklistRows(db: Db, siteId: number, rows: number): Promise<void> {
  await db.execute(sql`INSERT INTO service_blacklists (site_id, description, phones, direction)
    SELECT ${siteId}, 'Bloqueio ' || g, '55119' || lpad(g::text, 8, '0'), 'both' FROM generate_series(1, ${rows}) g`)
  // What autovacuum does after a bulk insert: the statistics, and the visibility map an index-only scan reads.
  await db.execute(sql`VACUUM ANALYZE service_blacklists`)
}
