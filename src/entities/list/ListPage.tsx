import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Sheet from '@mui/joy/Sheet'
import type { SxProps } from '@mui/joy/styles/types'
import { DataTable } from './DataTable.tsx'
import type { DataTableProps } from './DataTable.tsx'
import { Pagination } from './Pagination.tsx'
import type { ListState } from './useListState.ts'

type Props<Row, F> = Omit<DataTableProps<Row>, 'ordering' | 'onSort'> & {
  /** The list's state (useListState): ordering, page and page size. */
  readonly list: ListState<F>
  /** Rows in the whole list (the answer's `count`). */
  readonly count: number
  /** Filter controls and buttons above the table. */
  readonly toolbar?: ReactNode
  readonly toolbarSx?: SxProps
  /** Offer "all" among the page sizes (reports leave it out). */
  readonly allowAll?: boolean
  readonly testId?: string
}

/**
 * The one list every list page composes (spec 001 §2): a toolbar of filters and buttons, the table, and the page
 * sizes with the range shown, wired to one list state. Settings lists, the calls page and the audit log use it.
 */
export function ListPage<Row, F>({ list, count, toolbar, toolbarSx, allowAll, testId, ...table }: Props<Row, F>) {
  return (
    <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden', boxShadow: 'xs' }} data-testid={testId}>
      {toolbar && (
        <Box
          sx={[
            { display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', p: 1.5, borderBottom: '1px solid', borderColor: 'divider' },
            ...(Array.isArray(toolbarSx) ? toolbarSx : [toolbarSx]),
          ]}
        >
          {toolbar}
        </Box>
      )}
      <DataTable {...table} ordering={list.params.ordering} onSort={list.sort} />
      <Pagination
        count={count}
        page={list.params.page}
        pageSize={list.params.pageSize}
        allowAll={allowAll}
        onPage={list.setPage}
        onPageSize={list.setPageSize}
      />
    </Sheet>
  )
}
