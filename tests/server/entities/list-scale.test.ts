import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { ENTITIES } from '../../../contract/entities/index.ts'
import type { Db } from '../../../server/db/client.ts'
import { MIGRATIONS_DIR, openDatabase } from '../../../server/db/client.ts'
import { countedTables } from '../../../server/db/entity-schema/list-counts.ts'
import { planOf } from '../../../server/db/entity-schema/plan.ts'
import { listOrderIndex, searchIndexes } from '../../../server/db/entity-schema/render.ts'
import type { SiteRow } from '../../../server/db/schema/index.ts'
import type { EntityContext } from '../../../server/entities/context.ts'
import { listSource, parseListQuery } from '../../../server/entities/list-query.ts'
import { selectRecords } from '../../../server/entities/serialize.ts'
import { tablesOf } from '../../../server/entities/tables.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { useEntitySuite } from './entity-helper.ts'

// The settings lists over big tables (issue 3): the indexes generated from the registry (the default order within a
// site, trigram GIN for the searchable texts), a search the planner can answer from them, the row counts the
// triggers keep — and the answers exactly as before: DRF {count, results}, -is_active,id, search, offset/limit.
const s = useEntitySuite()
const API = '/api/v1/service/blacklists/'

type Row = { id: number; description: string; phones: string; is_active: boolean }
let siteA: SiteRow
let siteB: SiteRow

const rows = async <T>(db: Db, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows
const db = () => s.t.database.db
const get = async (path: string) => {
  const response = await s.admin.client.get(path)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { count: number; results: Row[] }
}
const stored = (site: SiteRow) => rows<Row>(db(), sql`SELECT id, description, phones, is_active FROM service_blacklists WHERE site_id = ${site.id}`)
/** What list_counts holds for the site: the sum and how many rows make it. */
const counted = async (site: SiteRow) => {
  const [kept] = await rows<{ n: string | null; rows: string }>(
    db(),
    sql`SELECT sum(n) AS n, count(*) AS rows FROM list_counts WHERE table_name = 'service_blacklists' AND site_id = ${site.id}`,
  )
  return { n: Number(kept!.n ?? 0), rows: Number(kept!.rows) }
}
const realCount = async (site: SiteRow) =>
  Number((await rows<{ n: string }>(db(), sql`SELECT count(*) AS n FROM service_blacklists WHERE site_id = ${site.id}`))[0]!.n)
/** list_counts agrees with count(*) on both sites, and the unfiltered list answers it. */
const check = async () => {
  for (const site of [siteA, siteB]) expect((await counted(site)).n, site.domain).toBe(await realCount(site))
  expect((await get(`${API}?limit=1`)).count).toBe(await realCount(siteA))
}
/** The default order, computed here: active rows first, then by id. */
const byDefault = (a: Row, b: Row) => Number(b.is_active) - Number(a.is_active) || a.id - b.id

/** Every page of a list, `limit` rows at a time; each page must carry the same count. */
async function allPages(path: string, limit: number): Promise<{ count: number; ids: number[] }> {
  const first = await get(`${path}&limit=${limit}&offset=0`)
  const ids = first.results.map((r) => r.id)
  for (let offset = limit; offset < first.count; offset += limit) {
    const page = await get(`${path}&limit=${limit}&offset=${offset}`)
    expect(page.count).toBe(first.count)
    ids.push(...page.results.map((r) => r.id))
  }
  return { count: first.count, ids }
}

beforeAll(async () => {
  siteA = (await resolveSite(db(), 'localhost'))!
  siteB = (await resolveSite(db(), 'b.example'))!
  await db().execute(sql`INSERT INTO service_blacklists (site_id, description, phones, is_active)
    SELECT ${siteA.id}, 'Lista ' || g, '55119' || lpad(g::text, 8, '0'), g % 3 <> 0 FROM generate_series(1, 60) g`)
  await db().execute(sql`INSERT INTO service_blacklists (site_id, description, phones)
    VALUES (${siteA.id}, 'Cem % certo', '5511999990000'), (${siteA.id}, 'LISTA maiúscula', '5511999990001')`)
  await db().execute(sql`INSERT INTO service_blacklists (site_id, description, phones)
    SELECT ${siteB.id}, 'Lista ' || g, '55219' || lpad(g::text, 8, '0') FROM generate_series(1, 5) g`)
})

describe('settings list indexes', () => {
  it('exist for every generated table: the default order within the site, trigram GIN for searchable texts', async () => {
    const indexes = await rows<{ tablename: string; indexname: string; indexdef: string }>(
      db(),
      sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
    )
    const def = (name: string) => indexes.find((i) => i.indexname === name)?.indexdef
    expect(def('service_blacklists_list_order_idx')).toMatch(/USING btree \(site_id, is_active DESC, id\)$/)
    expect(def('service_blacklists_description_trgm_idx')).toMatch(/USING gin \(description gin_trgm_ops\)$/)
    expect(def('service_blacklists_phones_trgm_idx')).toMatch(/USING gin \(phones gin_trgm_ops\)$/)
    expect(def('pabx_moh_entries_list_order_idx')).toMatch(/USING btree \(site_id, "order", id\)$/)
    for (const entity of ENTITIES) {
      const plan = planOf(entity.key)
      if (plan.bridged) continue
      expect(def(listOrderIndex(plan).name), entity.key).toBeDefined()
      for (const search of searchIndexes(plan)) expect(def(search.name), `${entity.key} ${search.column}`).toMatch(/gin_trgm_ops/)
    }
  })

  it('are what the planner reads for a search and for the first page', async () => {
    const plans: Record<string, string> = {}
    // Thousands of rows on site B, counted by ANALYZE, and no sequential scan: then the plan shows which index serves.
    // Everything, the dropped index too, is rolled back.
    const rollback = db().transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO service_blacklists (site_id, description, phones)
        SELECT ${siteB.id}, 'Lista ' || g, '55219' || lpad(g::text, 8, '0') FROM generate_series(100, 5000) g`)
      await tx.execute(sql`ANALYZE service_blacklists`)
      await tx.execute(sql`SET LOCAL enable_seqscan = off`)
      const ctx = { db: tx as unknown as Db, site: siteB, userId: null, lang: 'pt-BR', mediaDir: '' } satisfies EntityContext
      const tables = tablesOf('service.blacklists')
      const explain = async (query: Record<string, unknown>) => {
        const list = parseListQuery(ctx, 'service.blacklists', query)
        const source = listSource(ctx, tables, list)
        const page = selectRecords(ctx, tables, source.from)
          .where(source.where)
          .orderBy(...list.order)
          .limit(list.limit)
          .offset(list.offset)
        const plan = await rows<Record<string, string>>(tx as unknown as Db, sql`EXPLAIN ${page.getSQL()}`)
        return plan.map((r) => Object.values(r)[0]).join('\n')
      }
      plans.first = await explain({ limit: '10' })
      // On a table this small the site's rows are few enough to filter; without the site's index the search must
      // show that its condition can be answered from the trigram indexes.
      await tx.execute(sql`DROP INDEX service_blacklists_list_order_idx`)
      plans.search = await explain({ search: 'Lista 4242', limit: '10' })
      throw new Error('rollback')
    })
    await expect(rollback).rejects.toThrow('rollback')
    expect(plans.search).toContain('service_blacklists_description_trgm_idx')
    expect(plans.search).toContain('service_blacklists_phones_trgm_idx')
    expect(plans.first).toContain('service_blacklists_list_order_idx')
    expect(plans.first).not.toMatch(/Sort/)
    expect(await realCount(siteB)).toBe(5)
  })
})

describe('settings lists over the indexes', () => {
  it('keep the default order -is_active,id, offset/limit paging and the exact count', async () => {
    const expected = (await stored(siteA)).sort(byDefault).map((r) => r.id)
    expect(expected.length).toBeGreaterThanOrEqual(62)
    const whole = await get(`${API}?limit=1000`)
    expect(whole.count).toBe(expected.length)
    expect(whole.results.map((r) => r.id)).toEqual(expected)
    expect(await allPages(`${API}?`, 7)).toEqual({ count: expected.length, ids: expected })
    expect(await get(`${API}?limit=10&offset=500`)).toEqual({ count: expected.length, results: [] })
    const byId = await get(`${API}?ordering=-id&limit=5&offset=3`)
    expect(byId.count).toBe(expected.length)
    expect(byId.results.map((r) => r.id)).toEqual([...expected].sort((a, b) => b - a).slice(3, 8))
  })

  it('search description and phones ignoring case, in the list order, counted exactly across pages', async () => {
    const mine = (await stored(siteA)).sort(byDefault)
    const matching = (term: string) => mine.filter((r) => `${r.description}\n${r.phones}`.toLowerCase().includes(term.toLowerCase())).map((r) => r.id)
    for (const term of ['lista 1', 'LISTA', '00000004', 'ista 5', '%', 'maiúscula', 'nada disso']) {
      const expected = matching(term)
      expect(await allPages(`${API}?search=${encodeURIComponent(term)}`, 4), term).toEqual({ count: expected.length, ids: expected })
    }
    expect(matching('lista 1').length).toBeGreaterThan(4)
    // Combined with a filter, and with the page after the last one.
    const active = mine.filter((r) => r.is_active && r.description.includes('Lista 2')).map((r) => r.id)
    expect(await allPages(`${API}?is_active=true&search=Lista%202`, 3)).toEqual({ count: active.length, ids: active })
    expect(await get(`${API}?search=Lista&limit=5&offset=900`)).toEqual({ count: matching('lista').length, results: [] })
    // A lookup pages and searches the same way.
    const lookup = await s.admin.client.get('/api/v1/service/apps/pabx/queues/?search=suporte&limit=1')
    expect(lookup.json()).toMatchObject({ count: 1, results: [{ description: 'Suporte' }] })
  })
})

describe('kept row counts (list_counts)', () => {
  it('have the four triggers on every generated entity table', async () => {
    const triggers = await rows<{ table: string; n: string }>(
      db(),
      sql`SELECT c.relname AS table, count(*) AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE 'list_counts_%' GROUP BY c.relname`,
    )
    const byTable = Object.fromEntries(triggers.map((t) => [t.table, Number(t.n)]))
    expect(countedTables().length).toBeGreaterThan(40)
    // A new entity's migration must append listCountsSql([...its tables]) (server/db/entity-schema/list-counts.ts).
    for (const table of countedTables()) expect(byTable[table], table).toBe(4)
  })

  it('follow inserts, deletes, moves between sites and truncation, and answer the unfiltered count', async () => {
    await check()
    const created = await s.admin.create('service.blacklists', { values: { description: 'Nova', phones: '5511988887777', direction: 'both' }, files: {} })
    expect(created.statusCode, created.body).toBe(201)
    await check()
    expect((await s.admin.client.delete(`${API}${created.json().id}/`)).statusCode).toBe(204)
    await check()
    await db().execute(sql`DELETE FROM service_blacklists WHERE site_id = ${siteA.id} AND description LIKE 'Lista 5%'`)
    await check()
    await db().execute(sql`UPDATE service_blacklists SET site_id = ${siteB.id} WHERE site_id = ${siteA.id} AND description LIKE 'Lista 4%'`)
    await db().execute(sql`UPDATE service_blacklists SET is_active = NOT is_active WHERE site_id = ${siteA.id}`)
    await check()
    expect((await get(`${API}?limit=1&is_active=true`)).count).toBe((await stored(siteA)).filter((r) => r.is_active).length)
    // A rolled-back insert leaves the count as it was.
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO service_blacklists (site_id, description) SELECT ${siteA.id}, 'x' || g FROM generate_series(1, 5) g`)
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    await check()
    await db().execute(sql`TRUNCATE service_blacklists`)
    expect(await counted(siteA)).toEqual({ n: 0, rows: 0 })
    await db().execute(sql`INSERT INTO service_blacklists (site_id, description) SELECT ${siteA.id}, 'y' || g FROM generate_series(1, 12) g`)
    await check()
    expect((await get(`${API}?limit=5&offset=5`)).count).toBe(12)
  })

  it('are folded into one row by a read once many statements have added theirs, still exact', async () => {
    const before = await realCount(siteA)
    await db().transaction(async (tx) => {
      for (let i = 0; i < 80; i++) await tx.execute(sql`INSERT INTO service_blacklists (site_id, description) VALUES (${siteA.id}, ${`z${i}`})`)
      await tx.execute(sql`DELETE FROM service_blacklists WHERE site_id = ${siteA.id} AND description = 'z0'`)
    })
    expect(await counted(siteA)).toEqual({ n: before + 79, rows: expect.any(Number) })
    expect((await counted(siteA)).rows).toBeGreaterThan(64)
    expect((await get(`${API}?limit=1`)).count).toBe(before + 79)
    expect(await counted(siteA)).toEqual({ n: before + 79, rows: 1 })
    expect((await get(`${API}?limit=1`)).count).toBe(before + 79)
    await check()
  })
})

describe('the list_counts migration', () => {
  it('counts the rows a database already had, per site and table', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-counts-'))
    try {
      // The migrations folder as it was before list_counts.
      const before = path.join(dir, 'migrations')
      await cp(MIGRATIONS_DIR, before, { recursive: true })
      const journal = JSON.parse(await readFile(path.join(before, 'meta', '_journal.json'), 'utf8'))
      const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith('_list_counts'))
      expect(at).toBeGreaterThan(0)
      journal.entries = journal.entries.slice(0, at)
      await writeFile(path.join(before, 'meta', '_journal.json'), JSON.stringify(journal))
      const pgdata = path.join(dir, 'pgdata')
      const old = new PGlite(pgdata, { extensions: { pg_trgm } })
      await migrate(drizzle(old), { migrationsFolder: before })
      await old.exec(`
        INSERT INTO sites (domain, name) VALUES ('a.example', 'A'), ('b.example', 'B');
        INSERT INTO service_blacklists (site_id, description) SELECT 1 + (g % 2), 'x' || g FROM generate_series(1, 7) g;
        INSERT INTO crm_tags (site_id, description) VALUES (2, 'tag');
      `)
      await old.close()
      const upgraded = await openDatabase({ pgliteDir: pgdata })
      try {
        const counts = await rows<{ table_name: string; site_id: number; n: string }>(
          upgraded.db,
          sql`SELECT table_name, site_id, n FROM list_counts ORDER BY 1, 2`,
        )
        expect(counts.map((c) => [c.table_name, c.site_id, Number(c.n)])).toEqual([
          ['crm_tags', 2, 1],
          ['service_blacklists', 1, 3],
          ['service_blacklists', 2, 4],
        ])
      } finally {
        await upgraded.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
