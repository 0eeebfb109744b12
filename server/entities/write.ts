import { and, eq, sql } from 'drizzle-orm'
import type { Field } from '../../contract/entities/index.ts'
import type { ChildPlan, FieldPlan, JoinPlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import { bindTable } from './tables.ts'
import type { BoundTable, EntityTables } from './tables.ts'

// Parsed values → rows. A write replaces the whole record (PUT semantics, see README): every column of the plan is
// set from the values (absent means empty or the field's default), m2m links and datatable rows are replaced, and
// only secrets and files the caller did not send are left as they were (`secrets`/`files` omit them).

type Values = Record<string, unknown>

export type WriteSet = {
  main: Values
  json: Record<string, Values>
  side: Values
  joins: { join: JoinPlan; ids: number[] }[]
  rows: { child: ChildPlan; rows: Values[] }[]
}

/** Values already in column form, keyed by SQL column: secret columns (hash/HA1 computed) and stored file names. */
export type Prepared = { secrets: Record<string, unknown>; files: Record<string, string | null> }

const ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i

/** A date-time without a zone is read as UTC (see README); a bare date is its midnight. */
export function toDate(value: string): Date {
  const text = value.trim().replace(' ', 'T')
  return new Date(text.length === 10 ? `${text}T00:00:00Z` : ZONE.test(text) ? text : `${text}Z`)
}

/** One value as its column stores it. */
export function columnValue(field: Field, value: unknown): unknown {
  const fallback = field.default
  switch (field.storage) {
    case 'int':
    case 'numeric':
      return value ?? (typeof fallback === 'number' ? fallback : null)
    case 'bool':
      return value ?? fallback === true
    case 'jsonb':
      return value ?? (field.kind === 'hidden' ? {} : Array.isArray(fallback) ? fallback : [])
    case 'timestamptz':
      return typeof value === 'string' && value !== '' ? toDate(value) : null
    case 'fk':
      return value ?? null
    default:
      return value ?? (typeof fallback === 'string' ? fallback : '')
  }
}

function appColumns(value: unknown): [string, string] {
  if (!value || typeof value !== 'object') return ['', '']
  const { app, appdata } = value as { app: string; appdata: unknown }
  return [app, appdata === null || appdata === undefined ? '' : String(appdata)]
}

function rowValues(table: BoundTable, fields: readonly FieldPlan[], values: Values): Values {
  const out: Values = {}
  for (const plan of fields) {
    const value = values[plan.field.name]
    if (plan.kind === 'value') out[table.key(plan.slot.column)] = columnValue(plan.field, value)
    if (plan.kind === 'app') [out[table.key(plan.app)], out[table.key(plan.appdata)]] = appColumns(value)
  }
  return out
}

export function buildWriteSet(tables: EntityTables, values: Values, prepared: Prepared): WriteSet {
  const { plan, main, side } = tables
  const set: WriteSet = { main: {}, json: {}, side: {}, joins: [], rows: [] }
  for (const field of plan.fields) {
    const value = values[field.field.name]
    switch (field.kind) {
      case 'value': {
        const { column, key } = field.slot
        if (key) (set.json[column] ??= {})[key] = value === '' || value === undefined ? null : value
        else if (field.slot.side) set.side[side!.key(column)] = columnValue(field.field, value)
        else set.main[main.key(column)] = columnValue(field.field, value)
        break
      }
      case 'app':
        ;[set.main[main.key(field.app)], set.main[main.key(field.appdata)]] = appColumns(value)
        break
      case 'm2m':
        set.joins.push({ join: field.join, ids: [...new Set((value as number[] | null | undefined) ?? [])] })
        break
      case 'rows': {
        const child = bindTable(field.child.table)
        const rows = ((value as Values[] | null | undefined) ?? []).map((row) => rowValues(child, field.child.fields, row))
        set.rows.push({ child: field.child, rows })
        break
      }
      case 'file': {
        if (!(field.field.name in prepared.files)) break
        const stored = prepared.files[field.field.name] ?? null
        const { column, key } = field.slot
        if (key) (set.json[column] ??= {})[key] = stored
        else set.main[main.key(column)] = stored
        break
      }
      case 'secret':
        for (const [column, stored] of Object.entries(prepared.secrets)) {
          if (column === field.slot.column || column === field.ha1) set.main[main.key(column)] = stored
        }
        break
    }
  }
  return set
}

async function replaceLists(ctx: EntityContext, id: number, set: WriteSet, fresh: boolean): Promise<void> {
  const siteId = ctx.site.id
  for (const { join, ids } of set.joins) {
    const table = bindTable(join.table)
    if (!fresh) await ctx.db.delete(table.table).where(and(eq(table.col('site_id'), siteId), eq(table.col(join.owner), id)))
    if (ids.length === 0) continue
    const rows = ids.map((target) => ({ [table.key(join.owner)]: id, [table.key(join.target)]: target, [table.key('site_id')]: siteId }))
    await ctx.db.insert(table.table).values(rows)
  }
  for (const { child, rows } of set.rows) {
    const table = bindTable(child.table)
    if (!fresh) await ctx.db.delete(table.table).where(and(eq(table.col('site_id'), siteId), eq(table.col(child.parent), id)))
    if (rows.length === 0) continue
    const values = rows.map((row, position) => ({ ...row, [table.key('site_id')]: siteId, [table.key(child.parent)]: id, [table.key('position')]: position }))
    await ctx.db.insert(table.table).values(values)
  }
}

async function writeSide(ctx: EntityContext, tables: EntityTables, id: number, set: WriteSet): Promise<void> {
  const { side, plan } = tables
  if (!side || !plan.side || Object.keys(set.side).length === 0) return
  const owner = side.key(plan.side.owner)
  await ctx.db
    .insert(side.table)
    .values({ ...set.side, [owner]: id, [side.key('site_id')]: ctx.site.id })
    .onConflictDoUpdate({ target: side.col(plan.side.owner), set: set.side })
}

export async function insertRecord(ctx: EntityContext, tables: EntityTables, set: WriteSet): Promise<number> {
  const { main, plan } = tables
  const values: Values = { ...set.main }
  for (const [column, doc] of Object.entries(set.json)) values[main.key(column)] = doc
  if (plan.scope === 'site_id') values[main.key('site_id')] = ctx.site.id
  const [row] = (await ctx.db
    .insert(main.table)
    .values(values)
    .returning({ id: main.col('id') })) as { id: number }[]
  await writeSide(ctx, tables, row!.id, set)
  await replaceLists(ctx, row!.id, set, true)
  return row!.id
}

export async function updateRecord(ctx: EntityContext, tables: EntityTables, id: number, set: WriteSet): Promise<void> {
  const { main, plan } = tables
  const values: Values = { ...set.main, [main.key(plan.updated)]: new Date() }
  // Keys of a settings document the entity does not own (e.g. a site's brand colours) are kept.
  for (const [column, doc] of Object.entries(set.json))
    values[main.key(column)] = sql`coalesce(${main.col(column)}, '{}'::jsonb) || ${JSON.stringify(doc)}::jsonb`
  await ctx.db
    .update(main.table)
    .set(values)
    .where(and(eq(main.col('id'), id), eq(main.col(plan.scope), ctx.site.id)))
  await writeSide(ctx, tables, id, set)
  await replaceLists(ctx, id, set, false)
}

const CHUNK = 500

/** Many new records in few statements (CSV imports): main rows in chunks, then each one's own lists. */
export async function insertMany(ctx: EntityContext, tables: EntityTables, sets: readonly WriteSet[]): Promise<number[]> {
  const { main, plan } = tables
  const ids: number[] = []
  for (let start = 0; start < sets.length; start += CHUNK) {
    const values = sets.slice(start, start + CHUNK).map((set) => {
      const row: Values = { ...set.main }
      for (const [column, doc] of Object.entries(set.json)) row[main.key(column)] = doc
      if (plan.scope === 'site_id') row[main.key('site_id')] = ctx.site.id
      return row
    })
    const inserted = (await ctx.db
      .insert(main.table)
      .values(values)
      .returning({ id: main.col('id') })) as { id: number }[]
    ids.push(...inserted.map((r) => r.id))
  }
  for (const [i, set] of sets.entries()) {
    await writeSide(ctx, tables, ids[i]!, set)
    if (set.joins.some((j) => j.ids.length) || set.rows.some((r) => r.rows.length)) await replaceLists(ctx, ids[i]!, set, true)
  }
  return ids
}
