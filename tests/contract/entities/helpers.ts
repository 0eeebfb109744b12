import * as v from 'valibot'
import type { Entity, Field, SchemaMode } from '../../../contract/entities/index.ts'
import { fieldErrors, valibotSchema } from '../../../contract/entities/index.ts'

/** Every field of an entity with its path, datatable columns included. */
export function allFields(entity: Entity): { path: string; field: Field; scope: readonly Field[] }[] {
  const walk = (fields: readonly Field[], prefix: string): { path: string; field: Field; scope: readonly Field[] }[] =>
    fields.flatMap((field) => [{ path: `${prefix}${field.name}`, field, scope: fields }, ...walk(field.fields ?? [], `${prefix}${field.name}.`)])
  return walk(entity.fields, '')
}

/** Parses a body and answers DRF-style errors ({} when valid) in a language. */
export function errorsOf(entity: Entity, body: unknown, mode: SchemaMode = 'create', lang = 'pt-BR'): Record<string, string[]> {
  const result = v.safeParse(valibotSchema(entity, mode), body, { lang })
  return result.success ? {} : fieldErrors(result.issues)
}

/** The parsed body; fails the test with the errors when invalid. */
export function parsed(entity: Entity, body: unknown, mode: SchemaMode = 'create'): Record<string, unknown> {
  const result = v.safeParse(valibotSchema(entity, mode), body)
  if (!result.success) throw new Error(JSON.stringify(fieldErrors(result.issues)))
  return result.output
}
