import { and, eq, ne } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { entityMessage } from '../../contract/entities/index.ts'
import type { Field } from '../../contract/entities/index.ts'
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
    const [clash] = await ctx.db
      .select({ id: main.col('id') })
      .from(main.table)
      .where(and(...conditions))
      .limit(1)
    if (clash) errors[reportedField(unique, plan.entity.parent?.field)] = [entityMessage('alreadyExists', ctx.lang)]
  }
  return errors
}

// Unique values a copy may take by counting on: names, codes, usernames, shortcuts, extensions and numbers. A domain,
// e-mail, URL or document number has a shape a counter would break; those stay as they are for the person to change.
const COUNTABLE = new Set<Field['validation']>([undefined, 'extension', 'phone'])
const MAX_TRIES = 25

/**
 * The values a copy of `value` may take, in order: a trailing number counts up ('agent1' → 'agent2', '10001' →
 * '10002', keeping leading zeros), anything else gets one ('Suporte' → 'Suporte 2', 'maria' → 'maria-2'); each cut
 * to fit `max`.
 */
export function* copyCandidates(value: string, max = Infinity): Generator<string> {
  const numbered = /^(.*?)(\d+)$/.exec(value)
  const separator = /\s/.test(value) ? ' ' : '-'
  for (let step = 1; step <= MAX_TRIES; step++) {
    let base: string
    let suffix: string
    if (numbered) {
      const [, head, digits] = numbered as unknown as [string, string, string]
      base = head
      suffix = String(BigInt(digits) + BigInt(step)).padStart(digits.length, '0')
    } else {
      base = value
      suffix = `${separator}${step + 1}`
    }
    if (suffix.length > max) return
    yield `${base.slice(0, Math.max(0, max - suffix.length))}${suffix}`
  }
}

/**
 * A record about to be copied (create?duplicate_id=) with its unique values made free: a counted name where one is
 * free, a unique reference (a user's device) left empty for the person to choose, so the copy can be saved.
 */
export async function freeUniqueValues(ctx: EntityContext, tables: EntityTables, record: Record<string, unknown>): Promise<Record<string, unknown>> {
  const values = { ...record }
  const byName = new Map(tables.plan.fields.map((f) => [f.field.name, f.field]))
  for (const name of Object.keys(await uniqueErrors(ctx, tables, values))) {
    const field = byName.get(name)
    const original = values[name]
    if (!field) continue
    if (field.storage === 'fk') {
      values[name] = null
      delete values[`${name}_description`]
      continue
    }
    if (field.storage !== 'text' || typeof original !== 'string' || !COUNTABLE.has(field.validation)) continue
    for (const candidate of copyCandidates(original, field.max)) {
      values[name] = candidate
      if (!(await uniqueErrors(ctx, tables, values))[name]) break
      values[name] = original
    }
  }
  return values
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
