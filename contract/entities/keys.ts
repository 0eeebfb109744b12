// Every settings entity, named `<area>.<name>`: the area is the API and permission prefix (Django app label), the
// name the API path segment. Relations and parents name their target with one of these keys, so a typo is a type
// error; tests check that each key has exactly one definition.
export const ENTITY_KEYS = [
  'business.contracts',
  'business.departments',
  'business.groups',
  'business.sites',
  'business.users',
  'crm.clients',
  'crm.client-interactions',
  'crm.interactions',
  'crm.leads',
  'crm.mailings',
  'crm.organizations',
  'crm.products',
  'crm.status',
  'crm.tags',
  'service.blacklists',
  'service.calendars',
  'service.forms',
  'service.kpi',
  'service.operations',
  'service.pauses',
  'service.teams',
  'service.team-permissions',
  'service.classifications',
  'service.sub-classifications',
  'service.unions',
  'service.nps-chat',
  'service.nps-telephony',
  'service.shipments-layouts',
  'service.shipments-campaigns',
  'service.chats-campaigns',
  'pabx.queues',
  'chat.queues',
  'pabx.devices',
  'pabx.trunks',
  'pabx.inbound-routes',
  'pabx.numbers',
  'pabx.outbound-routes',
  'pabx.outbound-route-trunks',
  'pabx.call-groups',
  'pabx.call-group-members',
  'pabx.call-group-permissions',
  'pabx.detours',
  'pabx.ivrs',
  'pabx.moh',
  'pabx.moh-entries',
  'pabx.sounds',
  'pabx.sounds-entries',
  'pabx.voicemails',
  'chat.bots',
  'chat.channels',
  'chat.flows',
  'chat.groups',
  'chat.inbounds',
  'chat.messages',
  'chat.templates',
  'integration.events',
  'integration.integrations',
  'integration.proxies',
  'builder.queries',
  'builder.widgets',
  'builder.dashboard-menus',
  'builder.dashboard-categories',
  'builder.dashboard-pages',
  'builder.report-menus',
  'builder.report-categories',
  'builder.report-pages',
  'builder.homepages',
] as const

export type EntityKey = (typeof ENTITY_KEYS)[number]

/** API and permission areas (`/api/v1/<area>/…`, `<area>.view_<model>`). */
export const AREAS = ['business', 'crm', 'service', 'pabx', 'chat', 'integration', 'builder'] as const
export type Area = (typeof AREAS)[number]

/** The names an area gives its entities: `NameIn<'crm'>` is 'interactions' | 'organizations' | … */
export type NameIn<A extends Area> = EntityKey extends infer K ? (K extends `${A}.${infer N}` ? N : never) : never

/** The API path of an entity, derivable from its key alone (relations use it without importing the target). */
export function apiPath(key: EntityKey): string {
  const [area, name] = key.split('.') as [string, string]
  return `/api/v1/${area}/${name}/`
}
