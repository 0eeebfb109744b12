import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Subquery } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { AppFamily, EntityKey, Field } from '../../contract/entities/index.ts'
import { destinationApp } from '../../contract/entities/index.ts'
import type { ChildPlan, FieldPlan, TablePlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import { mediaUrl } from './media-store.ts'
import { bindTable, tablesOf } from './tables.ts'
import type { EntityTables } from './tables.ts'
import { Titles } from './titles.ts'

// Rows → API records, the one shape every settings answer has (documented in server/entities/README.md):
// scalars as stored (dates ISO 8601, decimals as numbers); a reference as its id plus `<field>_description`, the
// referenced row's title; m2m as a list of ids plus a list of titles; a destination as {app, appdata} plus a
// description; a datatable as a list of row objects in order; files as their URL; secrets never (the audit log shows
// "[redacted]" when one is set). created_at and updated_at close every record.

export type RawRow = Record<string, unknown>
export type ApiRecord = Record<string, unknown>

export const REDACTED = '[redacted]'
const SIDE = 'side:'

/** The columns a record is built from, keyed by SQL name (side-table columns prefixed). */
export function selection(tables: EntityTables): Record<string, AnyPgColumn> {
  const { plan, main, side } = tables
  const columns: Record<string, AnyPgColumn> = {
    id: main.col('id'),
    [plan.created]: main.col(plan.created),
    [plan.updated]: main.col(plan.updated),
  }
  for (const field of plan.fields) {
    if (field.kind === 'app') {
      columns[field.app] = main.col(field.app)
      columns[field.appdata] = main.col(field.appdata)
    } else if (field.kind === 'value' || field.kind === 'file' || field.kind === 'secret') {
      if (field.slot.side) columns[SIDE + field.slot.column] = side!.col(field.slot.column)
      else columns[field.slot.column] = main.col(field.slot.column)
    }
  }
  return columns
}

/**
 * The select of whole records: the main table, joined to its side table when it has one. `from` replaces the main
 * table with a subquery aliased by the table's own name (a list's search), so the columns still resolve.
 */
export function selectRecords(ctx: EntityContext, tables: EntityTables, from: PgTable | Subquery = tables.main.table) {
  const query = ctx.db.select(selection(tables)).from(from as PgTable)
  const { side, plan } = tables
  return side ? query.leftJoin(side.table, eq(side.col(plan.side!.owner), tables.main.col('id'))) : query
}

export function slotValue(field: FieldPlan & { slot: { column: string; key?: string; side?: boolean } }, raw: RawRow): unknown {
  const { column, key, side } = field.slot
  if (key) return (raw[column] as Record<string, unknown> | null)?.[key] ?? null
  return raw[side ? SIDE + column : column]
}

function scalar(field: Field, value: unknown): unknown {
  if (value === undefined || value === null) return field.storage === 'text' ? '' : null
  if (value instanceof Date) return value.toISOString()
  if (field.storage === 'numeric') return Number(value)
  return value
}

/** A stored destination as the API shows it; ids as numbers. */
export function destinationOut(family: AppFamily, app: unknown, appdata: unknown): { app: string; appdata: string | number } | null {
  if (typeof app !== 'string' || app === '') return null
  const data = String(appdata ?? '')
  return { app, appdata: destinationApp(family, app)?.appdata === 'id' && /^\d+$/.test(data) ? Number(data) : data }
}

type Loaded = { joins: Map<string, Map<number, number[]>>; children: Map<string, Map<number, RawRow[]>> }

function fill(record: ApiRecord, fields: readonly FieldPlan[], raw: RawRow, loaded: Loaded, titles: Titles, ctx: EntityContext, redact: boolean): void {
  const id = raw.id as number
  for (const plan of fields) {
    const { field } = plan
    const name = field.name
    switch (plan.kind) {
      case 'value': {
        const value = slotValue(plan, raw)
        record[name] = plan.slot.key ? (value ?? null) : scalar(field, value)
        if (field.relation) {
          record[`${name}_description`] = null
          titles.want(field.relation.entity, value as number | null, (t) => (record[`${name}_description`] = t))
        }
        break
      }
      case 'file': {
        const value = slotValue(plan, raw) as string | null
        record[name] = value ? (plan.stored === 'url' ? value : mediaUrl(plan.dir, value)) : null
        break
      }
      case 'secret':
        if (redact) record[name] = slotValue(plan, raw) ? REDACTED : null
        break
      case 'app': {
        const family = field.family ?? 'pabx'
        const value = destinationOut(family, raw[plan.app], raw[plan.appdata])
        record[name] = value
        record[`${name}_description`] = null
        titles.wantDestination(family, value, ctx.lang, (t) => (record[`${name}_description`] = t))
        break
      }
      case 'm2m': {
        const ids = loaded.joins.get(name)?.get(id) ?? []
        const descriptions: (string | null)[] = ids.map(() => null)
        record[name] = ids
        record[`${name}_description`] = descriptions
        ids.forEach((target, i) => titles.want(field.relation!.entity, target, (t) => (descriptions[i] = t)))
        break
      }
      case 'rows': {
        const rows = loaded.children.get(name)?.get(id) ?? []
        record[name] = rows.map((row) => {
          const item: ApiRecord = {}
          fill(item, plan.child.fields, row, { joins: new Map(), children: new Map() }, titles, ctx, redact)
          return item
        })
        break
      }
    }
  }
}

async function loadJoins(ctx: EntityContext, plan: TablePlan, ids: number[]): Promise<Loaded['joins']> {
  const joins: Loaded['joins'] = new Map()
  for (const field of plan.fields) {
    if (field.kind !== 'm2m' || ids.length === 0) continue
    const join = bindTable(field.join.table)
    const owner = join.col(field.join.owner)
    const target = join.col(field.join.target)
    const rows = await ctx.db
      .select({ owner, target })
      .from(join.table)
      .where(and(eq(join.col('site_id'), ctx.site.id), inArray(owner, ids)))
      .orderBy(asc(target))
    const byOwner = new Map<number, number[]>()
    for (const row of rows as { owner: number; target: number }[]) byOwner.set(row.owner, [...(byOwner.get(row.owner) ?? []), row.target])
    joins.set(field.field.name, byOwner)
  }
  return joins
}

export function childSelection(child: ChildPlan): Record<string, AnyPgColumn> {
  const table = bindTable(child.table)
  return Object.fromEntries(child.columns.map((c) => [c.name, table.col(c.name)]))
}

async function loadChildren(ctx: EntityContext, plan: TablePlan, ids: number[]): Promise<Loaded['children']> {
  const children: Loaded['children'] = new Map()
  for (const field of plan.fields) {
    if (field.kind !== 'rows' || ids.length === 0) continue
    const table = bindTable(field.child.table)
    const parent = table.col(field.child.parent)
    const rows = await ctx.db
      .select(childSelection(field.child))
      .from(table.table)
      .where(and(eq(table.col('site_id'), ctx.site.id), inArray(parent, ids)))
      .orderBy(asc(parent), asc(table.col('position')), asc(table.col('id')))
    const byParent = new Map<number, RawRow[]>()
    for (const row of rows as RawRow[]) {
      const owner = row[field.child.parent] as number
      byParent.set(owner, [...(byParent.get(owner) ?? []), row])
    }
    children.set(field.field.name, byParent)
  }
  return children
}

/** API records of some selected rows, their lists and titles loaded in a few queries for the whole page. */
export async function toRecords(ctx: EntityContext, key: EntityKey, raws: readonly RawRow[], options: { redact?: boolean } = {}): Promise<ApiRecord[]> {
  const { plan } = tablesOf(key)
  const ids = raws.map((raw) => raw.id as number)
  const loaded: Loaded = { joins: await loadJoins(ctx, plan, ids), children: await loadChildren(ctx, plan, ids) }
  const titles = new Titles()
  const records = raws.map((raw) => {
    const record: ApiRecord = { id: raw.id }
    fill(record, plan.fields, raw, loaded, titles, ctx, options.redact === true)
    record.created_at = scalar({ storage: 'timestamptz' } as Field, raw[plan.created])
    record.updated_at = scalar({ storage: 'timestamptz' } as Field, raw[plan.updated])
    return record
  })
  await titles.resolve(ctx)
  return records
}
