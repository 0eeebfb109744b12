import { describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { filterMenu, menuPath } from '../../src/shell/menu/filterMenu.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { MENU } from '../../src/shell/menu/menuItems.ts'
import type { MenuItem } from '../../src/components/menuTypes.ts'
import { withInteractionTypes } from '../../src/shell/menu/interactionMenu.ts'

const ids = (items: MenuItem[]): string[] => items.flatMap((i) => [i.id, ...ids(i.children ?? [])])
const Icon = () => null
const item = (id: string, permission: string, children?: MenuItem[]): MenuItem => ({ id, permission, icon: Icon, label: { id }, children })

describe('side menu filtering', () => {
  it('drops the entries of an area the site turned off, settings included, and keeps the others', () => {
    const roles = ALL_PERMISSIONS
    const on = { telephony: true, chat: true, dialer: true, crm: true, reports: true }
    const all = ids(filterMenu(MENU, roles, on))
    expect(all).toEqual(expect.arrayContaining(['chats', 'reports', 'settings-chat.bots', 'leads', 'clients', 'phonecalls', 'settings-modules']))
    const noChat = ids(filterMenu(MENU, roles, { ...on, chat: false }))
    expect(noChat).not.toContain('chats')
    expect(noChat.filter((id) => id.startsWith('settings-chat.'))).toEqual([])
    expect(noChat).not.toContain('settings-chat')
    expect(noChat).toContain('settings-pabx.queues')
    expect(noChat).toEqual(expect.arrayContaining(['phonecalls', 'reports', 'settings-service.teams']))
    // The reports group keeps the chats' backup (a chat page) while chat is on; with both off the group leaves.
    const noReports = ids(filterMenu(MENU, roles, { ...on, reports: false }))
    expect(noReports).not.toContain('report-pages')
    expect(noReports).not.toContain('processing-queue')
    expect(noReports).not.toContain('reports-backup')
    expect(noReports).toContain('chats-backup')
    // A group whose entries all belong to switched-off areas leaves with them.
    expect(ids(filterMenu(MENU, roles, { ...on, reports: false, chat: false }))).not.toContain('reports')
    const noDialer = ids(filterMenu(MENU, roles, { ...on, dialer: false }))
    expect(noDialer).not.toContain('leads')
    expect(noDialer).not.toContain('settings-crm.mailings')
    expect(noDialer).toEqual(expect.arrayContaining(['clients', 'settings-crm.tags']))
    // No modules known (an older server): everything stays.
    expect(ids(filterMenu(MENU, roles))).toEqual(all)
  })

  it('gives each interaction type its own CRM entry, listing that type, under the interactions permission', () => {
    const types = [
      { id: 7, description: 'Reclamação', slug: 'reclamacao', icon: '', color: '' },
      { id: 9, description: 'Elogio', slug: '', icon: '', color: '' },
    ]
    const on = { telephony: true, chat: true, dialer: true, crm: true, reports: true }
    const menu = filterMenu(withInteractionTypes(MENU, types), ALL_PERMISSIONS, on)
    const group = menu.find((i) => i.id === 'interactions')!
    expect(group.children!.map((c) => [c.id, typeof c.label === 'string' ? c.label : 'msg', menuPath(c), c.permission])).toEqual([
      ['interactions-all', 'msg', '/interactions', 'crm.view_clientinteraction'],
      ['interaction-type-7', 'Reclamação', '/interactions/7/reclamacao', 'crm.view_clientinteraction'],
      ['interaction-type-9', 'Elogio', '/interactions/9', 'crm.view_clientinteraction'],
    ])
    // Without the codename, or with the CRM off, none of them; without types, the single entry as before.
    expect(ids(filterMenu(withInteractionTypes(MENU, types), [PERMISSIONS.myProfile], on)).filter((id) => id.startsWith('interaction'))).toEqual([])
    expect(ids(filterMenu(withInteractionTypes(MENU, types), ALL_PERMISSIONS, { ...on, crm: false })).filter((id) => id.startsWith('interaction'))).toEqual([])
    const plain = filterMenu(withInteractionTypes(MENU, []), ALL_PERMISSIONS, on).find((i) => i.id === 'interactions')!
    expect([plain.children, menuPath(plain)]).toEqual([undefined, '/interactions'])
  })

  it('resolves an entry to the page it opens, without the locale', () => {
    expect(menuPath({ to: '/{-$locale}/settings/$', params: { _splat: 'chat/bots' } })).toBe('/settings/chat/bots')
    expect(menuPath({ to: '/{-$locale}/reports/pages/{-$id}' })).toBe('/reports/pages')
    expect(menuPath({ to: '/{-$locale}' })).toBe('/')
  })

  it('shows Home only to users holding sites.view_dashboard', () => {
    expect(ids(filterMenu(MENU, [PERMISSIONS.viewDashboard]))).toContain('home')
    expect(ids(filterMenu(MENU, ['sites.view_chat']))).not.toContain('home')
  })

  it('always shows the my-profile group with its four pages', () => {
    const visible = filterMenu(MENU, [])
    const group = visible.find((i) => i.id === 'my-profile')
    expect(group?.children?.map((c) => c.id)).toEqual(['profile', 'profile-avatar', 'profile-password', 'profile-personal-data'])
  })

  it('matches permissions by substring as the spec says', () => {
    expect(ids(filterMenu([item('x', 'sites.view_dashboard')], ['prefix.sites.view_dashboard.all']))).toEqual(['x'])
  })

  it('drops children without permission and hides a group left empty', () => {
    const menu = [
      item('g', 'my-profile', [item('a', 'sites.view_chat'), item('b', 'sites.view_reports')]),
      item('h', 'my-profile', [item('c', 'sites.view_settings')]),
    ]
    expect(ids(filterMenu(menu, ['sites.view_reports']))).toEqual(['g', 'b'])
  })

  it('hides a group whose own permission is missing even if children would pass', () => {
    expect(filterMenu([item('g', 'sites.view_settings', [item('a', 'my-profile')])], [])).toEqual([])
  })

  it('gives every entry a unique id and a target or children', () => {
    const all = ids(MENU)
    expect(new Set(all).size).toBe(all.length)
    const walk = (items: MenuItem[]): void =>
      items.forEach((i) => {
        expect(Boolean(i.to) || Boolean(i.children?.length)).toBe(true)
        walk(i.children ?? [])
      })
    walk(MENU)
  })
})
