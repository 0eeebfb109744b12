import { has } from '../../../contract/permissions.ts'
import { pageEnabled } from '../../../contract/modules.ts'
import type { Modules } from '../../../contract/modules.ts'
import type { MenuItem } from '../../components/menuTypes.ts'

/**
 * The entries this user may see: items by permission and by the site's modules (an area turned off leaves the menu,
 * contract/modules.ts), groups only when at least one child remains.
 */
export function filterMenu(items: readonly MenuItem[], roles: readonly string[] | undefined, modules?: Modules): MenuItem[] {
  const visible: MenuItem[] = []
  for (const item of items) {
    if (!has(roles, item.permission)) continue
    if (item.to && !pageEnabled(modules, menuPath(item))) continue
    if (item.children) {
      const children = filterMenu(item.children, roles, modules)
      if (!children.length) continue
      visible.push({ ...item, children })
    } else visible.push(item)
  }
  return visible
}

/** The page an entry opens, without the locale: '/{-$locale}/settings/$' with splat 'chat/bots' → /settings/chat/bots. */
export function menuPath(item: Pick<MenuItem, 'to' | 'params'>): string {
  const path = (item.to ?? '')
    .replace(/^\/\{-\$locale\}/, '')
    .replace(/\/\{-\$[^}]+\}/g, '')
    .replace(/\$$/, item.params?._splat ?? '')
  return path.replace(/\/+$/, '') || '/'
}
