import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { duplicateSearch } from '../../../../entities/duplicateSearch.ts'
import { SettingsEntityPage } from '../../../../features/settings/SettingsEntityPage.tsx'

// Every settings entity's pages (list, create, {id}/edit, {id}/delete, and the sub-routes under a parent's id) in one
// route: the path below /settings/ names the entity in the registry. Entering settings needs sites.view_settings;
// the page itself needs the entity's view/add/change/delete codename (403), and an unknown path is a 404.
export const Route = createFileRoute('/{-$locale}/_app/settings/$')({
  staticData: { permission: PERMISSIONS.viewSettings },
  validateSearch: duplicateSearch,
  // The registry loads with the page, not with the first chunk.
  beforeLoad: async ({ params, context }) =>
    (await import('../../../../features/settings/settingsGuard.ts')).settingsPageGuard(params._splat ?? '', context.profile?.roles, params.locale),
  component: SettingsEntityPage,
})
