import type { Entity } from '../../contract/entities/index.ts'
import { detailError } from '../http/errors.ts'
import type { EntityContext } from './context.ts'
import type { ApiRecord } from './serialize.ts'

// Fields the contract marks `platform` (a site's domain) are set by the platform operator only (`npm run site`). An
// update through the API may repeat the stored value (a form sends every field back) but never change it: 403, before
// the entity's own rules (right after the body's schema).
export function refusePlatformChanges(ctx: EntityContext, entity: Entity, values: Record<string, unknown>, existing: ApiRecord): void {
  for (const field of entity.fields) {
    if (!field.platform || !(field.name in values)) continue
    if (String(values[field.name] ?? '') !== String(existing[field.name] ?? '')) {
      throw detailError(403, 'platformOnly', ctx.lang, { field: field.label[ctx.lang] })
    }
  }
}
