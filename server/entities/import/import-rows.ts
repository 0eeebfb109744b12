import { and, eq, inArray } from 'drizzle-orm'
import * as v from 'valibot'
import type { Entity } from '../../../contract/entities/index.ts'
import { entityMessage, fieldErrors as issuesToErrors, valibotSchema } from '../../../contract/entities/index.ts'
import { auditLog } from '../../db/schema/index.ts'
import type { Db } from '../../db/client.ts'
import type { EntityContext } from '../context.ts'
import { within } from '../context.ts'
import { HOOKS } from '../hooks.ts'
import { referenceErrors } from '../references.ts'
import { tablesOf } from '../tables.ts'
import type { EntityTables } from '../tables.ts'
import { uniqueErrors } from '../unique.ts'
import { buildWriteSet, columnValue, insertMany } from '../write.ts'

// Validates every row of an import the way a create is validated (the entity's schema, its own rules, references,
// uniqueness against the site and within the file) and writes all of them in one transaction, or none.

type Values = Record<string, unknown>
export type ImportError = { row: number; field: string; messages: string[] }
export type ImportResult = { created: number } | { errors: ImportError[] }

/** More errors than this are not listed: the file needs fixing anyway. */
const MAX_ERRORS = 1000
const AUDIT_CHUNK = 500

function fromCell(entity: Entity, field: string, cell: string): unknown {
  const storage = entity.fields.find((f) => f.name === field)?.storage
  if (storage === 'bool') return ['1', 'true', 'sim', 'yes', 'si', 's', 'y'].includes(cell.toLowerCase())
  return cell
}

type Parsed = { row: number; values: Values }

/** Rows repeating a unique value of an earlier row or of a stored row, in bulk for single-column uniques. */
async function uniqueClashes(ctx: EntityContext, tables: EntityTables, parsed: Parsed[], errors: ImportError[]): Promise<void> {
  const { plan, main } = tables
  for (const unique of plan.uniques) {
    const fieldPlan = plan.fields.find((f) => f.field.name === unique.fields[0])
    if (unique.fields.length !== 1 || fieldPlan?.kind !== 'value' || fieldPlan.slot.key || fieldPlan.slot.side) {
      for (const p of parsed) {
        for (const [field, messages] of Object.entries(await uniqueErrors(ctx, tables, p.values))) errors.push({ row: p.row, field, messages })
      }
      continue
    }
    const name = fieldPlan.field.name
    const valued = parsed.filter((p) => p.values[name] !== null && p.values[name] !== undefined && p.values[name] !== '')
    const column = main.col(fieldPlan.slot.column)
    const stored = new Set<unknown>()
    const values = [...new Set(valued.map((p) => columnValue(fieldPlan.field, p.values[name])))]
    for (let i = 0; i < values.length; i += 1000) {
      const rows = (await ctx.db
        .select({ value: column })
        .from(main.table)
        .where(and(unique.global ? undefined : eq(main.col(plan.scope), ctx.site.id), inArray(column, values.slice(i, i + 1000))))) as { value: unknown }[]
      for (const r of rows) stored.add(r.value)
    }
    const seen = new Set<unknown>()
    for (const p of valued) {
      const value = columnValue(fieldPlan.field, p.values[name])
      if (stored.has(value) || seen.has(value)) errors.push({ row: p.row, field: name, messages: [entityMessage('alreadyExists', ctx.lang)] })
      seen.add(value)
    }
  }
}

export async function importRows(
  ctx: EntityContext,
  entity: Entity,
  header: string[],
  rows: string[][],
  mapping: Record<string, string>,
): Promise<ImportResult> {
  const tables = tablesOf(entity.key)
  const hooks = HOOKS[entity.key]
  const schema = valibotSchema(entity, 'create')
  const columns = Object.entries(mapping).map(([column, field]) => ({ index: header.indexOf(column), field }))
  const references = columns.some(({ field }) => ['fk', 'm2m', 'app'].includes(entity.fields.find((f) => f.name === field)?.storage ?? ''))
  const errors: ImportError[] = []
  const parsed: Parsed[] = []
  for (const [i, cells] of rows.entries()) {
    const row = i + 2
    const body: Values = {}
    for (const { index, field } of columns) {
      const cell = (cells[index] ?? '').trim()
      if (cell !== '') body[field] = fromCell(entity, field, cell)
    }
    const result = v.safeParse(schema, body, { lang: ctx.lang, abortPipeEarly: true })
    if (!result.success) {
      for (const [field, messages] of Object.entries(issuesToErrors(result.issues))) errors.push({ row, field, messages })
      continue
    }
    const values = result.output
    hooks?.normalise?.(values)
    const own = { ...((await hooks?.validate?.(ctx, values, null)) ?? {}), ...(references ? await referenceErrors(ctx, entity.key, values) : {}) }
    for (const [field, messages] of Object.entries(own)) errors.push({ row, field, messages })
    if (Object.keys(own).length === 0) parsed.push({ row, values })
    if (errors.length >= MAX_ERRORS) break
  }
  if (errors.length < MAX_ERRORS) await uniqueClashes(ctx, tables, parsed, errors)
  if (errors.length) return { errors: errors.sort((a, b) => a.row - b.row).slice(0, MAX_ERRORS) }

  await ctx.db.transaction(async (tx) => {
    const t = within(ctx, tx as unknown as Db)
    const ids = await insertMany(
      t,
      tables,
      parsed.map((p) => buildWriteSet(tables, p.values, { secrets: {}, files: {} })),
    )
    for (let i = 0; i < ids.length; i += AUDIT_CHUNK) {
      const entries = ids.slice(i, i + AUDIT_CHUNK).map((id, j) => ({
        siteId: ctx.site.id,
        userId: ctx.userId,
        entity: entity.key,
        objectId: id,
        action: 'create' as const,
        before: null,
        after: { id, ...parsed[i + j]!.values, imported: true },
      }))
      await t.db.insert(auditLog).values(entries)
    }
  })
  return { created: parsed.length }
}
