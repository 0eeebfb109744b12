import { createFileRoute } from '@tanstack/react-router'
import { PERMISSIONS } from '../../../../../contract/permissions.ts'
import { duplicateSearch } from '../../../../entities/duplicateSearch.ts'
import { EntityHomePage } from '../../../../entities/EntityHomePage.tsx'
import '../../../../features/crm/crmExtensions.tsx'

// CRM clients (spec 000 §2: /clients with /create, /{form}, /{id}/edit, /{id}/delete): the generic list and dynamic form of the registry's entities whose home is 'clients'.
export const Route = createFileRoute('/{-$locale}/_app/clients/$')({
  staticData: { permission: PERMISSIONS.viewClient },
  validateSearch: duplicateSearch,
  beforeLoad: async ({ params, context }) =>
    (await import('../../../../entities/homeGuard.ts')).entityPageGuard('clients', params._splat ?? '', context.profile?.roles, params.locale),
  component: () => <EntityHomePage home="clients" />,
})
