import { createRouter } from '@tanstack/react-router'
import type { RouterHistory } from '@tanstack/react-router'
import { routeTree } from '../routeTree.gen.ts'
import { RouteErrorPage } from '../components/errors/RouteErrorPage.tsx'
import { LazyNotFoundPage } from '../components/errors/lazyPages.tsx'
import { PageSpinner } from '../components/layout/PageSpinner.tsx'
import type { RouterContext } from './routerContext.ts'

export function createAppRouter(queries: RouterContext['queries'], history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { queries },
    defaultPreload: 'intent',
    // Guards read the query cache; the router must not keep its own stale copy of what they decided.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    notFoundMode: 'root',
    defaultErrorComponent: RouteErrorPage,
    defaultNotFoundComponent: LazyNotFoundPage,
    defaultPendingComponent: PageSpinner,
    defaultPendingMs: 400,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
