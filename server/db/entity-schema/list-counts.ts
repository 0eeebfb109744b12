import { ENTITIES } from '../../../contract/entities/index.ts'
import { planOf } from './plan.ts'

// The row counts behind an unfiltered list's `count` (table list_counts, server/db/schema/list-counts.ts): one
// trigger function, and on every generated entity table four statement triggers that add the rows each statement
// inserted, deleted or moved between sites, per site, as one more row of list_counts (TRUNCATE forgets the table).
// Statement triggers with transition tables cost one grouped insert per statement: a bulk insert or a CSV import pays
// once.
//
// Drizzle does not know triggers: a migration that creates an entity table must also carry
// `listCountsSql([...its tables])` (a test fails while a generated table has no triggers). The first one (0006) also
// carries LIST_COUNTS_FUNCTION.

/** The generated entity tables (bridged ones are the older, small hand-written tables). */
export function countedTables(): string[] {
  return ENTITIES.map((e) => planOf(e.key))
    .filter((p) => !p.bridged && p.scope === 'site_id')
    .map((p) => p.table)
}

export const LIST_COUNTS_FUNCTION = `CREATE OR REPLACE FUNCTION list_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_counts (table_name, site_id, n) SELECT TG_TABLE_NAME, site_id, count(*) FROM new_rows GROUP BY site_id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_counts (table_name, site_id, n) SELECT TG_TABLE_NAME, site_id, -count(*) FROM old_rows GROUP BY site_id;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO list_counts (table_name, site_id, n)
      SELECT TG_TABLE_NAME, site_id, sum(d) FROM (SELECT site_id, 1 AS d FROM new_rows UNION ALL SELECT site_id, -1 FROM old_rows) moved
      GROUP BY site_id HAVING sum(d) <> 0;
  ELSE
    DELETE FROM list_counts WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END
$$;`

/** The triggers of these tables, and their current rows counted once. */
export function listCountsSql(tables: readonly string[]): string {
  const names = tables.map((t) => `'${t}'`).join(', ')
  return `DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[${names}] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node server/db/entity-schema/list-counts.ts [table…]`: the SQL to append to a migration (every table by default).
  const tables = process.argv.slice(2)
  console.log(tables.length ? listCountsSql(tables) : `${LIST_COUNTS_FUNCTION}\n--> statement-breakpoint\n${listCountsSql(countedTables())}`)
}
