import { describe, expect, it } from 'vitest'
import { DEFAULT_ORDERING } from '../../../contract/constants.ts'
import {
  ACTIONS,
  AREAS,
  DESTINATION_APPS,
  ENTITIES,
  ENTITY_KEYS,
  ENTITY_PERMISSIONS,
  FIELD_KINDS,
  SECTIONS,
  STORAGES,
  VALIDATIONS,
  entityByKey,
  findEntity,
  holdsValue,
} from '../../../contract/entities/index.ts'
import type { Entity, Field, Texts } from '../../../contract/entities/index.ts'
import { LOCALES } from '../../../contract/locales.ts'
import { ALL_PERMISSIONS } from '../../../contract/all-permissions.ts'
import { allFields, errorsOf } from './helpers.ts'

const each = ENTITIES.map((e) => [e.key, e] as const)

function expectTexts(texts: Texts | undefined, where: string) {
  expect(texts, where).toBeDefined()
  expect(Object.keys(texts!).sort(), where).toEqual([...LOCALES].sort())
  for (const locale of LOCALES) expect(texts![locale].trim(), `${where} ${locale}`).not.toBe('')
}

// The settings route table of spec 000 §2 (the pages this issue covers), below /settings.
// prettier-ignore
// Settings pages of ours, beyond the spec's table: mailing lists (the leads' lists, a CRM setting).
const OUR_PAGES = ['crm/mailings']

// The spec names these codenames itself (000 §6: sites.view_client, sites.view_mailingclient).
const SPEC_AREAS: Partial<Record<string, string>> = { 'crm.clients': 'sites', 'crm.leads': 'sites' }

const SPEC_PAGES = [
  'business/contracts', 'business/departments', 'business/groups', 'business/sites', 'business/users',
  'crm/interactions', 'crm/organizations', 'crm/products', 'crm/status', 'crm/tags',
  'service/blacklists', 'service/calendars', 'service/forms', 'service/kpi', 'service/operations', 'service/pauses', 'service/teams',
  'service/teams/$id/permissions',
  'service/classifications/primary', 'service/classifications/secondary', 'service/classifications/union',
  'service/chats/campaign', 'service/nps/chat', 'service/nps/telephony', 'service/queues/chat', 'service/queues/telephony', 'service/shipments/campaign', 'service/shipments/layout',
  'pabx/call-groups', 'pabx/call-groups/$id/membership', 'pabx/call-groups/$id/permissions', 'pabx/detours', 'pabx/devices', 'pabx/ivrs',
  'pabx/moh', 'pabx/moh/$id/entries', 'pabx/sounds', 'pabx/sounds/$id/entries', 'pabx/voicemails',
  'pabx/routes/channels', 'pabx/routes/inbound', 'pabx/routes/numbers', 'pabx/routes/outbound', 'pabx/routes/outbound/$id/channels',
  'chat/bots', 'chat/channels', 'chat/flows', 'chat/groups', 'chat/inbounds', 'chat/messages', 'chat/templates',
  'system/integration/events', 'system/integration/integrations', 'system/integration/proxies',
  'system/builder/queries', 'system/builder/widgets',
  'system/builder/dashboards/menus', 'system/builder/dashboards/categories', 'system/builder/dashboards/pages',
  'system/builder/reports/menus', 'system/builder/reports/categories', 'system/builder/reports/pages',
  // The spec's system/builder homepages (the others of its list are fields: pageForm, menuForm, categoryForm, filters, insidepages, sub-categories).
  'system/builder/homepages',
]

describe('the registry', () => {
  it('has one definition for every key, and nothing else', () => {
    expect(ENTITIES.map((e) => e.key).sort()).toEqual([...ENTITY_KEYS].sort())
    for (const key of ENTITY_KEYS) expect(entityByKey(key).key).toBe(key)
    expect(findEntity('pabx.nothing')).toBeUndefined()
  })

  it('covers every settings page of the spec route table', () => {
    const settings = ENTITIES.filter((e) => e.home === 'settings')
    expect(settings.map((e) => e.route).sort()).toEqual([...SPEC_PAGES, ...OUR_PAGES].map((p) => `/settings/${p}`).sort())
  })

  it('puts the CRM records at the homes of the spec route table (/clients, /leads, /interactions)', () => {
    const homes = ENTITIES.filter((e) => e.home !== 'settings').map((e) => [e.key, e.route])
    expect(homes).toEqual([
      ['crm.clients', '/clients'],
      ['crm.leads', '/leads'],
      ['crm.client-interactions', '/interactions'],
    ])
  })

  it('counts the entities of each section', () => {
    const count = Object.fromEntries(SECTIONS.map((s) => [s, ENTITIES.filter((e) => e.home === 'settings' && e.section === s).length]))
    expect(count).toEqual({ business: 5, crm: 6, service: 18, pabx: 16, chat: 7, system: 12 })
  })

  it('keeps keys, routes, API paths and codenames unique', () => {
    for (const values of [ENTITIES.map((e) => e.key), ENTITIES.map((e) => e.route), ENTITIES.map((e) => e.api), ENTITY_PERMISSIONS]) {
      expect(new Set(values).size).toBe(values.length)
    }
  })

  it('keeps the API paths the spec names for lookups', () => {
    const apis = ENTITIES.map((e) => e.api)
    for (const path of [
      '/api/v1/pabx/queues/',
      '/api/v1/chat/queues/',
      '/api/v1/service/classifications/',
      '/api/v1/service/sub-classifications/',
      '/api/v1/pabx/outbound-routes/',
      '/api/v1/chat/channels/',
      '/api/v1/chat/templates/',
    ]) {
      expect(apis).toContain(path)
    }
  })
})

describe.each(each)('%s', (_key, entity: Entity) => {
  const fields = allFields(entity)
  const names = entity.fields.map((f) => f.name)

  it('is labelled in the three languages', () => {
    expectTexts(entity.label.singular, 'singular')
    expectTexts(entity.label.plural, 'plural')
    for (const tab of entity.form.tabs) expectTexts(tab.label, `tab ${tab.key}`)
    for (const { path, field } of fields) {
      expectTexts(field.label, path)
      if (field.hint) expectTexts(field.hint, `${path} hint`)
      for (const option of field.options ?? []) expectTexts(option.text, `${path} option ${String(option.value)}`)
    }
  })

  it('has its route under /settings/<section> and its API at /api/v1/<area>/<name>/', () => {
    if (entity.home === 'settings') expect(entity.route.startsWith(`/settings/${entity.section}/`)).toBe(true)
    else expect(entity.route.startsWith(`/${entity.home}`)).toBe(true)
    expect(SECTIONS).toContain(entity.section)
    expect(AREAS).toContain(entity.area)
    expect(entity.key).toBe(`${entity.area}.${entity.name}`)
    expect(entity.api).toBe(`/api/v1/${entity.area}/${entity.name}/`)
    if (entity.section === 'system') expect(['integration', 'builder']).toContain(entity.area)
  })

  it('names its permissions <area>.<action>_<model> (platform.<action>_<model> for the platform operator’s acts)', () => {
    expect(Object.keys(entity.permissions)).toEqual([...ACTIONS])
    for (const action of ACTIONS) {
      const area = entity.platformActions?.includes(action) ? 'platform' : (SPEC_AREAS[entity.key] ?? entity.area)
      expect(entity.permissions[action]).toMatch(new RegExp(`^${area}\\.${action}_[a-z]+$`))
    }
    expect(entity.permissions.view).toBe(`${SPEC_AREAS[entity.key] ?? entity.area}.view_${entity.model}`)
  })

  it('has unique field names, known kinds and storages, and widths of 6 or 12', () => {
    expect(new Set(names).size).toBe(names.length)
    for (const { path, field, scope } of fields) {
      expect(FIELD_KINDS, path).toContain(field.kind)
      expect(STORAGES, path).toContain(field.storage)
      expect([6, 12], path).toContain(field.cols)
      expect(field.name, path).toMatch(/^[a-z][a-z0-9_]*$/)
      expect(
        scope.filter((f) => f.name === field.name),
        path,
      ).toHaveLength(1)
      if (field.validation) expect(VALIDATIONS, path).toContain(field.validation)
    }
  })

  it('stores each kind consistently', () => {
    for (const { path, field } of fields) {
      expect(field.storage === 'fk' || field.storage === 'm2m', path).toBe(!!field.relation)
      if (field.relation) expect(field.storage, path).toBe(field.relation.many ? 'm2m' : 'fk')
      if (field.kind === 'file') expect(field.storage, path).toBe('file')
      if (field.kind === 'app') expect(field.storage, path).toBe('app')
      if (field.kind === 'switch') expect(field.storage, path).toBe('bool')
      if (field.kind === 'datatable') expect(field.fields?.length, path).toBeGreaterThan(0)
      if (['select', 'radio', 'btngroup'].includes(field.kind)) expect(field.options?.length, path).toBeGreaterThan(0)
      if (field.kind === 'crud-index') expect(field.storage, path).toBe('none')
      if (field.min !== undefined && field.max !== undefined) expect(field.min, path).toBeLessThanOrEqual(field.max)
    }
  })

  it('lays out every value field exactly once, and nothing else', () => {
    const placed = entity.form.tabs.flatMap((tab) => tab.fields)
    expect([...placed].sort()).toEqual([...names].sort())
    const keys = entity.form.tabs.map((tab) => tab.key)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('lists, orders and searches existing fields', () => {
    for (const column of entity.list.columns) expect(['id', ...names], column).toContain(column)
    for (const order of entity.list.ordering) expect(['id', ...names]).toContain(order.replace(/^-/, ''))
    for (const name of entity.list.search) expect(names).toContain(name)
    expect(names).toContain(entity.titleField)
    expect(entity.list.columns[0]).toBe('id')
    if (names.includes('is_active')) expect(entity.list.columns).toContain('is_active')
    if (names.includes('is_active') && !entity.parent) expect(entity.list.ordering).toEqual(DEFAULT_ORDERING)
  })

  it('points its relations at registered entities, through their API and title field', () => {
    for (const { path, field } of fields) {
      if (!field.relation) continue
      const target = findEntity(field.relation.entity)
      expect(target, path).toBeDefined()
      if (field.kind === 'hidden') continue
      expect(field.lookup, path).toEqual({ path: target!.api, value: 'id', label: target!.titleField })
    }
  })

  it('edits a two-sided many-to-many through the field that owns it', () => {
    for (const { path, field } of fields) {
      if (!field.relation?.via) continue
      const owner = entityByKey(field.relation.entity).fields.find((f) => f.name === field.relation!.via)
      expect(owner?.relation, path).toMatchObject({ entity: entity.key, many: true })
      expect(owner?.relation?.via, path).toBeUndefined()
    }
  })

  it('offers only known destination apps', () => {
    for (const { path, field } of fields.filter((f) => f.field.kind === 'app')) {
      expect(field.family, path).toBeDefined()
      expect(field.apps?.length, path).toBeGreaterThan(0)
      for (const app of field.apps!) expect(Object.keys(DESTINATION_APPS[field.family!]), path).toContain(app)
    }
  })

  it('keeps datatable rows free of files and nested tables', () => {
    for (const { path, field } of fields.filter((f) => f.field.fields)) {
      for (const sub of field.fields!) expect(['file', 'rows', 'm2m', 'none'], `${path}.${sub.name}`).not.toContain(sub.storage)
    }
  })

  it('conditions on fields of the same form', () => {
    for (const { path, field, scope } of fields) {
      for (const condition of [field.visibleWhen, field.requiredWhen]) {
        if (condition)
          expect(
            scope.map((f) => f.name),
            path,
          ).toContain(condition.field)
      }
    }
  })

  it('has defaults its own schema accepts', () => {
    const defaults = Object.fromEntries(entity.fields.filter((f) => holdsValue(f) && f.default !== undefined).map((f) => [f.name, f.default]))
    const errors = errorsOf(entity, defaults)
    for (const name of Object.keys(defaults)) expect(errors[name], name).toBeUndefined()
  })

  it('imports and constrains existing value fields', () => {
    for (const column of entity.importable?.columns ?? []) {
      const field = entity.fields.find((f) => f.name === column)
      expect(field && holdsValue(field) && field.storage !== 'file', column).toBe(true)
    }
    for (const group of entity.uniqueTogether ?? []) for (const name of group) expect(names).toContain(name)
  })

  it('embeds only its own children', () => {
    for (const field of entity.fields.filter((f: Field) => f.kind === 'crud-index')) {
      expect(findEntity(field.embeds!)?.parent?.entity, field.name).toBe(entity.key)
    }
  })
})

describe('sub-routes with parent ids', () => {
  const children = ENTITIES.filter((e) => e.parent)

  it('are the five kinds the spec names', () => {
    expect(children.map((e) => e.key).sort()).toEqual(
      [
        'pabx.call-group-members',
        'pabx.call-group-permissions',
        'pabx.moh-entries',
        'pabx.outbound-route-trunks',
        'pabx.sounds-entries',
        'service.team-permissions',
      ].sort(),
    )
  })

  it.each(children.map((e) => [e.key, e] as const))('%s sits under an existing parent', (_key, child) => {
    const parent = findEntity(child.parent!.entity)
    expect(parent).toBeDefined()
    expect(child.route.startsWith(`${parent!.route}/$${child.parent!.param}/`)).toBe(true)
    expect(child.itemParam).not.toBe(child.parent!.param)
    const field = child.fields.find((f) => f.name === child.parent!.field)
    expect(field).toMatchObject({ kind: 'hidden', storage: 'fk', required: true, relation: { entity: parent!.key, onDelete: 'cascade' } })
  })

  it('use the item parameters the spec names', () => {
    expect(entityByKey('pabx.outbound-route-trunks').itemParam).toBe('tkid')
    expect(entityByKey('pabx.call-group-members').itemParam).toBe('gid')
    expect(entityByKey('pabx.call-group-permissions').itemParam).toBe('gid')
    expect(entityByKey('service.team-permissions').itemParam).toBe('gid')
  })
})

describe('permission codenames', () => {
  it('use the integration prefix for system/integration', () => {
    expect(entityByKey('integration.events').permissions).toEqual({
      view: 'integration.view_event',
      add: 'integration.add_event',
      change: 'integration.change_event',
      delete: 'integration.delete_event',
    })
    expect(entityByKey('pabx.queues').permissions.view).toBe('pabx.view_queue')
  })

  // `has` (spec 000 §6) passes when a role merely contains the codename: a codename inside another would unlock it.
  it('never contain one another, except a child containing its parent', () => {
    const owner = new Map(ENTITIES.flatMap((e) => Object.values(e.permissions).map((p) => [p, e] as const)))
    const ancestors = (e: Entity): string[] => (e.parent ? [e.parent.entity, ...ancestors(entityByKey(e.parent.entity))] : [])
    for (const [a, ea] of owner) {
      for (const [b, eb] of owner) {
        if (a === b || !b.includes(a)) continue
        expect(ancestors(eb), `${b} contains ${a}`).toContain(ea.key)
      }
      // ALL_PERMISSIONS lists the entities' codenames too: only the fixed ones are compared here.
      for (const fixed of ALL_PERMISSIONS.filter((p) => !owner.has(p))) expect(a.includes(fixed) || fixed.includes(a), `${a} / ${fixed}`).toBe(false)
    }
  })
})
