import { and, eq } from 'drizzle-orm'
import * as v from 'valibot'
import type { Entity } from '../../contract/entities/index.ts'
import { entityMessage, fieldErrors as issuesToErrors, valibotSchema } from '../../contract/entities/index.ts'
import type { SchemaMode } from '../../contract/entities/index.ts'
import { HttpError, detailError, fieldErrors } from '../http/errors.ts'
import type { Db } from '../db/client.ts'
import type { EntityContext } from './context.ts'
import { within } from './context.ts'
import { recordChanged, writeAudit } from './audit.ts'
import { auditCascade, cascadeEffects } from './cascade-audit.ts'
import { HOOKS } from './hooks.ts'
import { EXTRA_FILTERS } from './extra-filters.ts'
import { listCount, listPage, parseListQuery } from './list-query.ts'
import { refusePlatformChanges } from './platform-fields.ts'
import { protectedMessage, usedBy } from './protect.ts'
import { referenceErrors } from './references.ts'
import type { EntityInput } from './request-input.ts'
import { secretColumns } from './secrets.ts'
import type { ApiRecord, RawRow } from './serialize.ts'
import { selectRecords, toRecords } from './serialize.ts'
import { commitFiles, discardFiles, filesToRemove, storeUploads } from './stored-files.ts'
import { tablesOf } from './tables.ts'
import type { EntityTables } from './tables.ts'
import type { FieldErrors } from './types.ts'
import { freeUniqueValues, isForeignKeyViolation, isUniqueViolation, uniqueErrors } from './unique.ts'
import { buildWriteSet, insertRecord, updateRecord as writeUpdate } from './write.ts'

// The generic settings operations behind every entity's routes. Order of checks on a write: the body schema (the
// contract's valibot schema, in the request's language), fields only the platform operator changes (403), the
// entity's own rules, files, references within the site, uniqueness; only then are files stored and one transaction writes the row, its lists and the audit entry. A delete's
// transaction also audits the rows the database removes or changes in cascade (cascade-audit.ts).

type Values = Record<string, unknown>

function notFound(ctx: EntityContext): HttpError {
  return detailError(404, 'notFound', ctx.lang)
}

function throwIf(errors: FieldErrors): void {
  if (Object.keys(errors).length) throw fieldErrors(errors)
}

async function loadRaw(ctx: EntityContext, tables: EntityTables, id: number): Promise<RawRow | null> {
  const { main, plan } = tables
  const [row] = (await selectRecords(ctx, tables).where(and(eq(main.col('id'), id), eq(main.col(plan.scope), ctx.site.id)))) as RawRow[]
  return row ?? null
}

export async function getRecord(ctx: EntityContext, entity: Entity, id: number): Promise<ApiRecord> {
  const raw = await loadRaw(ctx, tablesOf(entity.key), id)
  if (!raw) throw notFound(ctx)
  return (await toRecords(ctx, entity.key, [raw]))[0]!
}

/** A record to prefill a copy with (create?duplicate_id=): the detail, its unique values made free. */
export async function duplicateRecord(ctx: EntityContext, entity: Entity, id: number): Promise<ApiRecord> {
  return (await freeUniqueValues(ctx, tablesOf(entity.key), await getRecord(ctx, entity, id))) as ApiRecord
}

export async function listRecords(ctx: EntityContext, entity: Entity, query: Record<string, unknown>): Promise<{ count: number; results: ApiRecord[] }> {
  const tables = tablesOf(entity.key)
  const list = parseListQuery(ctx, entity.key, query, EXTRA_FILTERS[entity.key])
  const page = listPage(ctx, tables, list)
  const raws = (await selectRecords(ctx, tables, page.from)
    .where(page.where)
    .orderBy(...list.order)
    .limit(page.limit)
    .offset(page.offset)) as RawRow[]
  return { count: await listCount(ctx, tables, list, raws.length), results: await toRecords(ctx, entity.key, raws) }
}

function parseBody(ctx: EntityContext, entity: Entity, mode: SchemaMode, values: Values): Values {
  // A file travels as its own multipart part; a URL sent back for an unchanged file means "keep it".
  const body = { ...values }
  for (const field of entity.fields) if (field.storage === 'file' && typeof body[field.name] === 'string') delete body[field.name]
  const result = v.safeParse(valibotSchema(entity, mode), body, { lang: ctx.lang, abortPipeEarly: true })
  if (!result.success) throw fieldErrors(issuesToErrors(result.issues))
  return result.output
}

/** Required files must exist after the write: uploaded now, or kept from before and not removed. */
function missingFiles(ctx: EntityContext, entity: Entity, input: EntityInput, existing: ApiRecord | null): FieldErrors {
  const errors: FieldErrors = {}
  for (const field of entity.fields) {
    if (field.storage !== 'file' || !field.required || input.uploads.has(field.name)) continue
    const removed = input.values[field.name] === null
    if (!existing?.[field.name] || removed) errors[field.name] = [entityMessage('required', ctx.lang)]
  }
  return errors
}

/** The record as a body again (PATCH merges the changes over it). */
function asBody(record: ApiRecord): Values {
  const body: Values = {}
  for (const [key, value] of Object.entries(record)) if (!key.endsWith('_description')) body[key] = value
  return body
}

async function checked(ctx: EntityContext, entity: Entity, mode: SchemaMode, input: EntityInput, existing: ApiRecord | null): Promise<Values> {
  const tables = tablesOf(entity.key)
  const hooks = HOOKS[entity.key]
  const values = parseBody(ctx, entity, mode, input.values)
  hooks?.normalise?.(values)
  if (existing) refusePlatformChanges(ctx, entity, values, existing)
  throwIf({ ...((await hooks?.validate?.(ctx, values, existing)) ?? {}), ...missingFiles(ctx, entity, input, existing) })
  throwIf(await referenceErrors(ctx, entity.key, values))
  throwIf(await uniqueErrors(ctx, tables, values, existing?.id as number | undefined))
  return values
}

function secretSent(entity: Entity, values: Values): boolean {
  return entity.fields.some((f) => f.secret && typeof values[f.name] === 'string' && values[f.name] !== '')
}

type Write = { id?: number; existingRaw: RawRow | null; before: ApiRecord | null; values: Values; input: EntityInput }

async function write(ctx: EntityContext, entity: Entity, w: Write): Promise<number> {
  const tables = tablesOf(entity.key)
  const hooks = HOOKS[entity.key]
  const secrets = await secretColumns(ctx, tables.plan.fields, w.values, w.existingRaw)
  const stored = await storeUploads(ctx, tables.plan, w.input)
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const t = within(ctx, tx as unknown as Db)
      const set = buildWriteSet(tables, w.values, { secrets, files: stored.columns })
      const id = w.id ?? (await insertRecord(t, tables, set))
      if (w.id !== undefined) await writeUpdate(t, tables, w.id, set)
      await hooks?.afterWrite?.(t, id)
      const readCtx = tables.plan.scope === 'id' ? { ...t, site: { ...t.site, id } } : t
      const [after] = await toRecords(readCtx, entity.key, [(await loadRaw(readCtx, tables, id))!], { redact: true })
      // A save that changes nothing leaves no entry; a secret sent is a change the redacted records cannot show.
      if (w.id === undefined || secretSent(entity, w.values) || recordChanged(w.before, after!)) {
        await writeAudit(t, entity.key, id, w.id === undefined ? 'create' : 'update', w.before, after!)
      }
      return id
    })
    await commitFiles(ctx, tables.plan, w.existingRaw, stored)
    return id
  } catch (error) {
    await discardFiles(ctx, stored)
    // Two requests raced past the pre-check: the index refused the second; answer as the pre-check would have.
    if (isUniqueViolation(error)) {
      const errors = await uniqueErrors(ctx, tables, w.values, w.id)
      throw fieldErrors(Object.keys(errors).length ? errors : { non_field_errors: [entityMessage('alreadyExists', ctx.lang)] })
    }
    if (isForeignKeyViolation(error)) throw fieldErrors({ non_field_errors: [entityMessage('invalidReference', ctx.lang)] })
    throw error
  }
}

export async function createRecord(ctx: EntityContext, entity: Entity, input: EntityInput): Promise<ApiRecord> {
  const values = await checked(ctx, entity, 'create', input, null)
  const id = await write(ctx, entity, { existingRaw: null, before: null, values, input })
  const readCtx = tablesOf(entity.key).plan.scope === 'id' ? { ...ctx, site: { ...ctx.site, id } } : ctx
  const record = await getRecord(readCtx, entity, id)
  await HOOKS[entity.key]?.afterCommit?.(ctx, id, record, { values, created: true })
  return record
}

export async function updateRecord(ctx: EntityContext, entity: Entity, id: number, input: EntityInput, partial: boolean): Promise<ApiRecord> {
  const tables = tablesOf(entity.key)
  const existingRaw = await loadRaw(ctx, tables, id)
  if (!existingRaw) throw notFound(ctx)
  const [current] = await toRecords(ctx, entity.key, [existingRaw])
  const [before] = await toRecords(ctx, entity.key, [existingRaw], { redact: true })
  const merged: EntityInput = partial ? { ...input, values: { ...asBody(current!), ...input.values } } : input
  const values = await checked(ctx, entity, 'update', merged, current!)
  await write(ctx, entity, { id, existingRaw, before: before!, values, input: merged })
  const record = await getRecord(ctx, entity, id)
  await HOOKS[entity.key]?.afterCommit?.(ctx, id, record, { values, created: false })
  return record
}

export async function deleteRecord(ctx: EntityContext, entity: Entity, id: number): Promise<void> {
  const tables = tablesOf(entity.key)
  const hooks = HOOKS[entity.key]
  const raw = await loadRaw(ctx, tables, id)
  if (!raw) throw notFound(ctx)
  const refused = hooks?.refuseDelete?.(ctx, id)
  if (refused) throw new HttpError(400, { detail: refused })
  const uses = await usedBy(ctx, entity.key, id)
  if (uses.length) throw new HttpError(409, { detail: protectedMessage(ctx, uses) })
  const [before] = await toRecords(ctx, entity.key, [raw], { redact: true })
  const files = await filesToRemove(ctx, entity.key, id, raw)
  try {
    await ctx.db.transaction(async (tx) => {
      const t = within(ctx, tx as unknown as Db)
      await hooks?.beforeDelete?.(t, id)
      const cascade = await cascadeEffects(t, entity.key, id)
      await t.db.delete(tables.main.table).where(and(eq(tables.main.col('id'), id), eq(tables.main.col(tables.plan.scope), ctx.site.id)))
      await writeAudit(t, entity.key, id, 'delete', before!, null)
      await auditCascade(t, cascade)
    })
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new HttpError(409, { detail: protectedMessage(ctx, [entity.label.singular[ctx.lang]]) })
    throw error
  }
  await files()
  await hooks?.afterCommit?.(ctx, id, null)
}
