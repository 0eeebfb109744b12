import * as v from 'valibot'
import type { EntityKey } from '../../contract/entities/index.ts'
import { entityByKey, fieldErrors, valibotSchema } from '../../contract/entities/index.ts'
import type { EntityContext } from '../entities/context.ts'
import { HOOKS } from '../entities/hooks.ts'
// The seed writes without the app: the areas' rules are loaded here too.
import '../entity-hooks.ts'
import { acceptedKinds, sniff } from '../entities/media-store.ts'
import type { Upload } from '../entities/request-input.ts'
import { secretColumns } from '../entities/secrets.ts'
import { storeUploads } from '../entities/stored-files.ts'
import { tablesOf } from '../entities/tables.ts'
import { buildWriteSet, insertRecord } from '../entities/write.ts'

// Demo rows go through the same schema, secrets, file store and writer as the API, so the demo holds only what an
// administrator could have entered (a seed that breaks the schema throws). `override` sets values after the check
// (tests use it to store what the schema would refuse).
type Values = Record<string, unknown>

export async function seedRecord(
  ctx: EntityContext,
  key: EntityKey,
  body: Values,
  options: { files?: Record<string, Buffer>; override?: Values } = {},
): Promise<number> {
  const entity = entityByKey(key)
  const result = v.safeParse(valibotSchema(entity, 'create'), body, { lang: ctx.lang })
  if (!result.success) throw new Error(`demo ${key} is invalid: ${JSON.stringify(fieldErrors(result.issues))}`)
  const values = { ...result.output, ...options.override }
  const tables = tablesOf(key)
  const uploads = new Map<string, Upload>()
  for (const [name, bytes] of Object.entries(options.files ?? {})) {
    const kind = sniff(bytes, acceptedKinds(entity.fields.find((f) => f.name === name)?.accept))
    if (!kind) throw new Error(`demo ${key}.${name} is not an accepted file`)
    uploads.set(name, { bytes, kind })
  }
  const secrets = await secretColumns(ctx, tables.plan.fields, values, null)
  const stored = await storeUploads(ctx, tables.plan, { values, uploads })
  const id = await insertRecord(ctx, tables, buildWriteSet(tables, values, { secrets, files: stored.columns }))
  await HOOKS[key]?.afterWrite?.(ctx, id)
  return id
}
