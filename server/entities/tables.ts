import { getTableColumns, getTableName, is } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import * as schema from '../db/schema/index.ts'
import type { EntityKey } from '../../contract/entities/index.ts'
import { planOf } from '../db/entity-schema/plan.ts'
import type { TablePlan } from '../db/entity-schema/plan.ts'

// The storage plans (server/db/entity-schema/plan.ts) name tables and columns in SQL; this module finds the Drizzle
// objects behind those names, so the generic CRUD builds typed queries without knowing any entity in advance. A name
// the schema lacks throws at start-up (see bindAll), never in the middle of a request.

export type BoundTable = {
  readonly name: string
  readonly table: PgTable
  /** The Drizzle column of an SQL column name. */
  col(name: string): AnyPgColumn
  /** The property a row object uses for an SQL column name (Drizzle inserts and updates are keyed by it). */
  key(name: string): string
}

const TABLES = new Map<string, PgTable>()
for (const value of Object.values(schema)) if (is(value, PgTable)) TABLES.set(getTableName(value), value)

const BOUND = new Map<string, BoundTable>()

export function bindTable(name: string): BoundTable {
  const cached = BOUND.get(name)
  if (cached) return cached
  const table = TABLES.get(name)
  if (!table) throw new Error(`No table ${name} in server/db/schema`)
  const byName = new Map<string, { key: string; column: AnyPgColumn }>()
  for (const [key, column] of Object.entries(getTableColumns(table))) byName.set(column.name, { key, column: column as AnyPgColumn })
  const find = (column: string) => {
    const found = byName.get(column)
    if (!found) throw new Error(`No column ${name}.${column} in server/db/schema`)
    return found
  }
  const bound: BoundTable = { name, table, col: (column) => find(column).column, key: (column) => find(column).key }
  BOUND.set(name, bound)
  return bound
}

export type EntityTables = {
  readonly plan: TablePlan
  readonly main: BoundTable
  readonly side?: BoundTable
}

const ENTITY_TABLES = new Map<EntityKey, EntityTables>()

export function tablesOf(key: EntityKey): EntityTables {
  const cached = ENTITY_TABLES.get(key)
  if (cached) return cached
  const plan = planOf(key)
  const tables: EntityTables = { plan, main: bindTable(plan.table), ...(plan.side ? { side: bindTable(plan.side.table) } : {}) }
  ENTITY_TABLES.set(key, tables)
  return tables
}

/** Resolves every table and column every plan names: a mismatch between registry and schema fails at start-up. */
export function bindAll(keys: readonly EntityKey[]): void {
  for (const key of keys) {
    const { plan, main, side } = tablesOf(key)
    for (const column of [plan.scope, plan.created, plan.updated, 'id']) main.col(column)
    for (const field of plan.fields) {
      switch (field.kind) {
        case 'app':
          main.col(field.app)
          main.col(field.appdata)
          break
        case 'm2m': {
          const join = bindTable(field.join.table)
          join.col(field.join.owner)
          join.col(field.join.target)
          join.col('site_id')
          break
        }
        case 'rows': {
          const child = bindTable(field.child.table)
          for (const column of field.child.columns) child.col(column.name)
          break
        }
        default:
          ;(field.slot.side ? side! : main).col(field.slot.column)
          if (field.kind === 'secret' && field.ha1) main.col(field.ha1)
      }
    }
  }
}
