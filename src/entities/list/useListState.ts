import { useEffect, useState } from 'react'
import { LIST_SEARCH_DEBOUNCE_MS } from '../../../contract/constants.ts'
import type { Entity } from '../../../contract/entities/index.ts'
import type { ListParams } from '../api.ts'

export const DEFAULT_PAGE_SIZE = 10

/**
 * A header click: ascending on a new column, then descending, then back to the entity's default ordering
 * (`-is_active,id` for most, spec 001 §9).
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

/** Search box (debounced 500 ms), ordering, page and page size of one list; a new search or size goes to page 1. */
export function useListState(entity: Entity, extra?: ListParams['extra']) {
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText)
  const [ordering, setOrdering] = useState<readonly string[]>(entity.list.ordering)
  const [pageSize, setPageSizeState] = useState(DEFAULT_PAGE_SIZE)
  const [page, setPage] = useState(0)
  useEffect(() => setPage(0), [search])
  const params: ListParams = { page, pageSize, ordering, search, extra }
  return {
    params,
    searchText,
    setSearchText,
    sort: (column: string) => {
      setOrdering((current) => nextOrdering(current, column, entity.list.ordering))
      setPage(0)
    },
    setPage,
    setPageSize: (size: number) => {
      setPageSizeState(size)
      setPage(0)
    },
  }
}
