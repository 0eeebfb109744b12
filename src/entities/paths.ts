import { ENTITIES } from '../../contract/entities/index.ts'
import type { Action, Entity } from '../../contract/entities/index.ts'

// The pages of every entity live under one splat route per home (`/settings/$`, or `/clients/$` for an entity whose
// home is 'clients'): this module turns the path below the home into an entity and a page, and back. Each entity's
// route template ('pabx/routes/outbound/$id/channels') takes these suffixes (spec 000 §2): '' (list), 'create'
// (?duplicate_id=), '{id}/edit', '{id}/delete'.

export type PageKind = 'list' | 'create' | 'edit' | 'delete'

export type SettingsPage = {
  readonly entity: Entity
  readonly kind: PageKind
  /** The parent's id of a sub-route entity (outbound route channels, call-group membership, …). */
  readonly parentId?: number
  /** The row of an edit or delete page. */
  readonly itemId?: number
  /** A list narrowed by one field (`/interactions/:interaction_id/:slug?`: the interactions of one type). */
  readonly filter?: Readonly<Record<string, number>>
  /**
   * A create page whose reference field is chosen by the slug of its row (`/interactions/:form`: a new interaction of
   * the type whose slug is :form, drawn with that type's form). The area resolves the slug (form/presets.ts).
   */
  readonly preset?: { readonly field: string; readonly slug: string }
}

/**
 * Homes whose list takes an optional id (and a slug, for readable links) naming the value of one field (spec 000 §2:
 * /interactions with optional :interaction_id and :slug — the interactions of one type, the slug being its name).
 */
const LIST_FILTERS: Readonly<Record<string, string>> = { interactions: 'interaction' }

/**
 * Homes whose create page may name, by its slug, the row a reference field starts with (spec 000 §2: /interactions/:form
 * — a new interaction of one type, with that type's form). A numeric segment is always an id (the list filter above).
 */
const CREATE_PRESETS: Readonly<Record<string, string>> = { interactions: 'interaction' }

const SLUG = /^[a-z0-9-]{1,100}$/

const ID = /^[1-9]\d{0,9}$/

/** The template segments of an entity below its home. */
function template(entity: Entity): string[] {
  return entity.route
    .slice(entity.home.length + 1)
    .split('/')
    .filter(Boolean)
}

// Per home, longest templates first, so 'pabx/moh/3/entries' is the entries list and not a malformed moh page.
const BY_HOME = new WeakMap<readonly Entity[], Map<string, Entity[]>>()

function entitiesOf(home: string, entities: readonly Entity[]): Entity[] {
  let homes = BY_HOME.get(entities)
  if (!homes) BY_HOME.set(entities, (homes = new Map()))
  let found = homes.get(home)
  if (!found) homes.set(home, (found = entities.filter((e) => e.home === home).sort((a, b) => template(b).length - template(a).length)))
  return found
}

function matchTemplate(entity: Entity, segments: string[]): { parentId?: number; rest: string[] } | undefined {
  const parts = template(entity)
  if (segments.length < parts.length) return undefined
  let parentId: number | undefined
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const segment = segments[i]!
    if (part.startsWith('$')) {
      if (!ID.test(segment)) return undefined
      parentId = Number(segment)
    } else if (part !== segment) return undefined
  }
  return { parentId, rest: segments.slice(parts.length) }
}

function pageOf(rest: string[]): { kind: PageKind; itemId?: number } | undefined {
  if (rest.length === 0) return { kind: 'list' }
  if (rest.length === 1 && rest[0] === 'create') return { kind: 'create' }
  if (rest.length === 2 && ID.test(rest[0]!) && (rest[1] === 'edit' || rest[1] === 'delete')) return { kind: rest[1], itemId: Number(rest[0]) }
  return undefined
}

/** The page a path below a home names ('pabx/devices/3/edit' below settings), or undefined (a 404). */
export function parseEntityPath(home: string, splat: string, entities: readonly Entity[] = ENTITIES): SettingsPage | undefined {
  const segments = splat.split('/').filter(Boolean)
  for (const entity of entitiesOf(home, entities)) {
    const matched = matchTemplate(entity, segments)
    if (!matched) continue
    const filterField = LIST_FILTERS[home]
    const rest = matched.rest
    if (filterField && template(entity).length === 0 && ID.test(rest[0] ?? '') && (rest.length === 1 || (rest.length === 2 && SLUG.test(rest[1]!) && rest[1] !== 'edit' && rest[1] !== 'delete'))) {
      return { entity, kind: 'list', filter: { [filterField]: Number(rest[0]) } }
    }
    const presetField = CREATE_PRESETS[home]
    if (presetField && template(entity).length === 0 && rest.length === 1 && SLUG.test(rest[0]!) && !/^\d+$/.test(rest[0]!) && rest[0] !== 'create') {
      return { entity, kind: 'create', preset: { field: presetField, slug: rest[0]! } }
    }
    const page = pageOf(rest)
    if (!page) continue
    return {
      entity,
      kind: page.kind,
      ...(matched.parentId !== undefined ? { parentId: matched.parentId } : {}),
      ...(page.itemId !== undefined ? { itemId: page.itemId } : {}),
    }
  }
  return undefined
}

/** The page a path below /settings/ names. */
export function parseSettingsPath(splat: string): SettingsPage | undefined {
  return parseEntityPath('settings', splat)
}

/** The path below its home of an entity's page: entityPath(trunksOfRoute, 'edit', { parentId: 7, itemId: 2 }). */
export function entityPath(entity: Entity, kind: PageKind, ids: { parentId?: number | string; itemId?: number | string } = {}): string {
  const base = template(entity).map((part) => (part.startsWith('$') ? String(ids.parentId ?? '') : part))
  if (kind === 'list') return base.join('/')
  if (kind === 'create') return [...base, 'create'].join('/')
  return [...base, String(ids.itemId), kind].join('/')
}

/** The settings entities' paths below /settings/ (every entity's home unless it names another). */
export const settingsPath = entityPath

const ACTION_OF: Record<PageKind, Action> = { list: 'view', create: 'add', edit: 'change', delete: 'delete' }

/** The codename a page needs: view for the list, add to create, change to edit, delete to delete. */
export function pagePermission(page: Pick<SettingsPage, 'entity' | 'kind'>): string {
  return page.entity.permissions[ACTION_OF[page.kind]]
}
