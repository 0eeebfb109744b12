import { useQuery } from '@tanstack/react-query'
import type { BuilderMenu, BuilderMenuCategory, BuilderMenuPage } from '../../../contract/api/builder.ts'
import { BUILDER_PATHS } from '../../../contract/api/builder.ts'
import type { Texts } from '../../../contract/codes/localize.ts'
import { any, PERMISSIONS } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import { DashboardIcon, ListIcon } from '../../components/icons/icons.tsx'
import type { MenuItem } from '../../components/menuTypes.ts'
import { ReportsIcon } from '../reports/icons.tsx'

// The builder's menus in the side menu (issue 19 item 4): each menu an administrator made is a group holding its pages
// and its categories (each a group of pages), placed after the supervisor dashboards or the reports. The server sends
// only the pages the user's permissions open, so the entries need no permission of their own here.

const VIEWERS = [PERMISSIONS.viewDashboard, PERMISSIONS.viewDashboardSupervisor, PERMISSIONS.viewReports]
/** A name an administrator typed: the same in every language. */
const typed = (text: string): Texts => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text })

function pageItem(page: BuilderMenuPage): MenuItem {
  return page.kind === 'dashboards'
    ? { id: `builder-page-${page.kind}-${page.id}`, label: typed(page.title), to: '/{-$locale}/dashboards/$id', params: { id: String(page.id) }, permission: PERMISSIONS.myProfile, icon: DashboardIcon }
    : { id: `builder-page-${page.kind}-${page.id}`, label: typed(page.title), to: '/{-$locale}/reports/pages/{-$id}', params: { id: String(page.id) }, permission: PERMISSIONS.myProfile, icon: ReportsIcon }
}

/** A category as a group of its pages, then its sub-categories (each a group of its own). */
function categoryItem(kind: string, category: BuilderMenuCategory): MenuItem {
  return {
    id: `builder-category-${kind}-${category.id}`,
    label: typed(category.title),
    permission: PERMISSIONS.myProfile,
    icon: ListIcon,
    children: [...category.pages.map(pageItem), ...(category.categories ?? []).map((sub) => categoryItem(kind, sub))],
  }
}

export function builderMenuItems(menu: BuilderMenu | undefined): { dashboards: MenuItem[]; reports: MenuItem[] } {
  const out = { dashboards: [] as MenuItem[], reports: [] as MenuItem[] }
  for (const entry of menu?.menus ?? []) {
    out[entry.kind].push({
      id: `builder-menu-${entry.kind}-${entry.id}`,
      label: typed(entry.title),
      permission: PERMISSIONS.myProfile,
      icon: entry.kind === 'dashboards' ? DashboardIcon : ReportsIcon,
      children: [
        ...entry.pages.map(pageItem),
        ...entry.categories.map((category) => categoryItem(entry.kind, category)),
      ],
    })
  }
  return out
}

/** The menu with the builder's groups placed after the supervisor dashboards and after the reports. */
export function withBuilderMenus(items: readonly MenuItem[], menu: BuilderMenu | undefined): MenuItem[] {
  const extra = builderMenuItems(menu)
  return items.flatMap((item) => (item.id === 'dashboards' ? [item, ...extra.dashboards] : item.id === 'reports' ? [item, ...extra.reports] : [item]))
}

const builderMenuQuery = (roles: readonly string[] | undefined) => ({
  queryKey: ['builder', 'menu'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<BuilderMenu>(BUILDER_PATHS.menu, undefined, { signal }),
  enabled: any(roles, VIEWERS),
  staleTime: 60_000,
})

export function useBuilderMenu(roles: readonly string[] | undefined): BuilderMenu | undefined {
  return useQuery(builderMenuQuery(roles)).data
}

/**
 * The builder page chosen as this user's home (the spec's homepages): `undefined` while the menu is being read,
 * `null` for the default home.
 */
export function useBuilderHome(roles: readonly string[] | undefined): BuilderMenuPage | null | undefined {
  const menu = useQuery(builderMenuQuery(roles))
  if (!any(roles, VIEWERS) || menu.isError) return null
  return menu.data ? (menu.data.home ?? null) : undefined
}
