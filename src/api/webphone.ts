import { queryOptions, useQuery } from '@tanstack/react-query'
import { LOOKUP_LIMIT, LOOKUP_RETRIES } from '../../contract/constants.ts'
import { api } from './client.ts'
import { CALL_PATHS } from '../../contract/api/calls.ts'
import type { PermissionAppRow } from '../../contract/api/calls.ts'
import type { DiallableApp } from '../../contract/codes/transfer.ts'

// The webphone's lookups (spec 000 §7 "Lookups for the webphone"): the team's outbound routes for the dialpad's route
// selector, the extensions the phonebook dials, and the destinations of each app the agent's extension may transfer
// to or call (permission-apps). All are DRF lists `{count, results}`, asked with limit 999999
// and retried 5 times.

export type OutboundRoute = { id: number; description: string }
/** A lookup row: `number` or `username` when the server sends them, else the number is read from the description. */
export type PhonebookEntry = { id: number; description: string; number?: string; username?: string }
type List<T> = { count: number; results: T[] }

export const WEBPHONE_PATHS = {
  outboundRoutes: '/v1/pabx/outbound-routes/',
  endpoints: '/v1/service/apps/pabx/endpoints/',
} as const

export const outboundRoutesQuery = queryOptions({
  queryKey: ['webphone', 'outbound-routes'],
  queryFn: ({ signal }) => api.get<List<OutboundRoute>>(WEBPHONE_PATHS.outboundRoutes, { webphone: true, limit: LOOKUP_LIMIT }, { signal }),
  select: (list) => list.results,
  retry: LOOKUP_RETRIES,
  staleTime: 5 * 60_000,
})

export const phonebookQuery = queryOptions({
  queryKey: ['webphone', 'phonebook'],
  queryFn: ({ signal }) => api.get<List<PhonebookEntry>>(WEBPHONE_PATHS.endpoints, { limit: LOOKUP_LIMIT }, { signal }),
  select: (list) => list.results,
  retry: LOOKUP_RETRIES,
  staleTime: 60_000,
})

/** The routes the webphone may dial through; the dialpad shows its selector only when there are several. */
export function useOutboundRoutes(enabled = true) {
  return useQuery({ ...outboundRoutesQuery, enabled })
}

export function usePhonebook(enabled = true) {
  return useQuery({ ...phonebookQuery, enabled })
}

/** The number to dial for a phonebook row: the server's, else the first run of 3+ digits of its description ('Ramal 1001 (Ana)'). */
export function phonebookNumber(entry: PhonebookEntry): string {
  return entry.number ?? entry.username ?? /\d{3,}/.exec(entry.description)?.[0] ?? ''
}

/**
 * The destinations of `app` the extension may `kind` (transfer or call): the permission-apps list (spec 000 §6, §7).
 * Off until both the extension and the app are known.
 */
export function usePermissionApps(endpoint: string | null, app: DiallableApp | null, kind: 'transfer' | 'call') {
  const path = CALL_PATHS.permissionApps
    .replace(':endpoint', encodeURIComponent(endpoint ?? ''))
    .replace(':app', app ?? '')
    .replace(':kind', kind)
  return useQuery({
    queryKey: ['webphone', 'permission-apps', endpoint, app, kind],
    queryFn: ({ signal }) => api.get<List<PermissionAppRow>>(path, { limit: LOOKUP_LIMIT }, { signal }),
    select: (list) => list.results,
    retry: LOOKUP_RETRIES,
    staleTime: 60_000,
    enabled: !!endpoint && !!app,
  })
}
