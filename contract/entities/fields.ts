import type { EntityKey } from './keys.ts'
import { apiPath } from './keys.ts'
import { t } from './define.ts'
import type { AppFamily, Condition, Delimiter, Field, FieldKind, OnDelete, Option, SecretKind, Storage, Texts } from './types.ts'

// Field builders used by the area files. Each fills what follows from the kind (storage, width, sensible limits) so
// a definition reads as the form an administrator sees.

type Extra = Partial<Omit<Field, 'name' | 'kind' | 'label'>>

const WIDE: readonly FieldKind[] = ['textarea', 'editor', 'datatable', 'datatable-api', 'tabs', 'crud-index', 'chat-messages', 'divider']
const NO_VALUE: readonly FieldKind[] = ['divider', 'tabs', 'crud-index', 'chat-messages']
const LOOKUPS: readonly FieldKind[] = ['autocomplete', 'api', 'api-join', 'api-join-3']

function storageOf(kind: FieldKind, extra: Extra): Storage {
  if (extra.relation) return extra.relation.many ? 'm2m' : 'fk'
  if (NO_VALUE.includes(kind)) return 'none'
  // Joined items and formatted dates travel as text; chosen options ({ value, text }) as JSON.
  if (extra.returnToString || (extra.dateFormat && kind === 'datetimepicker')) return 'text'
  if (extra.returnObject) return 'jsonb'
  if (LOOKUPS.includes(kind)) return extra.multiple ? 'jsonb' : 'int'
  switch (kind) {
    case 'switch':
    case 'checkbox':
      return 'bool'
    case 'number':
    case 'slider':
      return 'int'
    case 'datetimepicker':
    case 'datetimebrowser':
      return 'timestamptz'
    case 'file':
      return 'file'
    case 'app':
      return 'app'
    case 'datatable':
    case 'datatable-api':
      return 'rows'
    case 'classification':
    case 'classificationWithCache':
      return 'jsonb'
    case 'combobox':
      return extra.delimiters ? 'text' : 'jsonb'
    case 'select':
    case 'radio':
    case 'btngroup':
      if (extra.multiple) return 'jsonb'
      return extra.options?.every((o) => typeof o.value === 'number') ? 'int' : 'text'
    default:
      return 'text'
  }
}

/** Any field; the helpers below cover the usual ones. */
export function field<const N extends string>(name: N, kind: FieldKind, label: Texts, extra: Extra = {}): Field<N> {
  return { name, kind, label, ...extra, cols: extra.cols ?? (WIDE.includes(kind) ? 12 : 6), storage: extra.storage ?? storageOf(kind, extra) }
}

export const text = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'text', label, { max: 255, ...extra })

export const textarea = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'textarea', label, { max: 4096, ...extra })

/** A whole number; the minimum defaults to 0 (spec 001 §5). */
export const integer = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'number', label, { min: 0, ...extra, storage: 'int' })

export const decimal = <const N extends string>(name: N, label: Texts, extra: Extra = {}) =>
  field(name, 'number', label, { min: 0, ...extra, storage: 'numeric' })

export const toggle = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'switch', label, { default: false, ...extra })

export const choice = <const N extends string>(name: N, label: Texts, options: readonly Option[], extra: Extra = {}) =>
  field(name, 'select', label, { options, ...extra })

/** A many-to-one reference, loaded from the target's API. Required references protect their target by default. */
export function fk<const N extends string>(
  name: N,
  label: Texts,
  entity: EntityKey,
  extra: Extra & { onDelete?: OnDelete; title?: string; kind?: FieldKind } = {},
): Field<N> {
  const { onDelete, title, kind, ...rest } = extra
  return field(name, kind ?? 'api', label, {
    relation: { entity, many: false, onDelete: onDelete ?? (rest.required ? 'protect' : 'setNull') },
    lookup: { path: apiPath(entity), value: 'id', label: title ?? 'description' },
    ...rest,
  })
}

/** A many-to-many reference. Deleting a target removes the link unless `onDelete: 'protect'`. */
export function many<const N extends string>(
  name: N,
  label: Texts,
  entity: EntityKey,
  extra: Extra & { onDelete?: OnDelete; title?: string; via?: string } = {},
): Field<N> {
  const { onDelete, title, via, ...rest } = extra
  return field(name, 'autocomplete', label, {
    multiple: true,
    relation: { entity, many: true, onDelete: onDelete ?? 'cascade', ...(via ? { via } : {}) },
    lookup: { path: apiPath(entity), value: 'id', label: title ?? 'description' },
    ...rest,
  })
}

/** The parent's id in a sub-route entity: hidden, filled from the route, deleted with the parent. */
export const parentRef = <const N extends string>(name: N, label: Texts, entity: EntityKey) =>
  fk(name, label, entity, { kind: 'hidden', required: true, onDelete: 'cascade' })

/** A destination (app + appdata): where a call or chat goes. Destinations protect what they point to. */
export const destination = <const N extends string>(name: N, label: Texts, family: AppFamily, apps: readonly string[], extra: Extra = {}) =>
  field(name, 'app', label, { family, apps, ...extra })

export const upload = <const N extends string>(name: N, label: Texts, accept: string, extra: Extra = {}) => field(name, 'file', label, { accept, ...extra })

export const datetime = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'datetimepicker', label, extra)

/** A time of day, HH:mm. */
export const hour = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'hourpicker', label, { mask: '##:##', ...extra })

/** A list edited as a table; each row holds `fields`. */
export const rows = <const N extends string>(name: N, label: Texts, fields: readonly Field[], extra: Extra = {}) =>
  field(name, 'datatable', label, { fields, ...extra })

/** Free items typed as chips, stored as one string joined on `delimiter`. */
export const items = <const N extends string>(name: N, label: Texts, delimiter: Delimiter, extra: Extra = {}) =>
  field(name, 'combobox', label, { multiple: true, delimiters: [delimiter], max: 4096, ...extra })

export const secret = <const N extends string>(name: N, label: Texts, kind: SecretKind, extra: Extra = {}) =>
  field(name, 'text', label, { secret: kind, max: 128, ...extra })

export const color = <const N extends string>(name: N, label: Texts, extra: Extra = {}) => field(name, 'text', label, { validation: 'color', max: 7, ...extra })

/** A child entity's list embedded in this form (it needs the saved parent, so it shows on edit). */
export const embed = <const N extends string>(name: N, label: Texts, entity: EntityKey) => field(name, 'crud-index', label, { embeds: entity })

export const description = ({ label, ...extra }: Extra & { label?: Texts } = {}) =>
  text('description', label ?? t('Descrição', 'Description', 'Descripción'), { required: true, searchable: true, ...extra })

export const isActive = () => toggle('is_active', t('Ativo', 'Active', 'Activo'), { default: true })

/** Show and require a field together while a condition holds. */
export const when = (condition: Condition): Extra => ({ visibleWhen: condition, requiredWhen: condition })

/**
 * A time condition (inbound routes, IVRs): the business-hours calendar and where callers go outside its hours, shown
 * once a calendar is chosen.
 */
export function calendarCondition(apps: Parameters<typeof destination>[3]) {
  return [
    fk('calendar', t('Calendário de atendimento', 'Business-hours calendar', 'Calendario de atención'), 'service.calendars'),
    destination(
      'closed_destination',
      t('Destino fora do horário', 'Out-of-hours destination', 'Destino fuera de horario'),
      'pabx',
      apps,
      when({ field: 'calendar', setAndNot: [] }),
    ),
  ]
}
