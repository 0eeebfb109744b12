import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import type { RouterContext } from '../app/routerContext.ts'
import { activateLocale } from '../app/i18n.ts'
import { browserLocaleSources, resolveLocale } from '../app/locale.ts'
import { ProgressBar } from '../components/layout/ProgressBar.tsx'
import { LazyNotFoundPage } from '../components/errors/lazyPages.tsx'
import { RouteErrorPage } from '../components/errors/RouteErrorPage.tsx'

export const Route = createRootRouteWithContext<RouterContext>()({
  staticData: { permission: 'layout' },
  // The language of every page, also of a 404 that matched no route: prefix > cookie > browser.
  beforeLoad: ({ location }) => activateLocale(resolveLocale(browserLocaleSources(location.pathname))),
  component: () => (
    <>
      <ProgressBar />
      <Outlet />
    </>
  ),
  notFoundComponent: LazyNotFoundPage,
  errorComponent: RouteErrorPage,
})
