import * as v from 'valibot'
import { MAX_INT } from '../constants.ts'
import { dayjs } from '../format/dayjs.ts'
import { destinationApp } from './apps.ts'
import type { EntityMessageKey } from './messages.ts'
import { entityMessage } from './messages.ts'
import type { Condition, Entity, Field } from './types.ts'
import { VALIDATORS, invalidDialPatterns, invalidPhones } from './validators.ts'

// The create/update body schema of an entity, built from its fields (spec 001 §5). The server parses request bodies
// with it (`v.safeParse(schema, body, { lang })` answers in the request's language); the SPA validates forms with it.
//
// Every field's own schema accepts an empty value ('' / null / [] / absent) and checks only what was typed; whether a
// value is needed is decided once, for the whole object, from `required` and `requiredWhen`. So a missing key, an
// empty string and a blank destination all answer 'Este campo é obrigatório' (or the date message for dates).
// Files are not part of the body: uploads travel as multipart parts, and a `null` asks to remove the current file.
// Secrets are not required on update (empty keeps the stored one). Read-only and layout fields are dropped.

export type SchemaMode = 'create' | 'update'
export type Values = Record<string, unknown>
export type EntitySchema = v.GenericSchema<unknown, Values>
type Schema = v.GenericSchema<unknown, unknown>
// Pipe items chain arbitrary input and output types: the steps are assembled at run time from the field.
type Item = v.PipeItem<any, any, v.BaseIssue<unknown>>

/** Spec 001 §5: a combobox with delimiters joins and splits on the first one, ';' unless it names one. */
export const DEFAULT_DELIMITER = ';'
/** A `returnToString` field joins its items on its first delimiter, ',' unless it names one. */
export const RETURN_TO_STRING_DELIMITER = ','

/** What a multiple field's items are joined on when it travels as one string; undefined when it travels as a list. */
export function joinDelimiter(field: Field): string | undefined {
  if (field.returnToString) return field.delimiters?.[0] ?? RETURN_TO_STRING_DELIMITER
  if (field.kind === 'combobox' && field.delimiters !== undefined) return field.delimiters[0] ?? DEFAULT_DELIMITER
  return undefined
}

/** The value of a chosen option ({ value, text }, a `returnObject` field's value); anything else as it is. */
export function optionValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'value' in value ? (value as { value: unknown }).value : value
}

/** v.pipe over a list built at run time (the typed overloads want a literal tuple). */
const pipeOf = (schema: v.GenericSchema, items: readonly (Item | false | undefined)[]): Schema =>
  (v.pipe as unknown as (...args: unknown[]) => Schema)(schema, ...items.filter(Boolean))

/** A check on the value the step before it produced. */
const check = (ok: (value: any) => boolean, message: (issue: v.BaseIssue<unknown>) => string): Item => v.check(ok, message)

const say =
  (key: EntityMessageKey, params?: Record<string, string | number>) =>
  (issue: v.BaseIssue<unknown>): string =>
    entityMessage(key, issue.lang, params)

/** Absent, null, blank text, an empty list or a destination without an app. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (typeof value === 'string') return value.trim() === ''
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object' && 'app' in value) return isEmpty((value as { app: unknown }).app)
  return false
}

/** Whether a condition on another field holds; values compare as text (a select may hold 3 or '3'). */
export function conditionHolds(condition: Condition | undefined, values: Values): boolean {
  if (!condition) return true
  const value = optionValue(values[condition.field])
  const same = (x: unknown) => x === value || (value !== null && value !== undefined && String(x) === String(value))
  if ('oneOf' in condition) return condition.oneOf.some(same)
  return !isEmpty(value) && !condition.setAndNot.some(same)
}

/** Whether a form needs a value for the field now (the renderer stars it; the schema enforces it). */
export function isRequired(field: Field, values: Values, mode: SchemaMode = 'create'): boolean {
  if (!holdsValue(field) || field.storage === 'file') return false
  if (field.secret && mode === 'update') return false
  if (!conditionHolds(field.visibleWhen, values)) return false
  return field.required === true || (field.requiredWhen !== undefined && conditionHolds(field.requiredWhen, values))
}

/** Fields whose value goes in a body: not layout, not embedded lists, not read-only. */
export function holdsValue(field: Field): boolean {
  return field.storage !== 'none' && !field.readonly
}

const DATE_KINDS = new Set(['datetimepicker', 'datetimebrowser'])
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** An ISO date or date-time (the datetime-local input's value, with seconds) naming a real calendar day and time. */
export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATETIME.exec(value)
  if (!m) return false
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[]
  const date = new Date(Date.UTC(year!, month! - 1, day!))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60
}

function optionCheck(field: Field) {
  const allowed = new Set((field.options ?? []).map((o) => String(o.value)))
  return (value: unknown) => allowed.size === 0 || isEmpty(value) || allowed.has(String(value))
}

function validationCheck(field: Field): Item | undefined {
  const rule = field.validation
  if (!rule) return undefined
  if (rule === 'phones-list')
    return check(
      (s: string) => s === '' || invalidPhones(s).length === 0,
      (issue) => entityMessage('invalidPhonesList', issue.lang, { phones: invalidPhones(String(issue.input)).join(', ') }),
    )
  if (rule === 'dial-patterns')
    return check(
      (s: string) => s === '' || invalidDialPatterns(s).length === 0,
      (issue) => entityMessage('invalidDialPatterns', issue.lang, { patterns: invalidDialPatterns(String(issue.input)).join(', ') }),
    )
  const keys: Record<typeof rule, EntityMessageKey> = {
    phone: 'invalidPhone',
    cpf: 'invalidCpf',
    cnpj: 'invalidCnpj',
    'cpf-cnpj': 'invalidDocument',
    email: 'invalidEmail',
    extension: 'invalidExtension',
    color: 'invalidColor',
    url: 'invalidUrl',
    host: 'invalidHost',
    'date-format': 'invalidDateFormat',
    origin: 'invalidOrigin',
  }
  // In a delimited list each item is checked on its own.
  const delimiter = field.delimiters ? (field.delimiters[0] ?? DEFAULT_DELIMITER) : undefined
  const ok = (s: string) => (delimiter ? s.split(delimiter).every((item) => item.trim() === '' || VALIDATORS[rule](item.trim())) : VALIDATORS[rule](s))
  return check((s: string) => s === '' || ok(s), say(keys[rule]))
}

function textSchema(field: Field): Schema {
  const delimiter = field.delimiters ? (field.delimiters[0] ?? DEFAULT_DELIMITER) : undefined
  const base = delimiter
    ? pipeOf(v.union([v.string(), v.array(v.string())], say('invalidValue')), [
        v.transform((x: string | string[]) =>
          Array.isArray(x)
            ? x
                .map((s) => s.trim())
                .filter(Boolean)
                .join(delimiter)
            : x,
        ),
      ])
    : v.string(say('invalidValue'))
  const { min, max } = field
  return pipeOf(base, [
    !field.secret && v.trim(),
    !!min && check((s: string) => s === '' || s.length >= min, say('minLength', { n: min })),
    max !== undefined && check((s: string) => s.length <= max, say('maxLength', { n: max })),
    !!field.options && check(optionCheck(field), say('invalidOption')),
    field.kind === 'hourpicker' && check((s: string) => s === '' || /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(s), say('invalidTime')),
    validationCheck(field),
  ])
}

function numberSchema(field: Field): Schema {
  const min = field.min ?? 0
  const max = field.max
  const finite = (x: number | null): x is number => x !== null && Number.isFinite(x)
  return pipeOf(v.union([v.number(), v.string()], say('invalidNumber')), [
    // A pt-BR decimal comma is accepted from text inputs.
    v.transform((x: number | string) => (typeof x === 'number' ? x : x.trim() === '' ? null : Number(x.trim().replace(',', '.')))),
    check((x: number | null) => x === null || Number.isFinite(x), say('invalidNumber')),
    field.storage === 'int' && check((x: number | null) => !finite(x) || Number.isInteger(x), say('notInteger')),
    check((x: number | null) => !finite(x) || x >= min, say('minValue', { n: min })),
    // An integer column holds no more than MAX_INT, whatever the field allows.
    field.storage === 'int' && max === undefined && check((x: number | null) => !finite(x) || x <= MAX_INT, say('maxValue', { n: MAX_INT })),
    max !== undefined && check((x: number | null) => !finite(x) || x <= max, say('maxValue', { n: max })),
    !!field.options && check(optionCheck(field), say('invalidOption')),
  ])
}

/** A reference: an id, its text, or a looked-up row ({id, description}). */
const idSchema = pipeOf(v.union([v.number(), v.string(), v.object({ id: v.union([v.number(), v.string()]) })], say('invalidReference')), [
  v.transform((x: number | string | { id: number | string }) => {
    const id = typeof x === 'object' ? x.id : x
    return id === '' ? null : Number(id)
  }),
  check((id: number | null) => id === null || isRowId(id), say('invalidReference')),
])

/** A row id: a whole number an integer column holds. */
export function isRowId(value: unknown): boolean {
  const id = typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : value
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= MAX_INT
}

function countChecks(field: Field): Item[] {
  const { min, max } = field
  return [
    !!min && check((xs: unknown[]) => xs.length === 0 || xs.length >= min, say('minItems', { n: min })),
    max !== undefined && check((xs: unknown[]) => xs.length <= max, say('maxItems', { n: max })),
  ].filter((x): x is Item => !!x)
}

function listSchema(field: Field): Schema {
  // Options are checked on the whole list so the error sits on the field, not on one chip.
  const options = optionCheck(field)
  return pipeOf(v.array(v.union([v.string(), v.number()], say('invalidValue')), say('invalidValue')), [
    !!field.options && check((xs: unknown[]) => xs.every(options), say('invalidOption')),
    ...countChecks(field),
  ])
}

/** A hidden jsonb field holds a document the page fills (a custom form's values): an object of plain values. */
const documentSchema = v.record(
  v.pipe(v.string(), v.maxLength(100)),
  v.union([v.string(), v.number(), v.boolean(), v.null(), v.array(v.unknown()), v.record(v.string(), v.unknown())]),
  say('invalidValue'),
) as Schema

const chosenOption = v.object({ value: v.union([v.string(), v.number()]), text: v.string() }, say('invalidValue'))

/** The value check of one chosen option: one of the fixed options, or a row id of a lookup. */
function chosenCheck(field: Field): (value: unknown) => boolean {
  const allowed = optionCheck(field)
  return field.lookup ? (value) => isRowId(typeof value === 'number' ? value : String(value)) : allowed
}

/** returnObject: the chosen option itself ({ value, text }), or a list of them with `multiple`. */
function chosenSchema(field: Field): Schema {
  const ok = chosenCheck(field)
  const message = say(field.lookup ? 'invalidReference' : 'invalidOption')
  if (field.multiple)
    return pipeOf(v.array(chosenOption, say('invalidValue')), [
      check((xs: { value: unknown }[]) => xs.every((x) => ok(x.value)), message),
      ...countChecks(field),
    ])
  return pipeOf(v.union([v.literal(''), chosenOption], say('invalidValue')), [
    v.transform((x: '' | { value: unknown }) => (x === '' ? null : x)),
    check((x: { value: unknown } | null) => x === null || ok(x.value), message),
  ])
}

/**
 * returnToString: a multiple field's items as one string joined on its delimiter. A list (chosen options included)
 * is joined here too; options and the item counts (min, max) are checked on the items.
 */
function joinedSchema(field: Field): Schema {
  const delimiter = joinDelimiter(field) ?? RETURN_TO_STRING_DELIMITER
  const ok = chosenCheck(field)
  const itemsOf = (x: string | unknown[]): string[] =>
    (Array.isArray(x) ? x.map((item) => String(optionValue(item))) : x.split(delimiter)).map((item) => item.trim()).filter(Boolean)
  const item = v.union([v.string(), v.number(), chosenOption])
  return pipeOf(v.union([v.string(), v.array(item)], say('invalidValue')), [
    v.transform(itemsOf),
    (!!field.options || !!field.lookup) && check((xs: string[]) => xs.every(ok), say(field.lookup ? 'invalidReference' : 'invalidOption')),
    ...countChecks(field),
    v.transform((xs: string[]) => xs.join(delimiter)),
  ])
}

/** datetimepicker with a dateFormat: the text in that dayjs format, naming a real date (strict parsing). */
function formattedDateSchema(format: string): Schema {
  return pipeOf(v.string(say('invalidDate')), [v.trim(), check((s: string) => s === '' || dayjs(s, format, true).isValid(), say('invalidDate'))])
}

function appSchema(field: Field): Schema {
  const family = field.family ?? 'pabx'
  const apps = new Set(field.apps ?? [])
  type App = { app: string; appdata: string }
  const valid = (d: App | null) => {
    if (d === null) return true
    const app = destinationApp(family, d.app)
    if (!app || !apps.has(d.app)) return false
    if (app.appdata === 'id') return isRowId(d.appdata)
    if (app.appdata === 'number') return /^\+?[0-9*#]{1,20}$/.test(d.appdata)
    return true
  }
  return pipeOf(
    v.union([v.literal(''), v.object({ app: v.string(), appdata: v.optional(v.nullable(v.union([v.string(), v.number()]))) })], say('invalidDestination')),
    [
      v.transform((x: '' | { app: string; appdata?: string | number | null }): App | null =>
        x === '' || x.app.trim() === '' ? null : { app: x.app.trim(), appdata: x.appdata === null || x.appdata === undefined ? '' : String(x.appdata).trim() },
      ),
      check(valid, say('invalidDestination')),
      // Apps without appdata (hang up, close) store none.
      v.transform((d: App | null) => (d && destinationApp(family, d.app)?.appdata === 'none' ? { app: d.app, appdata: '' } : d)),
    ],
  )
}

function rowsSchema(field: Field, mode: SchemaMode): Schema {
  const subFields = field.fields ?? []
  const unique = subFields.filter((f) => f.unique)
  return pipeOf(v.array(fieldsSchema(subFields, mode), say('invalidValue')), [
    ...countChecks(field),
    // A raw check runs even when some row is invalid, so a repeated key shows at once, on the repeating row.
    unique.length > 0 &&
      v.rawCheck(({ dataset, addIssue }) => {
        if (!Array.isArray(dataset.value)) return
        const rows = dataset.value as unknown[]
        for (const f of unique) {
          const seen = new Set<string>()
          rows.forEach((row, index) => {
            const value = row && typeof row === 'object' ? (row as Values)[f.name] : undefined
            if (isEmpty(value)) return
            const key = JSON.stringify(value)
            if (!seen.has(key)) return void seen.add(key)
            addIssue({
              message: say('duplicateValue', { value: typeof value === 'object' ? key : String(value) }),
              path: [
                { type: 'array', origin: 'value', input: rows, key: index, value: row },
                { type: 'object', origin: 'value', input: row as Values, key: f.name, value },
              ],
            })
          })
        }
      }),
  ])
}

function valueSchema(field: Field, mode: SchemaMode): Schema | undefined {
  // The form-definition attributes reshape a value whatever its storage.
  if (field.returnToString) return joinedSchema(field)
  if (field.returnObject) return chosenSchema(field)
  if (field.dateFormat && DATE_KINDS.has(field.kind)) return formattedDateSchema(field.dateFormat)
  switch (field.storage) {
    case 'text':
      return textSchema(field)
    case 'int':
    case 'numeric':
      return numberSchema(field)
    case 'bool':
      return v.boolean(say('invalidValue')) as Schema
    case 'timestamptz':
      return pipeOf(v.string(say('invalidDate')), [v.trim(), check((s: string) => s === '' || isIsoDateTime(s), say('invalidDate'))])
    case 'jsonb':
      return field.kind === 'hidden' ? documentSchema : listSchema(field)
    case 'fk':
      return idSchema
    case 'm2m':
      return pipeOf(v.array(idSchema, say('invalidReference')), countChecks(field))
    case 'app':
      return appSchema(field)
    case 'file':
      return v.null(say('invalidValue')) as Schema
    case 'rows':
      return rowsSchema(field, mode)
    case 'none':
      return undefined
  }
}

function fieldsSchema(fields: readonly Field[], mode: SchemaMode): EntitySchema {
  const body = fields.filter(holdsValue)
  const entries: Record<string, Schema> = {}
  for (const field of body) {
    const schema = valueSchema(field, mode)
    if (!schema) continue
    const inner = v.nullable(schema)
    entries[field.name] = (field.default === undefined ? v.optional(inner) : v.optional(inner, () => structuredClone(field.default))) as Schema
  }
  return pipeOf(v.object(entries, say('invalidValue')), [
    v.rawCheck(({ dataset, addIssue }) => {
      const values = dataset.value
      if (!values || typeof values !== 'object' || Array.isArray(values)) return
      const record = values as Values
      for (const field of body) {
        if (!isRequired(field, record, mode) || !isEmpty(record[field.name])) continue
        addIssue({
          message: say(DATE_KINDS.has(field.kind) ? 'invalidDate' : 'required'),
          path: [{ type: 'object', origin: 'value', input: record, key: field.name, value: record[field.name] }],
        })
      }
    }),
  ]) as EntitySchema
}

const cache = new WeakMap<Entity, Record<SchemaMode, EntitySchema | undefined>>()

/** The body schema of a create (POST) or update (PUT, a full replacement) of the entity. */
export function valibotSchema(entity: Entity, mode: SchemaMode): EntitySchema {
  const cached = cache.get(entity) ?? { create: undefined, update: undefined }
  cache.set(entity, cached)
  return (cached[mode] ??= fieldsSchema(entity.fields, mode))
}

/** DRF-style field errors (`{field: [message]}`, nested for rows) from a failed parse. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string[]> {
  const flat = v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]])
  return { ...(flat.root ? { non_field_errors: flat.root } : {}), ...(flat.nested as Record<string, string[]>) }
}
