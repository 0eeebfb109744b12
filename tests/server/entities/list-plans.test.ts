import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { insertBlocklistRows } from '../../../bench/list-rows.ts'
import { listIdIndexes } from '../../../server/db/entity-schema/list-id-index.ts'
import type { SiteRow } from '../../../server/db/schema/index.ts'
import type { EntityContext } from '../../../server/entities/context.ts'
import { listPage, parseListQuery } from '../../../server/entities/list-query.ts'
import { selectRecords } from '../../../server/entities/serialize.ts'
import { tablesOf } from '../../../server/entities/tables.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { useEntitySuite } from './entity-helper.ts'

// Deep pages and searches over a table of realistic size (issue 11): the plans the database chooses on its own (no
// planner settings), on PostgreSQL when TEST_DATABASE_URL is set and on PGlite otherwise. A page far down reads its
// ids from an index (no sequential scan, no sort of the site's rows); a search of several words reads the trigram
// index for its rare word, never the posting lists of the trigrams every row shares.
const s = useEntitySuite()
const API = '/api/v1/service/blacklists/'
const ROWS = 60_000
const KEY = 'service.blacklists'

type Plan = { 'Node Type': string; 'Plan Rows': number; 'Index Name'?: string; 'Index Cond'?: string; Plans?: Plan[] }
let site: SiteRow
const db = () => s.t.database.db

/** The ids (or one count) a plain SQL query answers. */
const rows = async (query: ReturnType<typeof sql>) =>
  ((await db().execute(query)) as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id))

/** Every node of a plan, depth first. */
const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)]

/** The plan of the list page the API would read for this query string. */
async function explain(query: Record<string, string>): Promise<Plan[]> {
  const ctx = { db: db(), site, userId: null, lang: 'pt-BR', mediaDir: '' } satisfies EntityContext
  const tables = tablesOf(KEY)
  const list = parseListQuery(ctx, KEY, query)
  const page = listPage(ctx, tables, list)
  const select = selectRecords(ctx, tables, page.from)
    .where(page.where)
    .orderBy(...list.order)
    .limit(page.limit)
    .offset(page.offset)
  const result = (await db().execute(sql`EXPLAIN (FORMAT JSON) ${select.getSQL()}`)) as unknown as { rows: Record<string, unknown>[] }
  const raw = Object.values(result.rows[0]!)[0]
  const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Plan }[]
  return nodes(json[0]!.Plan)
}

/** No sequential scan, and nothing sorted but a page's worth of rows. */
function cheap(plan: Plan[], limit: number) {
  expect(plan.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([])
  for (const sort of plan.filter((n) => n['Node Type'] === 'Sort')) expect(sort['Plan Rows']).toBeLessThanOrEqual(limit)
}

const get = async (path: string) => {
  const response = await s.admin.client.get(path)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { count: number; results: { id: number; description: string }[] }
}

beforeAll(async () => {
  site = (await resolveSite(db(), 'localhost'))!
  await insertBlocklistRows(db(), site.id, ROWS)
}, 120_000)

describe('the id index', () => {
  it('exists on every generated table whose default order is not id, the site an included column', async () => {
    const indexes = (
      (await db().execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`)) as unknown as {
        rows: { indexname: string; indexdef: string }[]
      }
    ).rows
    expect(listIdIndexes().length).toBeGreaterThan(40)
    // A new entity's migration must append listIdIndexSql([...its tables]) (server/db/entity-schema/list-id-index.ts).
    for (const { name } of listIdIndexes()) {
      expect(indexes.find((i) => i.indexname === name)?.indexdef, name).toMatch(/USING btree \(id\) INCLUDE \(site_id\)$/)
    }
  })
})

describe(`a settings list of ${ROWS.toLocaleString('en')} rows`, () => {
  it('reads page 5,000 ordered by id from the (site_id, id) index alone, then ten rows by id', async () => {
    const plan = await explain({ limit: '10', offset: '50000', ordering: 'id' })
    cheap(plan, 10)
    expect(plan.map((n) => n['Index Name'])).toContain('service_blacklists_list_id_idx')
    expect(plan.find((n) => n['Index Name'] === 'service_blacklists_list_id_idx')!['Node Type']).toBe('Index Only Scan')
    const { results, count } = await get(`${API}?limit=10&offset=50000&ordering=id`)
    expect(count).toBe(Number((await rows(sql`SELECT count(*) AS id FROM service_blacklists WHERE site_id = ${site.id}`))[0]))
    expect(results.map((r) => r.id)).toEqual(await rows(sql`SELECT id FROM service_blacklists WHERE site_id = ${site.id} ORDER BY id LIMIT 10 OFFSET 50000`))
  })

  it('reads page 5,000 in the default order (-is_active, id) from the list order index alone', async () => {
    const plan = await explain({ limit: '10', offset: '50000' })
    cheap(plan, 10)
    expect(plan.find((n) => n['Index Name'] === 'service_blacklists_list_order_idx')?.['Node Type']).toBe('Index Only Scan')
    const page = await get(`${API}?limit=10&offset=50000`)
    expect(page.results.map((r) => r.id)).toEqual(
      await rows(sql`SELECT id FROM service_blacklists WHERE site_id = ${site.id} ORDER BY is_active DESC, id LIMIT 10 OFFSET 50000`),
    )
  })

  it('answers a search of a common and a rare word from the rare word’s trigrams', async () => {
    const plan = await explain({ limit: '10', search: 'Bloqueio 42424' })
    cheap(plan, 10)
    const conditions = plan.flatMap((n) => (n['Index Cond'] ? [`${n['Index Name']}: ${n['Index Cond']}`] : []))
    expect(conditions.some((c) => c.startsWith('service_blacklists_description_trgm_idx') && c.includes('%42424%'))).toBe(true)
    expect(conditions.filter((c) => /bloqueio/i.test(c))).toEqual([])
    // The term as typed still decides: "Bloqueio 42424" and "Bloqueio 42424x" (x a digit), not "Bloqueio 142424".
    const { count, results } = await get(`${API}?limit=100&search=Bloqueio%2042424`)
    expect(results.map((r) => r.description)).toEqual(
      ['Bloqueio 42424', ...Array.from({ length: 10 }, (_, i) => `Bloqueio 42424${i}`)].filter((d) => Number(d.slice(9)) <= ROWS),
    )
    expect(count).toBe(results.length)
  })

  it('counts a search of many matches the same way, word by word from the index', async () => {
    const plan = await explain({ limit: '10', search: 'Bloqueio 4242' })
    cheap(plan, 10)
    const expected = Array.from({ length: ROWS }, (_, i) => `Bloqueio ${i + 1}`).filter((d) => d.includes('Bloqueio 4242')).length
    const page = await get(`${API}?limit=3&offset=3&search=Bloqueio%204242`)
    expect(page.count).toBe(expected)
    expect(page.results.map((r) => r.description)).toEqual(['Bloqueio 42422', 'Bloqueio 42423', 'Bloqueio 42424'])
  })
})
