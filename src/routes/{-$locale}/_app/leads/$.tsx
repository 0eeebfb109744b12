import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { duplicateSearch } from '../../../../entities/duplicateSearch.ts'
import { EntityHomePage } from '../../../../entities/EntityHomePage.tsx'

// Leads, the mailing clients (spec 000 §2: /leads with /create, /{id}/edit, /{id}/delete; /{id}/show is its own route): the generic list and dynamic form of the registry's entities whose home is 'leads'.
export const Route = createFileRoute('/{-$locale}/_app/leads/$')({
  staticData: { permission: PERMISSIONS.viewMailingClient },
  validateSearch: duplicateSearch,
  beforeLoad: async ({ params, context }) =>
    (await import('../../../../entities/homeGuard.ts')).entityPageGuard('leads', params._splat ?? '', context.profile?.roles, params.locale),
  component: () => <EntityHomePage home="leads" />,
})
