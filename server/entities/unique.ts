import { and, eq, ne } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { entityMessage } from '../../contract/entities/index.ts'
import type { FieldPlan, UniquePlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import type { EntityTables } from './tables.ts'
import type { FieldErrors } from './types.ts'
import { columnValue } from './write.ts'

// Unique fields (per site, or across sites for a site's domain) and unique-together sets are checked before writing,
// so a repeat answers a field error in the caller's language instead of a constraint violation. The database's unique
// indexes stay as the backstop for two requests racing (see isUniqueViolation).

function columnsFor(plan: FieldPlan, value: unknown): [string, unknown][] | null {
  if (value === null || value === undefined || value === '') return null
  if (plan.kind === 'app') {
    const { app, appdata } = value as { app: string; appdata: unknown }
    return [
      [plan.app, app],
      [plan.appdata, String(appdata ?? '')],
    ]
  }
  if (plan.kind === 'value' && !plan.slot.key && !plan.slot.side) return [[plan.slot.column, columnValue(plan.field, value)]]
  return null
}

/** The field a repeat is reported on: the last one of the set that is not the parent (hidden in the form). */
function reportedField(unique: UniquePlan, parentField: string | undefined): string {
  const visible = unique.fields.filter((f) => f !== parentField)
  return visible[visible.length - 1] ?? unique.fields[unique.fields.length - 1]!
}

export async function uniqueErrors(ctx: EntityContext, tables: EntityTables, values: Record<string, unknown>, selfId?: number): Promise<FieldErrors> {
  const { plan, main } = tables
  const byName = new Map(plan.fields.map((f) => [f.field.name, f]))
  const errors: FieldErrors = {}
  for (const unique of plan.uniques) {
    const conditions: SQL[] = unique.global ? [] : [eq(main.col(plan.scope), ctx.site.id)]
    let complete = true
    for (const name of unique.fields) {
      const columns = columnsFor(byName.get(name)!, values[name])
      if (!columns) complete = false
      else for (const [column, value] of columns) conditions.push(eq(main.col(column), value))
    }
    if (!complete) continue
    if (selfId !== undefined) conditions.push(ne(main.col('id'), selfId))
    const [clash] = await ctx.db.select({ id: main.col('id') }).from(main.table).where(and(...conditions)).limit(1)
    if (clash) errors[reportedField(unique, plan.entity.parent?.field)] = [entityMessage('alreadyExists', ctx.lang)]
  }
  return errors
}

/** A unique violation from either driver (Drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  return pgCode(error) === '23505'
}

export function isForeignKeyViolation(error: unknown): boolean {
  return pgCode(error) === '23503'
}

function pgCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && /^\d{5}$/.test(current.code)) return current.code
    current = current.cause as typeof current
  }
  return undefined
}
