import { has } from '../../../contract/permissions.ts'
import type { MenuItem } from '../../components/menuTypes.ts'

/** The entries this user may see: items by permission, groups only when at least one child remains. */
export function filterMenu(items: readonly MenuItem[], roles: readonly string[] | undefined): MenuItem[] {
  const visible: MenuItem[] = []
  for (const item of items) {
    if (!has(roles, item.permission)) continue
    if (item.children) {
      const children = filterMenu(item.children, roles)
      if (!children.length) continue
      visible.push({ ...item, children })
    } else visible.push(item)
  }
  return visible
}
