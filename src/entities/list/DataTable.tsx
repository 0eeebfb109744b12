import { Fragment } from 'react'
import type { HTMLAttributes, Key, ReactNode } from 'react'
import Box from '@mui/joy/Box'
import LinearProgress from '@mui/joy/LinearProgress'
import Table from '@mui/joy/Table'
import { useLingui } from '@lingui/react/macro'
import { EmptyRow } from '../../components/table/EmptyRow.tsx'
import { SortDownIcon, SortUpIcon } from '../icons.tsx'
import { sortDirection } from './useListState.ts'

/** One column of a list: its header, its cell for a row, and whether a header click sorts by it. */
export type Column<Row> = {
  readonly key: string
  readonly header: ReactNode
  /** The header's accessible name when it shows none (an icon column). */
  readonly ariaLabel?: string
  readonly width?: number
  readonly align?: 'right'
  readonly sortable?: boolean
  readonly cell: (row: Row) => ReactNode
}

export type DataTableProps<Row> = {
  readonly columns: readonly Column<Row>[]
  readonly rows: readonly Row[]
  readonly rowKey: (row: Row) => Key
  /** A request is on its way: the progress bar shows. */
  readonly loading: boolean
  /** Nothing arrived yet: 'Sem resultados' waits. */
  readonly pending: boolean
  readonly ordering?: readonly string[]
  readonly onSort?: (column: string) => void
  /** Attributes of a row's <tr> (test id, click, keyboard, label). */
  readonly rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { 'data-testid'?: string }
  /** Content of a row drawn under a row (an expanded detail), or nothing. */
  readonly detail?: (row: Row) => ReactNode
  readonly minWidth?: number
  /**
   * A table whose rows hold nothing focusable (a report) names its scrolling region, which then takes the focus so a
   * keyboard can scroll it sideways.
   */
  readonly regionLabel?: string
}

function SortHeader({ label, direction, onClick }: { label: ReactNode; direction: 'asc' | 'desc' | undefined; onClick: () => void }) {
  const Icon = direction === 'desc' ? SortDownIcon : SortUpIcon
  return (
    <Box
      component="button"
      type="button"
      onClick={onClick}
      sx={{
        all: 'unset',
        cursor: 'pointer',
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        fontWeight: 'lg',
        '&:hover svg, &:focus-visible svg': { opacity: 1 },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'focusVisible', borderRadius: 4 },
      }}
    >
      {label}
      <Icon sx={{ fontSize: 16, opacity: direction ? 1 : 0.25, transition: 'opacity 120ms' }} />
    </Box>
  )
}

/** The table of every list: headers (sortable ones announce aria-sort), rows, 'Sem resultados', a progress bar. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  loading,
  pending,
  ordering = [],
  onSort,
  rowProps,
  detail,
  minWidth = 560,
  regionLabel,
}: DataTableProps<Row>) {
  const { t } = useLingui()
  return (
    <Box sx={{ overflowX: 'auto', position: 'relative' }} {...(regionLabel ? { role: 'region', 'aria-label': regionLabel, tabIndex: 0 } : {})}>
      {loading && <LinearProgress size="sm" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
      <Table
        hoverRow
        size="sm"
        sx={{
          '--TableCell-paddingX': '12px',
          '--TableCell-paddingY': '8px',
          minWidth,
          '& thead th': { bgcolor: 'background.level1', verticalAlign: 'middle', whiteSpace: 'normal' },
        }}
      >
        <thead>
          <tr>
            {columns.map((column) => {
              const direction = column.sortable ? sortDirection(ordering, column.key) : undefined
              return (
                <th
                  key={column.key}
                  aria-label={column.ariaLabel}
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                  style={{ ...(column.width ? { width: column.width } : {}), ...(column.align ? { textAlign: column.align } : {}) }}
                >
                  {column.sortable && onSort ? <SortHeader label={column.header} direction={direction} onClick={() => onSort(column.key)} /> : column.header}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && !pending && <EmptyRow colSpan={columns.length}>{t`Sem resultados`}</EmptyRow>}
          {rows.map((row) => {
            const more = detail?.(row)
            return (
              <Fragment key={rowKey(row)}>
                <tr {...rowProps?.(row)}>
                  {columns.map((column) => (
                    <td key={column.key} style={column.align ? { textAlign: column.align, whiteSpace: 'nowrap' } : undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
                {more && (
                  <tr>
                    <td colSpan={columns.length} style={{ background: 'var(--joy-palette-background-level1)' }}>
                      {more}
                    </td>
                  </tr>
                )}
              </Fragment>
            )
          })}
        </tbody>
      </Table>
    </Box>
  )
}
