import type { Delimiter, Entity, Field, FieldKind, FormTab, Option, Storage, Validation, Values } from '../../../../contract/entities/index.ts'
import { splitItems } from '../../../../contract/entities/index.ts'

// The form builder (service/forms) stores form field definitions (spec 001 §3: type, name, label, cols, value,
// min, max, multiple, api, required, readonly, options, mask, validation, delimiters, …). Its types are a separate
// set from the renderer's kinds; this is the one place that maps them, so the preview and the agent's call form draw
// a definition the same way.

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
  // A pop-up shows its default value as a read-only text the agent opens; it takes no input.
  popup: 'text',
}

const STORAGE: Partial<Record<FieldKind, Storage>> = {
  number: 'numeric',
  switch: 'bool',
  file: 'file',
  datetimepicker: 'timestamptz',
}

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

const num = (value: unknown): number | undefined => (value === '' || value === null || value === undefined || !Number.isFinite(Number(value)) ? undefined : Number(value))

/** The renderer kind of a builder type (unknown types draw as text). */
export function builderKind(type: unknown): FieldKind {
  return BUILDER_KINDS[String(type)] ?? 'text'
}

/** A builder definition as a renderer field; undefined without a name. */
export function builderField(def: Values): Field | undefined {
  const name = String(def.name ?? '').trim()
  if (!name) return undefined
  const type = String(def.type ?? 'text')
  const kind = builderKind(type)
  const multiple = def.multiple === true && ['select', 'autocomplete', 'api', 'combobox'].includes(kind)
  const validation = (type === 'cpf' || type === 'cnpj' ? type : def.validation || undefined) as Validation | undefined
  const lookup = typeof def.api === 'string' && def.api.trim() ? { path: def.api.trim(), value: 'id', label: 'description' } : undefined
  const delimiter = (def.delimiters === ',' ? ',' : ';') as Delimiter
  const options = itemsOf(def.options).map(optionOf)
  let storage: Storage = STORAGE[kind] ?? (multiple ? 'jsonb' : 'text')
  if (kind === 'combobox') storage = 'text'
  if ((kind === 'api' || kind === 'autocomplete') && !multiple) storage = 'int'
  return {
    name,
    kind,
    label: same(String(def.label ?? name)),
    cols: Number(def.cols) === 6 ? 6 : 12,
    storage,
    required: def.required === true,
    readonly: def.readonly === true || type === 'popup',
    multiple,
    min: num(def.min),
    max: num(def.max),
    ...(options.length ? { options } : {}),
    ...(type === 'cpf' || type === 'cnpj' ? { mask: type } : def.mask ? { mask: String(def.mask) } : {}),
    ...(validation ? { validation } : {}),
    ...(kind === 'combobox' ? { delimiters: [delimiter] } : {}),
    ...(lookup ? { lookup } : {}),
    ...(def.value !== undefined && def.value !== '' ? { default: kind === 'switch' ? def.value === 'true' : def.value } : {}),
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
