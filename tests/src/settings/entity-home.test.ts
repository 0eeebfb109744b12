import { describe, expect, it } from 'vitest'
import { defineEntity, t } from '../../../contract/entities/define.ts'
import { description, fk } from '../../../contract/entities/fields.ts'
import { ENTITIES, entityByKey, sectionPermissions } from '../../../contract/entities/index.ts'
import { homeRoute } from '../../../src/entities/homes.ts'
import { entityPath, pagePermission, parseEntityPath, parseSettingsPath } from '../../../src/entities/paths.ts'

// An entity may live outside /settings (CRM clients at /clients): the same list and form engine draws it at its own
// home, and the settings pages do not see it. The contacts entity exists only in this test.
const clients = entityByKey('crm.clients')
const contacts = defineEntity({
  area: 'crm',
  name: 'products',
  model: 'clientcontact',
  home: 'clients',
  route: '$id/contacts',
  section: 'crm',
  label: { singular: t('Contato', 'Contact', 'Contacto'), plural: t('Contatos', 'Contacts', 'Contactos') },
  fields: [description({ required: true }), fk('client', t('Cliente', 'Client', 'Cliente'), 'crm.clients', { onDelete: 'cascade' })],
  parent: { entity: 'crm.clients', field: 'client' },
})
const registry = [...ENTITIES, contacts]

describe('an entity with a home of its own', () => {
  it('has its routes below that home, not below /settings', () => {
    expect(clients).toMatchObject({ home: 'clients', route: '/clients', section: 'crm' })
    expect(contacts.route).toBe('/clients/$id/contacts')
    expect(ENTITIES.filter((e) => e.home === 'clients')).toEqual([clients])
  })

  it('gets its list, create, edit and delete pages at its home', () => {
    expect(parseEntityPath('clients', '', registry)).toEqual({ entity: clients, kind: 'list' })
    expect(parseEntityPath('clients', 'create', registry)).toEqual({ entity: clients, kind: 'create' })
    expect(parseEntityPath('clients', '3/edit', registry)).toEqual({ entity: clients, kind: 'edit', itemId: 3 })
    expect(parseEntityPath('clients', '3/delete', registry)).toEqual({ entity: clients, kind: 'delete', itemId: 3 })
    expect(parseEntityPath('clients', '3/contacts/9/edit', registry)).toEqual({ entity: contacts, kind: 'edit', parentId: 3, itemId: 9 })
    expect(parseEntityPath('clients', 'nothing/here', registry)).toBeUndefined()
    for (const entity of [clients, contacts]) {
      for (const kind of ['list', 'create', 'edit', 'delete'] as const) {
        const path = entityPath(entity, kind, { parentId: 3, itemId: 9 })
        expect(parseEntityPath('clients', path, registry), path).toMatchObject({ entity: { model: entity.model }, kind })
      }
    }
    expect(entityPath(clients, 'list')).toBe('')
    expect(entityPath(clients, 'edit', { itemId: 4 })).toBe('4/edit')
    expect(pagePermission({ entity: clients, kind: 'edit' })).toBe('sites.change_client')
  })

  it('is never found among the settings pages, whose paths stay where they were', () => {
    expect(parseEntityPath('settings', '', registry)).toBeUndefined()
    expect(parseEntityPath('settings', 'create', registry)).toBeUndefined()
    expect(parseSettingsPath('crm/organizations')?.entity.key).toBe('crm.organizations')
    expect(parseEntityPath('settings', 'crm/organizations', registry)?.entity).toBe(ENTITIES.find((e) => e.key === 'crm.organizations'))
    expect(sectionPermissions('crm')).not.toContain('sites.view_client')
  })

  it('is drawn by the route its home registered', () => {
    expect(homeRoute('settings')).toBe('/{-$locale}/settings/$')
    expect(homeRoute('clients')).toBe('/{-$locale}/clients/$')
    expect(() => homeRoute('nowhere')).toThrow(/No route registered for the entity home 'nowhere'/)
  })

  it('refuses a section that does not exist', () => {
    expect(() => defineEntity({ area: 'crm', name: 'tags', model: 'x', home: 'leads', route: '', label: clients.label, fields: [description()] })).toThrow(
      /not a settings section/,
    )
  })
})
