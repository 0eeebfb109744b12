import { describe, expect, it } from 'vitest'
import {
  ENTITIES,
  ENTITY_PERMISSIONS,
  PLATFORM_PERMISSIONS,
  childrenOf,
  entityByApi,
  entityByKey,
  entityByRoute,
  protectedBy,
  referencesTo,
  sectionPermissions,
} from '../../../contract/entities/index.ts'
import { has } from '../../../contract/permissions.ts'

const where = (refs: ReturnType<typeof referencesTo>) => refs.map((r) => `${r.entity.key}:${r.path.join('.')}`)

describe('referential rules', () => {
  it('protect a queue that an inbound route sends calls to', () => {
    const refs = protectedBy('pabx.queues')
    expect(where(refs)).toContain('pabx.inbound-routes:destination')
    expect(refs.find((r) => r.entity.key === 'pabx.inbound-routes')?.kind).toBe('app')
  })

  it('protect a prompt used inside an IVR option', () => {
    expect(where(protectedBy('pabx.sounds-entries'))).toEqual(
      expect.arrayContaining(['pabx.ivrs:greeting', 'pabx.ivrs:options.audio', 'pabx.ivrs:options.destination']),
    )
  })

  it('protect a trunk used by an outbound route and an inbound route used by a number', () => {
    expect(where(protectedBy('pabx.trunks'))).toEqual(['pabx.outbound-route-trunks:trunk'])
    expect(where(protectedBy('pabx.inbound-routes'))).toEqual(['pabx.numbers:inbound_route'])
  })

  it('delete children with their parent', () => {
    for (const child of ENTITIES.filter((e) => e.parent)) {
      const ref = referencesTo(child.parent!.entity).find((r) => r.entity === child && r.path[0] === child.parent!.field)
      expect(ref?.onDelete, child.key).toBe('cascade')
    }
  })

  it('clear optional references instead of refusing', () => {
    const ref = referencesTo('service.teams').find((r) => r.entity.key === 'business.users')
    expect(ref).toMatchObject({ kind: 'fk', onDelete: 'setNull' })
  })

  it('unlink many-to-many rows', () => {
    const ref = referencesTo('service.teams').find((r) => r.entity.key === 'pabx.outbound-routes')
    expect(ref).toMatchObject({ kind: 'm2m', onDelete: 'cascade', path: ['teams'] })
  })
})

describe('lookups', () => {
  it('find entities by key, route template, concrete list path and API path', () => {
    const trunks = entityByKey('pabx.outbound-route-trunks')
    expect(entityByRoute('/settings/pabx/routes/outbound/$id/channels')).toBe(trunks)
    expect(entityByRoute('/settings/pabx/routes/outbound/12/channels/')).toBe(trunks)
    expect(entityByRoute('/settings/pabx/routes/outbound')).toBe(entityByKey('pabx.outbound-routes'))
    expect(entityByRoute('/settings/pabx/routes/outbound/12/edit')).toBeUndefined()
    expect(entityByApi('/api/v1/pabx/queues/')).toBe(entityByKey('pabx.queues'))
    expect(entityByApi('/api/v1/chat/queues')).toBe(entityByKey('chat.queues'))
  })

  it('list the children of a parent', () => {
    expect(
      childrenOf('pabx.call-groups')
        .map((e) => e.key)
        .sort(),
    ).toEqual(['pabx.call-group-members', 'pabx.call-group-permissions'])
    expect(childrenOf('crm.tags')).toEqual([])
  })
})

describe('permissions', () => {
  it('lists four codenames per entity, but the platform operator’s', () => {
    expect(ENTITY_PERMISSIONS).toHaveLength(ENTITIES.length * 4 - PLATFORM_PERMISSIONS.length)
    expect(ENTITY_PERMISSIONS).toContain('pabx.delete_outboundroute')
    expect(PLATFORM_PERMISSIONS).toEqual(['platform.add_site', 'platform.delete_site'])
    expect(ENTITY_PERMISSIONS).toContain('business.change_site')
    expect(ENTITY_PERMISSIONS.filter((p) => p.startsWith('platform.'))).toEqual([])
  })

  it('gates each settings section by its entities’ view codenames', () => {
    const system = sectionPermissions('system')
    expect(system).toEqual([
      'integration.view_event',
      'integration.view_integration',
      'integration.view_proxy',
      'builder.view_query',
      'builder.view_widget',
      'builder.view_dashboardmenu',
      'builder.view_dashboardcategory',
      'builder.view_dashboardpage',
      'builder.view_reportmenu',
      'builder.view_reportcategory',
      'builder.view_reportpage',
      'builder.view_homepage',
    ])
    // The telephony queues page sits under service, with the pabx codename the spec's API implies.
    expect(sectionPermissions('service')).toContain('pabx.view_queue')
    expect(has(['pabx.view_queue'], 'pabx.view_queue')).toBe(true)
  })
})
