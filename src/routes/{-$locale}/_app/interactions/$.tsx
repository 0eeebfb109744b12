import { createFileRoute } from '@tanstack/react-router'
import type { RoutePermission } from '../../../../app/routePermissions.ts'
import { duplicateSearch } from '../../../../entities/duplicateSearch.ts'
import { EntityHomePage } from '../../../../entities/EntityHomePage.tsx'
import '../../../../features/crm/crmExtensions.tsx'

// Interactions kept about customers (spec 000 §2: /interactions): the generic list and dynamic form of the registry's entities whose home is 'interactions';
// /interactions/:interaction_id[/:slug] lists one type, /interactions/:form (a type's slug) creates one of that type with its form (server/crm/README.md).
// The spec names no menu codename for it: entering needs the entity's view codename (crm.view_clientinteraction); the
// guard then asks for the page's own (add, change, delete).
export const Route = createFileRoute('/{-$locale}/_app/interactions/$')({
  // Written out: the registry stays out of the shell's bundle (tests/src/route-permissions.test.ts checks it is the entity's).
  staticData: { permission: 'crm.view_clientinteraction' as RoutePermission },
  validateSearch: duplicateSearch,
  beforeLoad: async ({ params, context }) =>
    (await import('../../../../entities/homeGuard.ts')).entityPageGuard('interactions', params._splat ?? '', context.profile?.roles, params.locale),
  component: () => <EntityHomePage home="interactions" />,
})
