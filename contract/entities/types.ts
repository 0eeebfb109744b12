import type { Texts } from '../codes/localize.ts'
import type { Area, EntityKey } from './keys.ts'

export type { Texts }

/** The field types the dynamic form renderer hosts (spec 001 §3); every field is drawn as one of them. */
export const FIELD_KINDS = [
  'hidden',
  'text',
  'number',
  'textarea',
  'editor',
  'file',
  'select',
  'combobox',
  'autocomplete',
  'mask',
  'api',
  'api-join',
  'api-join-3',
  'app',
  'classification',
  'classificationWithCache',
  'datetimepicker',
  'hourpicker',
  'datetimebrowser',
  'btngroup',
  'radio',
  'checkbox',
  'switch',
  'slider',
  'datatable',
  'datatable-api',
  'tabs',
  'crud-index',
  'chat-messages',
  'divider',
] as const
export type FieldKind = (typeof FIELD_KINDS)[number]

/**
 * How the server stores a field (the next step derives Drizzle columns from it):
 * text, int, bool, numeric, timestamptz, jsonb — one column of that type;
 * fk — an integer column referencing `relation.entity`; m2m — a join table to `relation.entity`;
 * app — a destination, two columns `<name>_app` and `<name>_appdata`; file — a stored file name (uploads);
 * rows — a child table holding the `fields` of a datatable, one row per item; none — no value (layout, embeds).
 */
export const STORAGES = ['text', 'int', 'bool', 'numeric', 'timestamptz', 'jsonb', 'fk', 'm2m', 'app', 'file', 'rows', 'none'] as const
export type Storage = (typeof STORAGES)[number]

/** Named value checks (spec 001 §3 `validation`, plus the settings' own). */
export const VALIDATIONS = [
  'phone',
  'cpf',
  'cnpj',
  /** A CPF or a CNPJ, whichever its length says (a client's documents). */
  'cpf-cnpj',
  'email',
  'phones-list',
  'extension',
  'color',
  'url',
  'host',
  'dial-patterns',
  'date-format',
  'origin',
] as const
export type Validation = (typeof VALIDATIONS)[number]

export type Scalar = string | number | boolean
export type Option = { readonly value: Scalar; readonly text: Texts }
/** What a `returnObject` field holds: the chosen option itself, its text in the language it was chosen in. */
export type ChosenOption = { readonly value: Scalar; readonly text: string }
export type Delimiter = ';' | ','

/** Where a select-like field loads its choices: `GET path` (limit 999999), `value` and `label` keys of each row. */
export type Lookup = { readonly path: string; readonly value: string; readonly label: string }

/** What deleting the referenced row does: refuse (protect), delete this row too (cascade), or clear the reference. */
export type OnDelete = 'protect' | 'cascade' | 'setNull'

export type Relation = {
  readonly entity: EntityKey
  readonly many: boolean
  readonly onDelete: OnDelete
  /** An m2m edited from both sides: the name of the m2m field on `entity` that owns the join table. */
  readonly via?: string
}

/** A field condition on another field's value: one of some values, or set (non-empty) and none of some values. */
export type Condition = { readonly field: string; readonly oneOf: readonly Scalar[] } | { readonly field: string; readonly setAndNot: readonly Scalar[] }

/**
 * Secrets are never returned by the API, and an empty value on update keeps the stored one.
 * hash — a sign-in password, stored as an argon2id hash;
 * ha1 — a SIP digest secret: the server also keeps HA1 = md5(username:realm:secret) for Kamailio's auth_db;
 * opaque — a credential the server itself must send (trunk registration, API tokens), stored retrievable.
 */
export type SecretKind = 'hash' | 'ha1' | 'opaque'

/** Destination families: telephony apps (spec 000 §7 names them) and chat apps. */
export type AppFamily = 'pabx' | 'chat'

export type Field<N extends string = string> = {
  readonly name: N
  readonly kind: FieldKind
  readonly label: Texts
  readonly cols: 6 | 12
  readonly storage: Storage
  readonly required?: boolean
  /** Required only while the condition holds (e.g. the chat announcement rules). */
  readonly requiredWhen?: Condition
  /** Shown only while the condition holds. */
  readonly visibleWhen?: Condition
  /** Length for text, value for numbers, item count for lists. */
  readonly min?: number
  readonly max?: number
  readonly options?: readonly Option[]
  readonly multiple?: boolean
  readonly mask?: string
  readonly validation?: Validation
  /** A phone field's call button (spec 001 §3 btn_phone): the webphone dials the number and /phonecalls opens. */
  readonly btnPhone?: boolean
  /** A phone field's chat button (spec 001 §3 btn_chat): the chat workspace's template dialog opens for the number. */
  readonly btnChat?: boolean
  /** A combobox stored as one string: items joined and split on the first delimiter. */
  readonly delimiters?: readonly Delimiter[]
  /** select, autocomplete, api: the value is the chosen option ({ value, text }, a list with `multiple`), not its value. */
  readonly returnObject?: boolean
  /** A multiple field sent as one string joined on its first delimiter (',' unless it names one), not as a list. */
  readonly returnToString?: boolean
  /** datetimepicker: the dayjs format its value is shown and sent in ('DD/MM/YYYY HH:mm'); ISO 8601 when absent. */
  readonly dateFormat?: string
  readonly lookup?: Lookup
  readonly relation?: Relation
  /** For `app` fields: the family and the apps offered as destinations. */
  readonly family?: AppFamily
  readonly apps?: readonly string[]
  readonly default?: unknown
  readonly readonly?: boolean
  /** Set only by the platform operator (`npm run site`, server/cli): the API refuses to change it (403). */
  readonly platform?: boolean
  readonly hint?: Texts
  /** Unique within the site. */
  readonly unique?: boolean
  /** Matched by the list's `search` parameter. */
  readonly searchable?: boolean
  readonly secret?: SecretKind
  /** For `file` fields: the accepted MIME types, as in an `accept` attribute. */
  readonly accept?: string
  /** For datatable fields: the columns of each row. */
  readonly fields?: readonly Field[]
  /** For crud-index fields: the child entity listed inside this form. */
  readonly embeds?: EntityKey
}

export type FormTab<N extends string = string> = { readonly key: string; readonly label: Texts; readonly fields: readonly N[] }

export const ACTIONS = ['view', 'add', 'change', 'delete'] as const
export type Action = (typeof ACTIONS)[number]

/** The settings menu sections (first segment below /settings). */
export const SECTIONS = ['business', 'crm', 'service', 'pabx', 'chat', 'system'] as const
export type Section = (typeof SECTIONS)[number]

export type Parent = {
  readonly entity: EntityKey
  /** The field of this entity holding the parent's id (hidden in the form, filled from the route). */
  readonly field: string
  /** The route parameter carrying the parent's id. */
  readonly param: string
}

/** Where an entity's pages live unless it names another home. */
export const DEFAULT_HOME = 'settings'

export type Entity = {
  readonly key: EntityKey
  readonly area: Area
  readonly name: string
  /** Django-style model name: the suffix of the permission codenames. */
  readonly model: string
  readonly section: Section
  /** The top-level page its list and form live under ('settings', 'clients'). */
  readonly home: string
  /** The list page, TanStack style: '/settings/pabx/routes/outbound/$id/channels' (always below `/${home}`). */
  readonly route: string
  /** The route parameter naming one item (`{route}/${itemParam}/edit`); 'id' unless the spec names another. */
  readonly itemParam: string
  /** `/api/v1/<area>/<name>/`: list and create; `{api}{id}/` reads, updates and deletes. */
  readonly api: string
  readonly permissions: Readonly<Record<Action, string>>
  /** Actions only the platform operator takes: their codename is `platform.<action>_<model>`, which no group holds. */
  readonly platformActions?: readonly Action[]
  readonly label: { readonly singular: Texts; readonly plural: Texts }
  readonly fields: readonly Field[]
  /** The field that names a row in lookups, lists and delete confirmations. */
  readonly titleField: string
  readonly list: { readonly columns: readonly string[]; readonly ordering: readonly string[]; readonly search: readonly string[] }
  readonly form: { readonly tabs: readonly FormTab[] }
  readonly parent?: Parent
  /** CSV import: the columns of the file, in order. */
  readonly importable?: { readonly columns: readonly string[] }
  readonly uniqueTogether?: readonly (readonly string[])[]
  /** Codenames that may read (list and detail) besides `permissions.view` (the agent's call and chat forms). */
  readonly readers?: readonly string[]
}
