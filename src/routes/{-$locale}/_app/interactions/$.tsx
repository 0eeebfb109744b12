import { createFileRoute } from '@tanstack/react-router'
import { duplicateSearch } from '../../../../entities/duplicateSearch.ts'
import { EntityHomePage } from '../../../../entities/EntityHomePage.tsx'

// Interactions kept about customers (spec 000 §2: /interactions): the generic list and dynamic form of the registry's entities whose home is 'interactions'.
// The spec names no menu codename for it: the page's own (crm.view_clientinteraction, …) is checked by the guard.
export const Route = createFileRoute('/{-$locale}/_app/interactions/$')({
  staticData: { permission: 'layout' },
  validateSearch: duplicateSearch,
  beforeLoad: async ({ params, context }) =>
    (await import('../../../../entities/homeGuard.ts')).entityPageGuard('interactions', params._splat ?? '', context.profile?.roles, params.locale),
  component: () => <EntityHomePage home="interactions" />,
})
