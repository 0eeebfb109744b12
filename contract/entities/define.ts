import { DEFAULT_ORDERING } from '../constants.ts'
import type { Area, EntityKey, NameIn } from './keys.ts'
import { apiPath } from './keys.ts'
import { DEFAULT_HOME, SECTIONS } from './types.ts'
import type { Action, Entity, Field, FormTab, Option, Scalar, Section, Texts } from './types.ts'

/** A text in the three interface languages, pt-BR first (the spec's labels are the source text). */
export function t(ptBR: string, enUS: string, esES: string): Texts {
  return { 'pt-BR': ptBR, 'en-US': enUS, 'es-ES': esES }
}

export function opt(value: Scalar, ptBR: string, enUS: string, esES: string): Option {
  return { value, text: t(ptBR, enUS, esES) }
}

/**
 * What an area file writes. `N` is inferred from the fields alone (the other places take `NoInfer<N>`), so a tab,
 * column or parent naming a field that does not exist is a type error.
 */
export type EntityInput<A extends Area, N extends string> = {
  readonly area: A
  readonly name: NameIn<A>
  readonly model: string
  /**
   * The top-level page the entity's list and form live under: 'settings' (the default) or a page of its own
   * ('clients' → /clients, /clients/create, /clients/3/edit). The SPA draws every home with the same list and form.
   */
  readonly home?: string
  /** Below the home, TanStack style: 'pabx/routes/outbound/$id/channels'; '' is the home itself. */
  readonly route: string
  /** The settings menu section; the route's first segment unless given (an entity outside /settings names it). */
  readonly section?: Section
  readonly label: { readonly singular: Texts; readonly plural: Texts }
  readonly fields: readonly Field<N>[]
  /** Defaults to 'description'. */
  readonly titleField?: NoInfer<N>
  readonly list?: { readonly columns?: readonly NoInfer<N | 'id'>[]; readonly ordering?: readonly string[] }
  /** Defaults to one 'general' tab holding every field in order. */
  readonly form?: { readonly tabs: readonly FormTab<NoInfer<N>>[] }
  readonly parent?: { readonly entity: EntityKey; readonly field: NoInfer<N>; readonly param?: string }
  readonly itemParam?: string
  readonly importable?: { readonly columns: readonly NoInfer<N>[] }
  readonly uniqueTogether?: readonly (readonly NoInfer<N>[])[]
  /** Actions no site role may take (a tenant's own sites: creating and deleting them is the platform operator's). */
  readonly platformActions?: readonly Action[]
  /** Codenames that may read (list and detail) besides the view one: the agent's call and chat forms read it. */
  readonly readers?: readonly string[]
  /**
   * The prefix of the codenames when the spec names them outside the area: CRM clients and leads are the spec's
   * `sites.view_client` and `sites.view_mailingclient` (000 §6), so their actions are `sites.<action>_<model>`.
   */
  readonly permissionArea?: string
}

/** The prefix of codenames no site role carries: the platform operator's acts (contract/all-permissions.ts). */
export const PLATFORM_AREA = 'platform'

export const GENERAL_TAB = t('Geral', 'General', 'General')

/** One settings entity: the single definition its API, table, list screen, routes, form and permissions come from. */
export function defineEntity<A extends Area, const N extends string>(input: EntityInput<A, N>): Entity {
  const key = `${input.area}.${input.name}` as EntityKey
  const names = input.fields.map((f) => f.name as string)
  const titleField = input.titleField ?? 'description'
  const hasActive = names.includes('is_active')
  const home = input.home ?? DEFAULT_HOME
  const section = input.section ?? (input.route.split('/')[0] as Section)
  if (!SECTIONS.includes(section)) throw new Error(`${key}: '${section}' is not a settings section`)
  const codename = (action: Action) => `${input.platformActions?.includes(action) ? PLATFORM_AREA : (input.permissionArea ?? input.area)}.${action}_${input.model}`
  return {
    key,
    area: input.area,
    name: input.name,
    model: input.model,
    section,
    home,
    route: input.route ? `/${home}/${input.route}` : `/${home}`,
    itemParam: input.itemParam ?? 'id',
    api: apiPath(key),
    permissions: {
      view: codename('view'),
      add: codename('add'),
      change: codename('change'),
      delete: codename('delete'),
    },
    ...(input.platformActions ? { platformActions: input.platformActions } : {}),
    label: input.label,
    fields: input.fields,
    titleField,
    list: {
      columns: input.list?.columns ?? ['id', ...(hasActive ? ['is_active'] : []), titleField],
      ordering: input.list?.ordering ?? (hasActive ? DEFAULT_ORDERING : ['id']),
      search: input.fields.filter((f) => f.searchable).map((f) => f.name),
    },
    form: input.form ?? { tabs: [{ key: 'general', label: GENERAL_TAB, fields: names }] },
    ...(input.parent ? { parent: { entity: input.parent.entity, field: input.parent.field, param: input.parent.param ?? 'id' } } : {}),
    ...(input.importable ? { importable: input.importable } : {}),
    ...(input.uniqueTogether ? { uniqueTogether: input.uniqueTogether } : {}),
    ...(input.readers ? { readers: input.readers } : {}),
  }
}
