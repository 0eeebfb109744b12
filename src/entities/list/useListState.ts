import { useEffect, useState } from 'react'
import { LIST_SEARCH_DEBOUNCE_MS } from '../../../contract/constants.ts'
import type { ListParams } from '../api.ts'

export const DEFAULT_PAGE_SIZE = 10

/**
 * A header click: ascending on a new column, then descending, then back to the list's default ordering
 * (`-is_active,id` for most entities, spec 001 §9).
 */
export function nextOrdering(current: readonly string[], column: string, defaults: readonly string[]): string[] {
  if (current[0] === column) return [`-${column}`]
  if (current[0] === `-${column}`) return [...defaults]
  return [column]
}

/** The direction a column is sorted in, by the first ordering term only. */
export function sortDirection(ordering: readonly string[], column: string): 'asc' | 'desc' | undefined {
  if (ordering[0] === column) return 'asc'
  if (ordering[0] === `-${column}`) return 'desc'
  return undefined
}

export function useDebouncedValue<T>(value: T, delay = LIST_SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay)
    return () => clearTimeout(timer)
  }, [value, delay])
  return debounced
}

type Options<F> = {
  /** The default ordering, to which a third header click returns. */
  readonly ordering?: readonly string[]
  /** Fixed filters of the list (a sub-route's parent). */
  readonly extra?: ListParams['extra']
  /** The list's own filters (dates, types, …), as the page's filter controls hold them. */
  readonly filters?: F
}

export type ListState<F = Record<string, never>> = ReturnType<typeof useListState<F>>

/**
 * Search box (debounced 500 ms), ordering, filters, page and page size of one list: every list page's state. A new
 * search, filter, ordering or page size goes back to page 1.
 */
export function useListState<F = Record<string, never>>(options: Options<F> = {}) {
  const defaults = options.ordering ?? []
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText)
  const [ordering, setOrdering] = useState<readonly string[]>(defaults)
  const [filters, setFilterState] = useState<F>(options.filters ?? ({} as F))
  const [pageSize, setPageSizeState] = useState(DEFAULT_PAGE_SIZE)
  // A page belongs to the search it was chosen under: a new search starts from the first page in the same render
  // (an effect resetting it would first ask the server for the new search at the old page).
  const [pageOf, setPageOf] = useState<{ page: number; search: string }>({ page: 0, search: '' })
  const page = pageOf.search === search ? pageOf.page : 0
  const setPage = (next: number) => setPageOf({ page: next, search })
  const params: ListParams = { page, pageSize, ordering, search, extra: options.extra }
  return {
    params,
    filters,
    searchText,
    setSearchText,
    setFilters: (patch: Partial<F>) => {
      setFilterState((previous) => ({ ...previous, ...patch }))
      setPage(0)
    },
    sort: (column: string) => {
      setOrdering((current) => nextOrdering(current, column, defaults))
      setPage(0)
    },
    setPage,
    setPageSize: (size: number) => {
      setPageSizeState(size)
      setPage(0)
    },
  }
}
