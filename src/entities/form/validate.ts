import type { Entity, Field, SchemaMode, Values } from '../../../contract/entities/index.ts'
import { payloadFor, valibotSchema } from '../../../contract/entities/index.ts'
import { schemaFieldErrors } from '../../components/form/validation.ts'

// The form checks what it would send: the values become the body with payloadFor (comboboxes joined, numbers typed,
// empties dropped, files apart) and that body is parsed with the entity's own valibotSchema in the active language,
// exactly as the server parses it. Messages are keyed by path: 'description', 'options.1.digit'.

const SUB_ENTITIES = new WeakMap<Field, Entity>()

/** A datatable's rows as an entity of their own, so its sub-form validates and serialises with the same functions. */
export function rowEntity(field: Field, parent?: Entity): Entity {
  let entity = SUB_ENTITIES.get(field)
  if (!entity) {
    const fields = field.fields ?? []
    entity = {
      ...(parent ?? ({} as Entity)),
      key: (parent?.key ?? 'row') as Entity['key'],
      fields,
      form: { tabs: [{ key: 'row', label: field.label, fields: fields.map((f) => f.name) }] },
      parent: undefined,
      importable: undefined,
    } as Entity
    SUB_ENTITIES.set(field, entity)
  }
  return entity
}

/** The JSON body the values would send (the `params` part of a multipart one). */
export function bodyOf(entity: Entity, values: Values, original?: Values | null): Values {
  const payload = payloadFor(entity, values, original)
  if ('json' in payload) return payload.json
  const params = payload.multipart.find(([name]) => name === 'params')?.[1]
  return typeof params === 'string' ? (JSON.parse(params) as Values) : {}
}

/** The first message of every failing path, or {} when the body is valid. */
export function validateValues(entity: Entity, mode: SchemaMode, values: Values, lang: string, original?: Values | null): Record<string, string> {
  return schemaFieldErrors(valibotSchema(entity, mode), bodyOf(entity, values, original), lang) ?? {}
}

/** Messages below a field, with the field's name taken off their paths ('options.1.digit' → '1.digit'). */
export function nestedOf(errors: Readonly<Record<string, string>>, name: string): Record<string, string> {
  const prefix = `${name}.`
  const nested: Record<string, string> = {}
  for (const [path, message] of Object.entries(errors)) if (path.startsWith(prefix)) nested[path.slice(prefix.length)] = message
  return nested
}

/** The top-level field a path belongs to. */
export function rootOf(path: string): string {
  return path.split('.')[0]!
}
