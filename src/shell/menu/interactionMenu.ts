import { msg } from '@lingui/core/macro'
import type { InteractionMenuType } from '../../../contract/api/crm.ts'
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
