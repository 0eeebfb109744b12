import type { QueryClient } from '@tanstack/react-query'

/**
 * The app's one QueryClient, created when something first needs it: the signed-in guard, the sign-in submit, a
 * logout. The sign-in page never does, so TanStack Query (~9 KB gzipped) stays off it (QUALITY.md budget). Only the
 * type is imported here: keep it that way.
 */
export type LazyQueryClient = {
  /** Creates (once) and returns the client. */
  load: () => Promise<QueryClient>
  /** The client if it exists already (a cache that was never created has nothing to forget). */
  current: () => QueryClient | undefined
}

/** From a loader (main.tsx: a dynamic import) or an existing client (tests). A failed load is retried next time. */
export function lazyQueryClient(source: QueryClient | (() => Promise<QueryClient>)): LazyQueryClient {
  let client = typeof source === 'function' ? undefined : source
  let pending: Promise<QueryClient> | undefined = client ? Promise.resolve(client) : undefined
  return {
    current: () => client,
    load: () =>
      (pending ??= (source as () => Promise<QueryClient>)().then(
        (created) => (client = created),
        (error: unknown) => {
          pending = undefined
          throw error
        },
      )),
  }
}
