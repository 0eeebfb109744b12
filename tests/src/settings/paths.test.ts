import { describe, expect, it } from 'vitest'
import { ENTITIES, entityByKey } from '../../../contract/entities/index.ts'
import { pagePermission, parseEntityPath, parseSettingsPath, settingsPath } from '../../../src/entities/paths.ts'

describe('settings paths', () => {
  it('finds every entity list, create, edit and delete page below its home and builds the same path back', () => {
    for (const entity of ENTITIES) {
      const ids = { parentId: entity.parent ? 7 : undefined, itemId: 3 }
      for (const kind of ['list', 'create', 'edit', 'delete'] as const) {
        const path = settingsPath(entity, kind, ids)
        const page = parseEntityPath(entity.home, path)
        expect(page?.entity.key, path).toBe(entity.key)
        expect(page?.kind, path).toBe(kind)
        if (entity.parent) expect(page?.parentId, path).toBe(7)
        if (kind === 'edit' || kind === 'delete') expect(page?.itemId).toBe(3)
      }
    }
  })

  it('reads the sub-routes under a parent id (spec 000 §2)', () => {
    expect(parseSettingsPath('pabx/routes/outbound/12/channels/4/edit')).toMatchObject({
      kind: 'edit',
      parentId: 12,
      itemId: 4,
      entity: { key: 'pabx.outbound-route-trunks' },
    })
    expect(parseSettingsPath('pabx/call-groups/5/membership/create')).toMatchObject({ kind: 'create', parentId: 5, entity: { key: 'pabx.call-group-members' } })
    expect(parseSettingsPath('service/teams/2/permissions')).toMatchObject({ kind: 'list', parentId: 2, entity: { key: 'service.team-permissions' } })
    expect(parseSettingsPath('pabx/moh/3/entries/9/delete')).toMatchObject({ kind: 'delete', parentId: 3, itemId: 9, entity: { key: 'pabx.moh-entries' } })
    expect(parseSettingsPath('pabx/routes/outbound/3/edit')?.entity.key).toBe('pabx.outbound-routes')
  })

  it('answers nothing (a 404) for unknown entities, pages and ids', () => {
    for (const path of [
      'nowhere',
      'pabx/devices/abc/edit',
      'pabx/devices/0/edit',
      'pabx/devices/3',
      'pabx/devices/3/show',
      'pabx/routes/outbound/x/channels',
      'pabx/devices/create/more',
      '',
    ])
      expect(parseSettingsPath(path), path).toBeUndefined()
  })

  it('asks view for the list, add to create, change to edit and delete to delete', () => {
    const queues = entityByKey('pabx.queues')
    expect(pagePermission({ entity: queues, kind: 'list' })).toBe('pabx.view_queue')
    expect(pagePermission({ entity: queues, kind: 'create' })).toBe('pabx.add_queue')
    expect(pagePermission({ entity: queues, kind: 'edit' })).toBe('pabx.change_queue')
    expect(pagePermission({ entity: queues, kind: 'delete' })).toBe('pabx.delete_queue')
  })
})
