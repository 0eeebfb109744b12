import { ENTITIES } from '../../../contract/entities/index.ts'
import { planOf } from './plan.ts'
import { listOrderIndex } from './render.ts'

// `ordering=id` within a site: an index on `(id) INCLUDE (site_id)` on every generated table whose default order is
// not id already. A deep page reads its ids past the offset from it alone (server/entities/list-query.ts listPage: an
// index-only scan, the site checked in each entry), where the primary key would visit every table row it skips.
// The site is an INCLUDE column, not a key: an index keyed on it would also offer the planner the site's rows for a
// search, competing with the trigram indexes, and a small site's pages are served by the list order index anyway.
//
// Drizzle cannot declare INCLUDE: a migration that creates an entity table must also carry
// `listIdIndexSql([...its tables])` (a test fails while a generated table lacks the index). The first one is 0011.

/** The generated tables that get the index, each with its name. */
export function listIdIndexes(): { table: string; name: string; scope: string }[] {
  return ENTITIES.map((e) => planOf(e.key))
    .filter((plan) => !plan.bridged)
    .filter((plan) => {
      const order = listOrderIndex(plan).columns.map((c) => c.column)
      return !(order.length === 2 && order[1] === 'id')
    })
    .map((plan) => ({ table: plan.table, name: `${plan.table}_list_id_idx`, scope: plan.scope }))
}

export function listIdIndexSql(tables: readonly string[]): string {
  return listIdIndexes()
    .filter((i) => tables.includes(i.table))
    .map((i) => `CREATE INDEX IF NOT EXISTS "${i.name}" ON "${i.table}" USING btree ("id") INCLUDE ("${i.scope}");`)
    .join('\n--> statement-breakpoint\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node server/db/entity-schema/list-id-index.ts [table…]`: the SQL to append to a migration (every table by default).
  const tables = process.argv.slice(2)
  console.log(listIdIndexSql(tables.length ? tables : listIdIndexes().map((i) => i.table)))
}
