import type { ChosenOption, Delimiter, Entity, Field, FieldKind, FormTab, Option, Storage, Validation, Values } from '../../../../contract/entities/index.ts'
import { splitItems } from '../../../../contract/entities/index.ts'

// The form builder (service/forms) stores form field definitions (spec 001 §3: type, name, label, cols, value,
// min, max, multiple, api, required, readonly, options, mask, validation, delimiters, returnObject, returnToString,
// date format, …). Its types are a separate set from the renderer's kinds; this is the one place that maps them, so
// the preview and the agent's call and chat forms draw a definition the same way. btn_phone and btn_chat become the
// field's btnPhone / btnChat (the renderer draws the call and chat buttons, src/entities/form/ContactButtons.tsx); a
// field with one holds a phone, so it is checked as one unless another validation is chosen. cryptography is not the
// renderer's.

const BUILDER_KINDS: Record<string, FieldKind> = {
  text: 'text',
  textarea: 'textarea',
  number: 'number',
  switch: 'switch',
  select: 'select',
  combobox: 'combobox',
  autocomplete: 'autocomplete',
  api: 'api',
  cpf: 'mask',
  cnpj: 'mask',
  file: 'file',
  datetimepicker: 'datetimepicker',
  hidden: 'hidden',
  // A pop-up is a read-only address (its default value) that the field's button opens in a window; it sends nothing.
  popup: 'text',
}

/** Kinds that may hold several values; a combobox always does (its items are chips). */
const LIST_KINDS: readonly FieldKind[] = ['select', 'autocomplete', 'api', 'combobox']
/** Kinds whose value may be the chosen option itself (returnObject). */
const CHOICE_KINDS: readonly FieldKind[] = ['select', 'autocomplete', 'api']

const same = (text: string) => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text })

/** 'value=Text' or just 'value' (the text is then the value). */
function optionOf(item: string): Option {
  const [value, ...rest] = item.split('=')
  const text = rest.length ? rest.join('=').trim() : value!.trim()
  return { value: value!.trim(), text: same(text) }
}

function itemsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter(Boolean)
  return typeof value === 'string' ? splitItems(value) : []
}

const num = (value: unknown): number | undefined =>
  value === '' || value === null || value === undefined || !Number.isFinite(Number(value)) ? undefined : Number(value)

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** The renderer kind of a builder type (unknown types draw as text). */
export function builderKind(type: unknown): FieldKind {
  return BUILDER_KINDS[String(type)] ?? 'text'
}

type Shape = Pick<Field, 'kind' | 'multiple' | 'returnObject' | 'returnToString' | 'delimiters' | 'dateFormat' | 'lookup'>

function storageOf({ kind, multiple, returnObject, returnToString, delimiters, dateFormat, lookup }: Shape): Storage {
  if (kind === 'file') return 'file'
  if (kind === 'switch') return 'bool'
  if (kind === 'number') return 'numeric'
  if (returnToString || (kind === 'combobox' && delimiters)) return 'text'
  if (returnObject || multiple) return 'jsonb'
  if (kind === 'datetimepicker') return dateFormat ? 'text' : 'timestamptz'
  return lookup ? 'int' : 'text'
}

/**
 * The default value as the field holds it: a switch's 'true', a list's items (a joined list keeps its text, which
 * formValuesFor splits), a chosen option ({ value, text }) for returnObject.
 */
function defaultOf(raw: unknown, shape: Shape, options: readonly Option[]): unknown {
  if (raw === undefined || raw === null || raw === '') return undefined
  if (shape.kind === 'switch') return raw === true || raw === 'true'
  const chosen = (value: string): ChosenOption => ({ value, text: options.find((o) => o.value === value)?.text['pt-BR'] ?? value })
  if (shape.multiple && !shape.returnToString && !(shape.kind === 'combobox' && shape.delimiters)) {
    const items = String(raw)
      .split(/[;,]/)
      .map((s) => s.trim())
      .filter(Boolean)
    return shape.returnObject ? items.map(chosen) : items
  }
  return shape.returnObject && !shape.returnToString ? chosen(String(raw).trim()) : raw
}

/** A builder definition as a renderer field; undefined without a name. */
export function builderField(def: Values): Field | undefined {
  const name = String(def.name ?? '').trim()
  if (!name) return undefined
  const type = String(def.type ?? 'text')
  const mask = type === 'cpf' || type === 'cnpj' ? type : type === 'text' ? textOf(def.mask) : ''
  // A text with a mask is typed through the mask input.
  const kind = mask ? 'mask' : builderKind(type)
  const api = textOf(def.api)
  const lookup = api && (kind === 'api' || kind === 'autocomplete') ? { path: api, value: 'id', label: 'description' } : undefined
  const multiple = kind === 'combobox' || (def.multiple === true && LIST_KINDS.includes(kind))
  const returnToString = multiple && def.return_to_string === true
  const returnObject = def.return_object === true && CHOICE_KINDS.includes(kind)
  const delimiter = def.delimiters === ',' || def.delimiters === ';' ? (def.delimiters as Delimiter) : undefined
  const delimiters = delimiter && (kind === 'combobox' || returnToString) ? [delimiter] : undefined
  const dateFormat = kind === 'datetimepicker' ? textOf(def.date_format) || undefined : undefined
  const contactButton = (def.btn_phone === true || def.btn_chat === true) && type === 'text'
  const validation = (type === 'cpf' || type === 'cnpj' ? type : type === 'popup' ? 'url' : def.validation || (contactButton ? 'phone' : undefined)) as
    Validation | undefined
  const options = itemsOf(def.options).map(optionOf)
  const shape: Shape = { kind, multiple, returnObject, returnToString, delimiters, dateFormat, lookup }
  const value = defaultOf(def.value, shape, options)
  return {
    name,
    kind,
    label: same(String(def.label ?? name)),
    cols: Number(def.cols) === 6 ? 6 : 12,
    storage: storageOf(shape),
    required: def.required === true,
    readonly: def.readonly === true || type === 'popup',
    multiple,
    min: num(def.min),
    max: num(def.max),
    ...(options.length ? { options } : {}),
    ...(mask ? { mask } : {}),
    ...(validation ? { validation } : {}),
    ...(contactButton && def.btn_phone === true ? { btnPhone: true } : {}),
    ...(contactButton && def.btn_chat === true ? { btnChat: true } : {}),
    ...(delimiters ? { delimiters } : {}),
    ...(returnObject ? { returnObject } : {}),
    ...(returnToString ? { returnToString } : {}),
    ...(dateFormat ? { dateFormat } : {}),
    ...(lookup ? { lookup } : {}),
    ...(value !== undefined ? { default: value } : {}),
  }
}

/** The definitions of a form as the renderer's fields and tabs (grouped by their `tab`, in order of appearance). */
export function builderForm(definitions: unknown): { fields: Field[]; tabs: FormTab[] } {
  const fields: Field[] = []
  const tabs: { key: string; label: FormTab['label']; fields: string[] }[] = []
  const seen = new Set<string>()
  for (const def of Array.isArray(definitions) ? (definitions as Values[]) : []) {
    const field = def && typeof def === 'object' ? builderField(def) : undefined
    if (!field || seen.has(field.name)) continue
    seen.add(field.name)
    fields.push(field)
    const tabName = String(def.tab ?? '').trim()
    let tab = tabs.find((t) => t.key === tabName)
    if (!tab) tabs.push((tab = { key: tabName, label: same(tabName), fields: [] }))
    tab.fields.push(field.name)
  }
  return { fields, tabs }
}

/** A throwaway entity holding the previewed fields, so they validate with the same valibotSchema. */
export function previewEntity(base: Entity, fields: Field[], tabs: FormTab[]): Entity {
  return { ...base, fields, form: { tabs }, parent: undefined, importable: undefined }
}
