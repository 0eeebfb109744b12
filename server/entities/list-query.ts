import { and, asc, count, desc, eq, gte, ilike, inArray, lte, notInArray, or, sql } from 'drizzle-orm'
import type { SQL, Subquery } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { MAX_INT, UNPAGED_LIMIT } from '../../contract/constants.ts'
import type { EntityKey } from '../../contract/entities/index.ts'
import { entityMessage } from '../../contract/entities/index.ts'
import type { FieldPlan } from '../db/entity-schema/plan.ts'
import { listCounts } from '../db/schema/list-counts.ts'
import { fieldErrors } from '../http/errors.ts'
import type { EntityContext } from './context.ts'
import { bindTable, tablesOf } from './tables.ts'
import type { EntityTables } from './tables.ts'
import type { FieldErrors } from './types.ts'
import { toDate } from './write.ts'

// The DRF list conventions (spec 000 §7 "Generic list"): `offset`, `limit` (99999 means every row, up to
// MAX_LIMIT), `ordering` (comma-joined, '-' for descending, unknown names ignored as DRF does), `search` (ILIKE over
// the entity's searchable fields) and filters named after fields:
//   <field>=v, <field>__in=a,b          scalars (exact; booleans true/false) and references (also <field>_id)
//   <field>=id, <singular>_id=id        m2m rows linked to the id (queues ?team_id=, classifications ?queue_id=)
//   <field>_app=, <field>_appdata=      destinations
//   <field>__gte=, <field>__lte=        dates and numbers
//   id=, id__in=, exclude_id=a,b        the rows themselves
// A child entity is listed under its parent with the parent field (?outbound_route=7). Unknown parameters are
// ignored; a known one with a malformed value answers a 400 field error.

export const MAX_LIMIT = 10_000
const RESERVED = new Set(['offset', 'limit', 'ordering', 'search'])

/**
 * `where` starts with the site scope and holds every condition (the search's too); `unfiltered` when nothing else
 * narrows it, `search` when `search` does: `search.exact` is its condition in `where`, `search.words` the looser one
 * the rows are first matched by (listSource).
 */
export type ListQuery = {
  offset: number
  limit: number
  where: SQL[]
  order: SQL[]
  search: Search | undefined
  searching: boolean
  unfiltered: boolean
}
/** `exact`: the term in one field (today's meaning); `words`: each word in some field, which `exact` implies. */
type Search = { exact: SQL; words: SQL }
type Query = Record<string, unknown>

type Ctx = { errors: FieldErrors; lang: string }

function text(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[value.length - 1] : value
  return typeof first === 'string' ? first : undefined
}

function bad(ctx: Ctx, name: string): undefined {
  ctx.errors[name] = [entityMessage('invalidValue', ctx.lang)]
  return undefined
}

function integer(ctx: Ctx, name: string, value: string, min = 0): number | undefined {
  const n = Number(value)
  return /^\d+$/.test(value.trim()) && Number.isSafeInteger(n) && n >= min && n <= MAX_INT ? n : bad(ctx, name)
}

function ids(ctx: Ctx, name: string, value: string): number[] | undefined {
  const parts = value.split(',').filter((p) => p.trim() !== '')
  const out = parts.map((p) => integer(ctx, name, p, 1))
  return out.every((n) => n !== undefined) ? (out as number[]) : undefined
}

/** A filter value in its column's type. */
function typed(ctx: Ctx, name: string, plan: FieldPlan, value: string): unknown {
  const { field } = plan
  if (field.relation) return integer(ctx, name, value, 1)
  switch (field.storage) {
    case 'bool':
      return ['true', '1'].includes(value) ? true : ['false', '0'].includes(value) ? false : bad(ctx, name)
    case 'int': {
      // The column's range: a value beyond it is no row's, and PostgreSQL would refuse to compare with it.
      const n = Number(value)
      return /^\s*-?\d+\s*$/.test(value) && Number.isInteger(n) && n >= -MAX_INT - 1 && n <= MAX_INT ? n : bad(ctx, name)
    }
    case 'numeric': {
      const n = Number(value.replace(',', '.'))
      return value.trim() !== '' && Number.isFinite(n) ? n : bad(ctx, name)
    }
    case 'timestamptz': {
      const date = toDate(value)
      return Number.isNaN(date.getTime()) ? bad(ctx, name) : date
    }
    default:
      return value
  }
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name
}

function fieldFilters(ctx: Ctx, tables: EntityTables, query: Query): SQL[] {
  const { plan, main } = tables
  const where: SQL[] = []
  for (const fp of plan.fields) {
    const name = fp.field.name
    if (fp.kind === 'value' && !fp.slot.key && !fp.slot.side) {
      const column = main.col(fp.slot.column)
      const names = fp.field.relation ? [name, `${name}_id`] : [name]
      for (const key of names) {
        const exact = text(query[key])
        const list = text(query[`${key}__in`])
        if (exact !== undefined) {
          const value = typed(ctx, key, fp, exact)
          if (value === undefined) continue
          where.push(fp.field.storage === 'jsonb' ? sql`${column} @> ${JSON.stringify([value])}::jsonb` : eq(column, value))
        }
        if (list !== undefined) {
          const values = list.split(',').map((v) => typed(ctx, `${key}__in`, fp, v.trim()))
          if (values.every((v) => v !== undefined) && values.length) where.push(inArray(column, values))
        }
      }
      for (const [suffix, op] of [
        ['__gte', gte],
        ['__lte', lte],
      ] as const) {
        const bound = text(query[name + suffix])
        if (bound === undefined || !['timestamptz', 'int', 'numeric'].includes(fp.field.storage)) continue
        const value = typed(ctx, name + suffix, fp, bound)
        if (value !== undefined) where.push(op(column, value))
      }
    }
    if (fp.kind === 'm2m') {
      const join = bindTable(fp.join.table)
      for (const key of [name, `${singular(name)}_id`, `${name}__in`, `${singular(name)}_id__in`]) {
        const value = text(query[key])
        const targets = value === undefined ? undefined : ids(ctx, key, value)
        if (!targets?.length) continue
        where.push(inArray(main.col('id'), sqlSelectOwners(join, fp.join.owner, fp.join.target, targets)))
      }
    }
    if (fp.kind === 'app') {
      const app = text(query[`${name}_app`])
      const appdata = text(query[`${name}_appdata`])
      if (app !== undefined) where.push(eq(main.col(fp.app), app))
      if (appdata !== undefined) where.push(eq(main.col(fp.appdata), appdata))
    }
  }
  return where
}

function sqlSelectOwners(join: ReturnType<typeof bindTable>, owner: string, target: string, targets: number[]): SQL {
  return sql`(select ${join.col(owner)} from ${join.table} where ${inArray(join.col(target), targets)})`
}

function idFilters(ctx: Ctx, tables: EntityTables, query: Query): SQL[] {
  const id = tables.main.col('id')
  const where: SQL[] = []
  const exact = text(query.id)
  const list = text(query.id__in)
  const exclude = text(query.exclude_id)
  if (exact !== undefined) {
    const n = integer(ctx, 'id', exact, 1)
    if (n !== undefined) where.push(eq(id, n))
  }
  if (list !== undefined) {
    const values = ids(ctx, 'id__in', list)
    if (values?.length) where.push(inArray(id, values))
  }
  if (exclude !== undefined) {
    const values = ids(ctx, 'exclude_id', exclude)
    if (values?.length) where.push(notInArray(id, values))
  }
  return where
}

/** Columns the list may be ordered by: id, the timestamps, and every field stored in a column of its own table. */
function orderable(tables: EntityTables): Map<string, SQL | ReturnType<EntityTables['main']['col']>> {
  const { plan, main } = tables
  const columns = new Map<string, ReturnType<EntityTables['main']['col']>>([
    ['id', main.col('id')],
    ['created_at', main.col(plan.created)],
    ['updated_at', main.col(plan.updated)],
  ])
  for (const fp of plan.fields) {
    if (fp.kind === 'value' && !fp.slot.key && !fp.slot.side && fp.field.storage !== 'jsonb') columns.set(fp.field.name, main.col(fp.slot.column))
    if (fp.kind === 'app') columns.set(fp.field.name, main.col(fp.app))
  }
  return columns
}

function ordering(tables: EntityTables, requested: string | undefined): SQL[] {
  const columns = orderable(tables)
  const terms = (requested ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
  const wanted = terms.some((t) => columns.has(t.replace(/^-/, ''))) ? terms : [...tables.plan.entity.list.ordering]
  const order: SQL[] = []
  const used = new Set<string>()
  for (const term of wanted) {
    const name = term.replace(/^-/, '')
    const column = columns.get(name)
    if (!column || used.has(name)) continue
    used.add(name)
    order.push(term.startsWith('-') ? desc(column) : asc(column))
  }
  // A stable order, so pages neither repeat nor skip rows.
  if (!used.has('id')) order.push(asc(tables.main.col('id')))
  return order
}

/** A word pg_trgm can index: three letters or digits in a row give it a trigram of its own. */
const INDEXABLE_WORD = /[\p{L}\p{N}]{3}/u
/** Words past this many add little to the match and cost the planner an index scan each. */
const MAX_WORDS = 8

type Column = ReturnType<EntityTables['main']['col']>

function contains(columns: readonly Column[], term: string): SQL {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return or(...columns.map((c) => ilike(c, pattern)))!
}

/**
 * `search`: the term, as typed, inside one of the searchable fields (ILIKE '%term%', OR'ed over the fields). A term
 * of several words is also matched word by word (each word in some field), a condition the exact one implies, so
 * the answer is the same; but the planner can then read the trigram index for the rare word alone ("424242" in
 * "Bloqueio 424242") instead of merging the posting lists of trigrams every row shares ("blo", "que", …).
 */
function searchCondition(ctx: EntityContext, key: EntityKey, tables: EntityTables, search: string | undefined): Search | undefined {
  const term = search?.trim()
  if (!term) return undefined
  const { plan, main } = tables
  const keyed = searchKeys.get(key)?.(ctx, term)
  const columns = plan.fields
    .filter((fp) => plan.entity.list.search.includes(fp.field.name) && !keyed?.skip.includes(fp.field.name))
    .flatMap((fp) => (fp.kind === 'value' && !fp.slot.key && !fp.slot.side && fp.field.storage === 'text' ? [main.col(fp.slot.column)] : []))
  const also = (condition: SQL) => (keyed ? or(condition, keyed.match)! : condition)
  if (!columns.length) return keyed ? { exact: keyed.match, words: keyed.match } : { exact: sql`false`, words: sql`false` }
  const exact = also(contains(columns, term))
  const words = [...new Set(term.split(/\s+/).filter((w) => INDEXABLE_WORD.test(w)))].sort((a, b) => b.length - a.length).slice(0, MAX_WORDS)
  if (words.length === 0 || (words.length === 1 && words[0] === term)) return { exact, words: exact }
  return { exact, words: also(and(...words.map((w) => contains(columns, w)))!) }
}

/**
 * An entity's own keys for a search term (crm.clients: a typed phone or document read as its lookup key, so
 * '(11) 90042-4242' finds '+5511900424242' through one index probe): `match` is OR'ed with the searchable fields'
 * ILIKE, and the fields in `skip` are not searched by ILIKE for that term (the key answers them better).
 */
export type SearchKeys = (ctx: EntityContext, term: string) => { match: SQL; skip: readonly string[] } | undefined

const searchKeys = new Map<EntityKey, SearchKeys>()

export function registerSearchKeys(key: EntityKey, keys: SearchKeys): void {
  searchKeys.set(key, keys)
}

export type ExtraFilter = (ctx: EntityContext, value: string, errors: FieldErrors) => SQL | undefined

export function parseListQuery(ctx: EntityContext, key: EntityKey, query: Query, extra: Record<string, ExtraFilter> = {}): ListQuery {
  const tables = tablesOf(key)
  const c: Ctx = { errors: {}, lang: ctx.lang }
  const offsetText = text(query.offset)
  const limitText = text(query.limit)
  const offset = offsetText === undefined || offsetText === '' ? 0 : (integer(c, 'offset', offsetText) ?? 0)
  const requested = limitText === undefined || limitText === '' ? UNPAGED_LIMIT : (integer(c, 'limit', limitText, 1) ?? 1)
  const where = [eq(tables.main.col(tables.plan.scope), ctx.site.id), ...idFilters(c, tables, query), ...fieldFilters(c, tables, query)]
  for (const [name, filter] of Object.entries(extra)) {
    const value = text(query[name])
    if (value === undefined || RESERVED.has(name)) continue
    const condition = filter(ctx, value, c.errors)
    if (condition) where.push(condition)
  }
  const search = searchCondition(ctx, key, tables, text(query.search))
  if (search) where.push(search.exact)
  if (Object.keys(c.errors).length) throw fieldErrors(c.errors)
  const order = ordering(tables, text(query.ordering))
  const limit = Math.min(requested, MAX_LIMIT)
  return { offset, limit, where, order, search, searching: search !== undefined, unfiltered: where.length === 1 }
}

/**
 * Where a list's rows are read from. A search's rows are matched first (the trigram indexes, word by word) and only
 * then held to the exact term and sorted: the subquery's `offset 0` keeps the planner from merging it into the
 * ordered query, where it may walk the list's order index hoping to meet enough matches early (`ILIKE '%term%'`
 * estimates are coarse, and a rare term would then read every row of the site), and from reading the exact term's
 * common trigrams from the index. The subquery takes the table's own name, so the columns and the order still resolve.
 */
export function listSource(ctx: EntityContext, tables: EntityTables, list: ListQuery): { from: PgTable | Subquery; where: SQL | undefined } {
  const where = and(...list.where)
  if (!list.search) return { from: tables.main.table, where }
  const matched = and(...list.where.filter((w) => w !== list.search!.exact), list.search.words)
  // Drizzle drops `.offset(0)`; the literal keeps it (its type admits numbers and placeholders only).
  const fence = sql`0` as unknown as number
  const from = ctx.db.select().from(tables.main.table).where(matched).offset(fence).as(tables.plan.table)
  return { from, where: list.search.words === list.search.exact ? undefined : list.search.exact }
}

/**
 * A page of the list: where to read it from and the `limit`/`offset` to apply. Past the first page the page's ids are
 * read first, in order, past the offset (`site_id, is_active desc, id` or `site_id, id` answer that from the index
 * alone: the rows skipped are index entries, not table rows), then the rows with those ids, sorted again (a page's
 * worth). The same rows in the same order as one query with OFFSET, which would fetch every row it skips.
 */
export function listPage(
  ctx: EntityContext,
  tables: EntityTables,
  list: ListQuery,
): { from: PgTable | Subquery; where: SQL | undefined; limit: number; offset: number } {
  const source = listSource(ctx, tables, list)
  if (list.offset === 0) return { ...source, limit: list.limit, offset: 0 }
  const id = tables.main.col('id')
  const ids = ctx.db
    .select({ id })
    .from(source.from as PgTable)
    .where(source.where)
    .orderBy(...list.order)
    .limit(list.limit)
    .offset(list.offset)
  return { from: tables.main.table, where: sql`${id} = ANY(ARRAY${ids})`, limit: list.limit, offset: 0 }
}

/**
 * The exact number of rows the list matches, given the page just read (`got` rows). A short page already says it
 * (the rows before it plus its own; a search usually ends there). Otherwise an unfiltered list of a generated table
 * reads the site's row count that triggers keep (list_counts), and any other list counts: count(*) with the same
 * conditions, which neither sorts nor reads the columns. (`count(*) over ()` in the page query measured slower on big
 * tables: it reads every matching row before the limit applies.)
 */
export async function listCount(ctx: EntityContext, tables: EntityTables, list: ListQuery, got: number): Promise<number> {
  if (got < list.limit && (got > 0 || list.offset === 0)) return list.offset + got
  if (list.unfiltered && !tables.plan.bridged && tables.plan.scope === 'site_id') return keptCount(ctx, tables.plan.table)
  // A search counts the rows it matches the way it reads them (listSource): word by word from the index first.
  const source = listSource(ctx, tables, list)
  const [total] = await ctx.db
    .select({ n: count() })
    .from(source.from as PgTable)
    .where(source.where)
  return Number(total?.n ?? 0)
}

/** Rows of one key in list_counts past which a read folds them into one. */
const FOLD_AFTER = 64

/**
 * A site's rows in a generated table: the sum of its list_counts rows (one per write statement since the last fold).
 * Many rows are folded into one by a single statement: it deletes the rows its snapshot sees and inserts their sum,
 * so a row a concurrent writer appends meanwhile stays, and a concurrent fold re-adds only what it deleted itself.
 */
async function keptCount(ctx: EntityContext, table: string): Promise<number> {
  const key = and(eq(listCounts.tableName, table), eq(listCounts.siteId, ctx.site.id))
  const [kept] = await ctx.db
    .select({ n: sql<string | null>`sum(${listCounts.n})`, rows: count() })
    .from(listCounts)
    .where(key)
  if ((kept?.rows ?? 0) > FOLD_AFTER) {
    await ctx.db.execute(sql`WITH folded AS (DELETE FROM ${listCounts} WHERE ${key} RETURNING n)
      INSERT INTO ${listCounts} (table_name, site_id, n) SELECT ${table}, ${ctx.site.id}, sum(n) FROM folded HAVING count(*) > 0`)
  }
  return Number(kept?.n ?? 0)
}
