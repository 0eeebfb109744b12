import { queryOptions } from '@tanstack/react-query'
import { LOOKUP_LIMIT, LOOKUP_RETRIES, PAGE_SIZE_ALL, UNPAGED_LIMIT } from '../../contract/constants.ts'
import type { Entity, Payload, Values } from '../../contract/entities/index.ts'
import { api } from '../api/client.ts'
import type { Query } from '../api/client.ts'

// Calls of the generic settings screens (spec 000 §7 "Generic list"): DRF lists, detail, create (POST), update (PUT
// {api}{id}/), delete, with JSON or multipart bodies, and the lookups of select-like fields.

export type ApiRecord = Values & { id: number }

/** The registry's paths start with /api (as the server mounts them); the client adds that base itself. */
export function clientPath(path: string): string {
  return path.replace(/^\/api(?=\/)/, '')
}
export type ListResponse<T = ApiRecord> = { count: number; results: T[] }

export type ListParams = {
  readonly page: number
  /** One of PAGE_SIZE_OPTIONS, or PAGE_SIZE_ALL. */
  readonly pageSize: number
  readonly ordering: readonly string[]
  readonly search: string
  /** Filters: the parent of a sub-route (`outbound_route=7`), … */
  readonly extra?: Query
}

/** The query string of a list page: offset, limit (99999 for "all"), ordering comma-joined, search, extras. */
export function listQueryParams(params: ListParams): Query {
  const limit = params.pageSize === PAGE_SIZE_ALL ? UNPAGED_LIMIT : params.pageSize
  return {
    offset: params.pageSize === PAGE_SIZE_ALL ? 0 : params.page * params.pageSize,
    limit,
    ordering: params.ordering.join(','),
    ...(params.search.trim() ? { search: params.search.trim() } : {}),
    ...params.extra,
  }
}

export const entityQueryKey = (entity: Entity) => ['entity', entity.key] as const

export function listQuery(entity: Entity, params: ListParams) {
  const query = listQueryParams(params)
  return queryOptions({
    queryKey: [...entityQueryKey(entity), 'list', query] as const,
    queryFn: ({ signal }) => api.get<ListResponse>(clientPath(entity.api), query, { signal }),
    placeholderData: (previous) => previous,
  })
}

export function detailQuery(entity: Entity, id: number) {
  return queryOptions({
    queryKey: [...entityQueryKey(entity), 'detail', id] as const,
    queryFn: ({ signal }) => api.get<ApiRecord>(clientPath(`${entity.api}${id}/`), undefined, { signal }),
    staleTime: 0,
  })
}

/** The record a copy starts from (create?duplicate_id=): the detail with its unique values made free by the server. */
export function duplicateQuery(entity: Entity, id: number) {
  return queryOptions({
    queryKey: [...entityQueryKey(entity), 'duplicate', id] as const,
    queryFn: ({ signal }) => api.get<ApiRecord>(clientPath(`${entity.api}${id}/`), { duplicate: 'true' }, { signal }),
    staleTime: 0,
  })
}

/** A payload from `payloadFor` as the client sends it: JSON, or FormData with `params` first and one part per file. */
export function requestBody(payload: Payload): unknown {
  if ('json' in payload) return payload.json
  const form = new FormData()
  for (const [name, value] of payload.multipart) form.append(name, value)
  return form
}

export function saveRecord(entity: Entity, payload: Payload, id?: number): Promise<ApiRecord> {
  const body = requestBody(payload)
  return id === undefined ? api.post<ApiRecord>(clientPath(entity.api), body) : api.put<ApiRecord>(clientPath(`${entity.api}${id}/`), body)
}

export function deleteRecord(entity: Entity, id: number): Promise<unknown> {
  return api.delete(clientPath(`${entity.api}${id}/`))
}

export type LookupRow = Record<string, unknown>

/** Choices of a select-like field: `GET path?limit=999999[&search=]`, retried up to 5 times (spec 001 §9). */
export function lookupQuery(path: string, query: Query = {}) {
  const full = { limit: LOOKUP_LIMIT, ...query }
  return queryOptions({
    queryKey: ['lookup', path, full] as const,
    queryFn: ({ signal }) => api.get<ListResponse<LookupRow> | LookupRow[]>(clientPath(path), full, { signal }),
    select: (data): LookupRow[] => (Array.isArray(data) ? data : (data?.results ?? [])),
    retry: LOOKUP_RETRIES,
    retryDelay: (attempt) => Math.min(250 * 2 ** attempt, 4000),
    staleTime: 60_000,
  })
}
