import type { LazyQueryClient } from './lazyQueryClient.ts'

/**
 * What the router gives every route: `queries` is created by the first page that needs it; pages under `_app` get the
 * client itself as `queryClient`. A leaf, so the root route can name it without importing the router (and its tree).
 */
export type RouterContext = { queries: LazyQueryClient }
