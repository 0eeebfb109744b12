import { destinationApp } from './apps.ts'
import { DEFAULT_DELIMITER, holdsValue, joinDelimiter, optionValue } from './schema.ts'
import type { Values } from './schema.ts'
import type { Entity, Field } from './types.ts'

// What the dynamic form sends (spec 001 §5 payload rules), as a pure function of the definition and the values:
// - a combobox with delimiters is joined on its first delimiter (default ';'), and a `returnToString` field on its
//   first delimiter (default ','); formValuesFor splits them back. Chosen options ({ value, text }, `returnObject`)
//   travel as they are, or as their values when joined;
// - empty strings and empty lists are dropped (the server reads an absent field as empty: PUT replaces the row);
// - with a new file present the body goes as multipart: `params` holds the other values as JSON, each file its own
//   part; an unchanged existing file is omitted, and `null` (in params) removes the current one;
// - numbers typed as text become numbers, and the id in a destination ("number-typed app values") an integer.
// Only the entity's own value fields are sent: layout, embedded lists, read-only fields and unknown keys are not.

export type MultipartEntry = readonly [name: string, value: string | Blob]
export type Payload = { readonly json: Values } | { readonly multipart: readonly MultipartEntry[] }

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob
}

/** '15' → 15; what is not a number stays as typed for the schema to refuse ('5.5' for a whole number too). */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value
  const n = Number(value.trim().replace(',', '.'))
  return Number.isFinite(n) ? n : value
}

function cleanDestination(field: Field, value: unknown): unknown {
  if (!value || typeof value !== 'object' || !('app' in value)) return value
  const { app, appdata } = value as { app?: unknown; appdata?: unknown }
  if (typeof app !== 'string' || app === '') return undefined
  const kind = destinationApp(field.family ?? 'pabx', app)?.appdata
  if (kind === 'none') return { app, appdata: '' }
  if (kind === 'id' && typeof appdata === 'string' && /^\d+$/.test(appdata.trim())) return { app, appdata: Number(appdata.trim()) }
  return { app, appdata }
}

/** One value as it travels, or undefined when it is dropped. */
function clean(field: Field, value: unknown): unknown {
  let out = value
  const delimiter = joinDelimiter(field)
  if (delimiter !== undefined && Array.isArray(out)) {
    out = out
      .map((item) => String(optionValue(item)).trim())
      .filter((item) => item !== '')
      .join(delimiter)
  }
  if (field.kind === 'number' || field.kind === 'slider') out = toNumber(out)
  if (field.storage === 'app') out = cleanDestination(field, out)
  if (field.storage === 'rows' && Array.isArray(out)) out = out.map((row: unknown) => cleanRow(field.fields ?? [], row))
  if (out === undefined || out === '' || (Array.isArray(out) && out.length === 0)) return undefined
  return out
}

function cleanRow(fields: readonly Field[], row: unknown): unknown {
  if (!row || typeof row !== 'object') return row
  const out: Values = {}
  for (const field of fields.filter(holdsValue)) {
    const value = clean(field, (row as Values)[field.name])
    if (value !== undefined) out[field.name] = value
  }
  return out
}

/** The body of a create (no `original`) or an update of `original` with the form's `values`. */
export function payloadFor(entity: Entity, values: Values, original?: Values | null): Payload {
  const params: Values = {}
  const files: MultipartEntry[] = []
  for (const field of entity.fields.filter(holdsValue)) {
    if (!(field.name in values)) continue
    const value = values[field.name]
    if (field.storage === 'file') {
      if (isBlob(value)) files.push([field.name, value])
      else if (value === null && !!original?.[field.name]) params[field.name] = null
      // Anything else is the existing file (its URL or name) and is omitted.
      continue
    }
    const out = clean(field, value)
    if (out !== undefined) params[field.name] = out
  }
  if (files.length === 0) return { json: params }
  return { multipart: [['params', JSON.stringify(params)], ...files] }
}

/**
 * The values a form starts from: a record as read from the API (joined lists split back into items), or the
 * field defaults for a new one.
 */
export function formValuesFor(entity: Entity, record?: Values | null): Values {
  const values: Values = {}
  for (const field of entity.fields.filter(holdsValue)) {
    const value = record ? record[field.name] : field.default
    if (value === undefined) continue
    const delimiter = joinDelimiter(field)
    values[field.name] = delimiter !== undefined && typeof value === 'string' ? splitItems(value, delimiter) : structuredClone(value)
  }
  return values
}

/** A delimited combobox's items: split on the delimiter, trimmed, blanks removed. */
export function splitItems(value: string, delimiter: string = DEFAULT_DELIMITER): string[] {
  return value
    .split(delimiter)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}
