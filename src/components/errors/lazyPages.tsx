import { lazy, Suspense } from 'react'

// The 404 and 500 bodies load when first shown, so the root route (on every page, the sign-in page too) does not
// carry the error pages' layout, links and icons. A chunk that fails to load here reaches the route's error boundary
// (RouteErrorPage), which reloads the app for a new deployment.
const NotFound = lazy(() => import('./NotFoundPage.tsx').then((m) => ({ default: m.NotFoundPage })))
const ServerError = lazy(() => import('./ServerErrorPage.tsx').then((m) => ({ default: m.ServerErrorPage })))

export function LazyNotFoundPage() {
  return (
    <Suspense fallback={null}>
      <NotFound />
    </Suspense>
  )
}

export function LazyServerErrorPage() {
  return (
    <Suspense fallback={null}>
      <ServerError />
    </Suspense>
  )
}
