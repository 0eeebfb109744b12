import { and, eq } from 'drizzle-orm'
import type { EntityKey } from '../../contract/entities/index.ts'
import { childrenOf } from '../../contract/entities/index.ts'
import type { FieldPlan, TablePlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import { mediaUrl, removeMedia, saveMedia } from './media-store.ts'
import type { EntityInput, Upload } from './request-input.ts'
import type { RawRow } from './serialize.ts'
import { selectRecords, slotValue } from './serialize.ts'
import { tablesOf } from './tables.ts'

// Uploads are written before the transaction and removed again if it fails; a file replaced or removed goes from
// disk only after the commit, so a rolled-back change never loses the file its row still names.

type FilePlan = Extract<FieldPlan, { kind: 'file' }>

/**
 * Stores one upload its own way instead of as sent (prompts and music become telephony audio: server/media/): writes
 * under `<mediaDir>/<dir>/` and answers the stored name (media-store's pattern), or throws an HttpError for the field.
 */
export type UploadConverter = (ctx: EntityContext, dir: string, upload: Upload, field: string) => Promise<string>

const CONVERTERS = new Map<string, UploadConverter>()

/** The area that owns an entity's file field registers how its uploads are stored (server/entity-hooks.ts loads it). */
export function registerUploadConverter(key: EntityKey, field: string, convert: UploadConverter): void {
  CONVERTERS.set(`${key}:${field}`, convert)
}

export type StoredUploads = {
  /** Field → what its slot will hold: the new stored value, or null to remove the file. */
  readonly columns: Record<string, string | null>
  readonly written: { dir: string; name: string }[]
}

function filePlans(plan: TablePlan): FilePlan[] {
  return plan.fields.filter((f): f is FilePlan => f.kind === 'file')
}

export async function storeUploads(ctx: EntityContext, plan: TablePlan, input: EntityInput): Promise<StoredUploads> {
  const stored: StoredUploads = { columns: {}, written: [] }
  try {
    for (const file of filePlans(plan)) {
      const name = file.field.name
      const upload = input.uploads.get(name)
      if (upload) {
        const convert = CONVERTERS.get(`${plan.entity.key}:${name}`)
        const saved = convert ? await convert(ctx, file.dir, upload, name) : await saveMedia(ctx.mediaDir, file.dir, upload.bytes, upload.kind)
        stored.written.push({ dir: file.dir, name: saved })
        stored.columns[name] = file.stored === 'url' ? mediaUrl(file.dir, saved) : saved
      } else if (name in input.values && input.values[name] === null) {
        stored.columns[name] = null
      }
    }
  } catch (error) {
    await discardFiles(ctx, stored)
    throw error
  }
  return stored
}

export async function discardFiles(ctx: EntityContext, stored: StoredUploads): Promise<void> {
  for (const { dir, name } of stored.written) await removeMedia(ctx.mediaDir, dir, name)
}

/** After the commit: files the row named before and names no more. */
export async function commitFiles(ctx: EntityContext, plan: TablePlan, before: RawRow | null, stored: StoredUploads): Promise<void> {
  if (!before) return
  for (const file of filePlans(plan)) {
    if (!(file.field.name in stored.columns)) continue
    const old = slotValue(file, before) as string | null
    if (old && old !== stored.columns[file.field.name]) await removeMedia(ctx.mediaDir, file.dir, old)
  }
}

/** The files a delete takes with it (the row's, and those of children deleted in cascade), removed once committed. */
export async function filesToRemove(ctx: EntityContext, key: EntityKey, id: number, raw: RawRow): Promise<() => Promise<void>> {
  const doomed: { dir: string; value: string }[] = []
  const collect = (plan: TablePlan, row: RawRow) => {
    for (const file of filePlans(plan)) {
      const value = slotValue(file, row)
      if (typeof value === 'string' && value) doomed.push({ dir: file.dir, value })
    }
  }
  collect(tablesOf(key).plan, raw)
  for (const child of childrenOf(key)) {
    const tables = tablesOf(child.key)
    if (filePlans(tables.plan).length === 0) continue
    const parent = tables.plan.fields.find((f) => f.field.name === child.parent!.field)
    if (parent?.kind !== 'value') continue
    const rows = (await selectRecords(ctx, tables).where(
      and(eq(tables.main.col(parent.slot.column), id), eq(tables.main.col('site_id'), ctx.site.id)),
    )) as RawRow[]
    for (const row of rows) collect(tables.plan, row)
  }
  return async () => {
    for (const { dir, value } of doomed) await removeMedia(ctx.mediaDir, dir, value)
  }
}
