import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { ENTITIES } from '../../../contract/entities/index.ts'
import { MIGRATIONS_DIR, openDatabase } from '../../../server/db/client.ts'
import { GENERATED_SCHEMA } from '../../../server/db/entity-schema/generate.ts'
import { planOf } from '../../../server/db/entity-schema/plan.ts'
import { renderEntitySchema } from '../../../server/db/entity-schema/render.ts'
import { bindAll } from '../../../server/entities/tables.ts'

// The registry drives the tables: the generated schema must be what the registry renders today, every plan must
// find its tables and columns, and a database made by the first migration must upgrade with its rows intact.

describe('settings tables', () => {
  it('are generated from the current registry (run `node server/db/entity-schema/generate.ts` after changing it)', async () => {
    expect(await readFile(GENERATED_SCHEMA, 'utf8')).toBe(renderEntitySchema())
  })

  it('hold every column each entity plan names, bridged tables included', () => {
    expect(() => bindAll(ENTITIES.map((e) => e.key))).not.toThrow()
    expect(planOf('business.sites')).toMatchObject({ table: 'sites', bridged: true, scope: 'id' })
    expect(planOf('pabx.queues')).toMatchObject({ table: 'pabx_queues', bridged: false, scope: 'site_id' })
  })

  it('carry site_id on every generated table, join table and child table', () => {
    for (const entity of ENTITIES) {
      const plan = planOf(entity.key)
      if (!plan.bridged) expect(plan.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['id', 'site_id', 'created_at', 'updated_at']))
      for (const field of plan.fields) if (field.kind === 'rows') expect(field.child.columns.map((c) => c.name)).toContain('site_id')
    }
  })
})

describe('migrations', () => {
  it('upgrade a database created by the first migration, keeping its rows', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-upgrade-'))
    try {
      // A migrations folder as it was at 0000 only.
      const first = path.join(dir, 'migrations')
      await cp(MIGRATIONS_DIR, first, { recursive: true })
      const journal = JSON.parse(await readFile(path.join(first, 'meta', '_journal.json'), 'utf8'))
      journal.entries = journal.entries.slice(0, 1)
      await writeFile(path.join(first, 'meta', '_journal.json'), JSON.stringify(journal))

      const pgdata = path.join(dir, 'pgdata')
      const old = new PGlite(pgdata)
      await migrate(drizzle(old), { migrationsFolder: first })
      await old.exec(`
        INSERT INTO sites (domain, name, settings) VALUES ('old.example', 'Old site', '{"header_color": "#112233"}');
        INSERT INTO teams (site_id, name) VALUES (1, 'Old team');
        INSERT INTO users (site_id, username, password, team_id) VALUES (1, 'veteran', 'x', 1);
        INSERT INTO permission_groups (site_id, name, permissions) VALUES (1, 'Old group', '["sites.view_chat"]');
        INSERT INTO user_groups (user_id, group_id, site_id) VALUES (1, 1, 1);
      `)
      await old.close()

      const upgraded = await openDatabase({ pgliteDir: pgdata })
      try {
        type Rows = { rows: unknown[] }
        const rows = (await upgraded.db.execute(`
          SELECT s.name, s.is_active AS site_active, s.settings->>'header_color' AS header, t.name AS team, t.is_active AS team_active,
                 u.username, u.device_id, g.name AS grp, g.is_active AS group_active
          FROM users u JOIN sites s ON s.id = u.site_id JOIN teams t ON t.id = u.team_id
          JOIN user_groups ug ON ug.user_id = u.id JOIN permission_groups g ON g.id = ug.group_id`)) as unknown as Rows
        expect(rows.rows).toEqual([
          {
            name: 'Old site',
            site_active: true,
            header: '#112233',
            team: 'Old team',
            team_active: true,
            username: 'veteran',
            device_id: null,
            grp: 'Old group',
            group_active: true,
          },
        ])
        const queues = (await upgraded.db.execute('SELECT count(*)::int AS n FROM pabx_queues')) as unknown as Rows
        expect(queues.rows).toEqual([{ n: 0 }])
      } finally {
        await upgraded.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
