import type { Entity, Values } from '../../../contract/entities/index.ts'
import { formValuesFor } from '../../../contract/entities/index.ts'

/** The titles the API sends beside ids (`<field>_description`): lookups show them before their options load. */
function descriptionsOf(entity: Entity, record: Values): Values {
  const out: Values = {}
  for (const field of entity.fields) {
    const key = `${field.name}_description`
    if (key in record) out[key] = record[key]
  }
  return out
}

/**
 * What a form starts from: the defaults (create), a read record (edit), or a record to copy (duplicate: no id, no
 * secrets, no files); a sub-route entity's parent field comes from the route.
 */
export function initialValuesFor(entity: Entity, options: { record?: Values | null; duplicate?: boolean; parentId?: number } = {}): Values {
  const { record, duplicate, parentId } = options
  let source = record ?? null
  if (source && duplicate) {
    source = { ...source }
    delete source.id
    for (const field of entity.fields) if (field.secret || field.storage === 'file') delete source[field.name]
  }
  const values = { ...(source ? descriptionsOf(entity, source) : {}), ...formValuesFor(entity, source) }
  // A duplicate starts from the defaults for what it does not copy.
  if (duplicate) for (const [name, value] of Object.entries(formValuesFor(entity))) values[name] ??= value
  if (entity.parent && parentId !== undefined) values[entity.parent.field] = parentId
  return values
}
