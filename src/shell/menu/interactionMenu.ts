import { msg } from '@lingui/core/macro'
import { useQuery } from '@tanstack/react-query'
import { INTERACTION_PATHS } from '../../../contract/api/crm.ts'
import type { InteractionMenuResponse, InteractionMenuType } from '../../../contract/api/crm.ts'
import { pageEnabled } from '../../../contract/modules.ts'
import { has } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import type { MenuItem } from '../../components/menuTypes.ts'

// One CRM menu entry per interaction type (issue 17; the CRM settings entity crm.interactions, its 'show in menu'
// types): the Interações entry becomes a group holding the list of every interaction and one list per type
// (/interactions/{id}/{slug}), each under the same permission as the Interações entry itself. The types come from
// GET /api/v1/crm/interaction-types/ under a query key inside the entity's own (['entity', 'crm.interactions']), which
// every save, delete or import of that entity invalidates: an admin's new or renamed type reaches the menu at once.

/** The menu's query key for the types: inside the crm.interactions entity's key (src/entities/api.ts entityQueryKey). */
export const INTERACTION_MENU_KEY = ['entity', 'crm.interactions', 'menu'] as const

export function withInteractionTypes(items: readonly MenuItem[], types: readonly InteractionMenuType[] | undefined): MenuItem[] {
  if (!types?.length) return [...items]
  return items.map((item) => {
    if (item.id !== 'interactions' || item.children) return item
    const typeEntries: MenuItem[] = types.map((type) => ({
      id: `interaction-type-${type.id}`,
      label: type.description,
      to: '/{-$locale}/interactions/$',
      params: { _splat: type.slug ? `${type.id}/${type.slug}` : String(type.id) },
      permission: item.permission,
      icon: item.icon,
    }))
    return {
      id: item.id,
      label: item.label,
      permission: item.permission,
      icon: item.icon,
      children: [{ ...item, id: 'interactions-all', label: msg`Todas as interações` }, ...typeEntries],
    }
  })
}

/** The site's interaction types shown in the menu, for whoever may list interactions (as builderMenu.ts does). */
export function useInteractionTypes(
  roles: readonly string[] | undefined,
  modules: Parameters<typeof pageEnabled>[0],
): readonly InteractionMenuType[] | undefined {
  return useQuery({
    queryKey: INTERACTION_MENU_KEY,
    queryFn: () => api.get<InteractionMenuResponse>(INTERACTION_PATHS.menu),
    enabled: has(roles, 'crm.view_clientinteraction') && pageEnabled(modules, '/interactions'),
    staleTime: 5 * 60_000,
  }).data?.results
}
