import { describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { filterMenu } from '../../src/shell/menu/filterMenu.ts'
import { MENU } from '../../src/shell/menu/menuItems.ts'
import type { MenuItem } from '../../src/components/menuTypes.ts'

const ids = (items: MenuItem[]): string[] => items.flatMap((i) => [i.id, ...ids(i.children ?? [])])
const Icon = () => null
const item = (id: string, permission: string, children?: MenuItem[]): MenuItem => ({ id, permission, icon: Icon, label: { id }, children })

describe('side menu filtering', () => {
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
