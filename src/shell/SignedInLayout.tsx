import { QueryClientProvider } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { DefaultLayout } from './DefaultLayout.tsx'

const route = getRouteApi('/{-$locale}/_app')

/**
 * The signed-in part of the app: the query cache that the `_app` guard created, for the default layout and every page
 * under it. The root has no QueryClientProvider, so the sign-in page never loads TanStack Query.
 */
export function SignedInLayout() {
  const { queryClient } = route.useRouteContext()
  return (
    <QueryClientProvider client={queryClient}>
      <DefaultLayout />
    </QueryClientProvider>
  )
}
