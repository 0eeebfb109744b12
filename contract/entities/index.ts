import { DESTINATION_APPS } from './apps.ts'
import { BUILDER } from './builder.ts'
import { BUSINESS } from './business.ts'
import { CHAT } from './chat.ts'
import { CRM } from './crm.ts'
import { CRM_RECORDS } from './crm-records.ts'
import { SHIPMENTS } from './shipments.ts'
import { INTEGRATION } from './integration.ts'
import type { EntityKey } from './keys.ts'
import { PABX_MEDIA } from './pabx-media.ts'
import { PABX_ROUTES } from './pabx-routes.ts'
import { PABX } from './pabx.ts'
import { CLASSIFICATIONS } from './service-classifications.ts'
import { QUEUES } from './service-queues.ts'
import { SERVICE } from './service.ts'
import { DEFAULT_HOME } from './types.ts'
import type { Action, Entity, Field, OnDelete, Section } from './types.ts'

// The registry: every settings entity, found by key, by route or by API path, and what refers to what.

export const ENTITIES: readonly Entity[] = [
  ...BUSINESS,
  ...CRM,
  ...CRM_RECORDS,
  ...SHIPMENTS,
  ...SERVICE,
  ...CLASSIFICATIONS,
  ...QUEUES,
  ...PABX,
  ...PABX_ROUTES,
  ...PABX_MEDIA,
  ...CHAT,
  ...INTEGRATION,
  ...BUILDER,
]

const BY_KEY: ReadonlyMap<string, Entity> = new Map(ENTITIES.map((e) => [e.key, e]))
const BY_ROUTE: ReadonlyMap<string, Entity> = new Map(ENTITIES.map((e) => [e.route, e]))
const BY_API: ReadonlyMap<string, Entity> = new Map(ENTITIES.map((e) => [e.api, e]))

export function entityByKey(key: EntityKey): Entity {
  const entity = BY_KEY.get(key)
  if (!entity) throw new Error(`No settings entity ${key}`)
  return entity
}

export function findEntity(key: string): Entity | undefined {
  return BY_KEY.get(key)
}

/** By route template ('/settings/pabx/routes/outbound/$id/channels') or by a list page's path ('…/outbound/7/channels'). */
export function entityByRoute(path: string): Entity | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path
  const exact = BY_ROUTE.get(clean)
  if (exact) return exact
  const segments = clean.split('/')
  return ENTITIES.find((e) => {
    const template = e.route.split('/')
    return template.length === segments.length && template.every((part, i) => (part.startsWith('$') ? segments[i] !== '' : part === segments[i]))
  })
}

export function entityByApi(path: string): Entity | undefined {
  return BY_API.get(path.endsWith('/') ? path : `${path}/`)
}

/** Entities listed under a parent's item (outbound route trunks, call group membership, …). */
export function childrenOf(key: EntityKey): Entity[] {
  return ENTITIES.filter((e) => e.parent?.entity === key)
}

export type Reference = {
  readonly entity: Entity
  /** The field path: ['destination'], or ['options', 'audio'] inside a datatable. */
  readonly path: readonly string[]
  readonly field: Field
  readonly kind: 'fk' | 'm2m' | 'app'
  readonly onDelete: OnDelete
}

function referencesIn(entity: Entity, fields: readonly Field[], target: EntityKey, prefix: readonly string[]): Reference[] {
  const found: Reference[] = []
  for (const field of fields) {
    const path = [...prefix, field.name]
    if (field.relation?.entity === target) found.push({ entity, path, field, kind: field.relation.many ? 'm2m' : 'fk', onDelete: field.relation.onDelete })
    if (field.storage === 'app' && field.family) {
      const apps = DESTINATION_APPS[field.family]
      if ((field.apps ?? []).some((app) => apps[app]?.entity === target)) found.push({ entity, path, field, kind: 'app', onDelete: 'protect' })
    }
    if (field.fields) found.push(...referencesIn(entity, field.fields, target, path))
  }
  return found
}

/** Every field, in any entity, that can point to a row of `key`, and what deleting that row does to it. */
export function referencesTo(key: EntityKey): Reference[] {
  return ENTITIES.flatMap((entity) => referencesIn(entity, entity.fields, key, []))
}

/** The references that refuse a delete (checked by the server before DELETE {api}{id}/). */
export function protectedBy(key: EntityKey): Reference[] {
  return referencesTo(key).filter((r) => r.onDelete === 'protect')
}

/** Every permission codename of the settings entities a group may hold (to be listed with contract/permissions.ts). */
export const ENTITY_PERMISSIONS: readonly string[] = ENTITIES.flatMap((e) =>
  Object.entries(e.permissions).flatMap(([action, codename]) => (e.platformActions?.includes(action as Action) ? [] : [codename])),
)

/** The platform operator's codenames (`platform.add_site`): routes may name them, no group may hold them. */
export const PLATFORM_PERMISSIONS: readonly string[] = ENTITIES.flatMap((e) => (e.platformActions ?? []).map((action) => e.permissions[action]))

/** A settings menu section is shown to users holding any of these (its entities' view codenames). */
export function sectionPermissions(section: Section): string[] {
  return ENTITIES.filter((e) => e.home === DEFAULT_HOME && e.section === section).map((e) => e.permissions.view)
}

export * from './types.ts'
export * from './keys.ts'
export { DESTINATION_APPS, CALL_DESTINATIONS, CHAT_DESTINATIONS, PABX_APPS, CHAT_APPS, destinationApp } from './apps.ts'
export type { DestinationApp } from './apps.ts'
export {
  valibotSchema,
  fieldErrors,
  isRequired,
  isEmpty,
  conditionHolds,
  holdsValue,
  isIsoDateTime,
  isRowId,
  joinDelimiter,
  optionValue,
  DEFAULT_DELIMITER,
  RETURN_TO_STRING_DELIMITER,
} from './schema.ts'
export type { SchemaMode, EntitySchema, Values } from './schema.ts'
export { payloadFor, formValuesFor, splitItems } from './payload.ts'
export type { Payload, MultipartEntry } from './payload.ts'
export { ENTITY_MESSAGES, entityMessage } from './messages.ts'
export type { EntityMessageKey } from './messages.ts'
export * from './validators.ts'
