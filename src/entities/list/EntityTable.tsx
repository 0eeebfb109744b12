import Box from '@mui/joy/Box'
import LinearProgress from '@mui/joy/LinearProgress'
import Table from '@mui/joy/Table'
import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { DeleteIcon, EditIcon } from '../../components/icons/icons.tsx'
import type { ApiRecord } from '../api.ts'
import { CopyIcon, SortDownIcon, SortUpIcon } from '../icons.tsx'
import { EntityIconButton } from '../links.tsx'
import { entityPath } from '../paths.ts'
import type { EntityPermissions } from '../permissions.ts'
import { useText } from '../text.ts'
import { Cell, fieldOf, isSortable } from './cells.tsx'
import { sortDirection } from './useListState.ts'
import { EmptyRow } from '../../components/table/EmptyRow.tsx'

type Props = {
  entity: Entity
  rows: readonly ApiRecord[]
  loading: boolean
  ordering: readonly string[]
  onSort: (column: string) => void
  permissions: EntityPermissions
  parentId?: number
}

function SortHeader({ label, direction, onClick }: { label: string; direction: 'asc' | 'desc' | undefined; onClick: () => void }) {
  const Icon = direction === 'desc' ? SortDownIcon : SortUpIcon
  return (
    <Box
      component="button"
      type="button"
      onClick={onClick}
      sx={{
        all: 'unset', cursor: 'pointer', display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 'lg',
        '&:hover svg, &:focus-visible svg': { opacity: 1 }, '&:focus-visible': { outline: '2px solid', outlineColor: 'focusVisible', borderRadius: 4 },
      }}
    >
      {label}
      <Icon sx={{ fontSize: 16, opacity: direction ? 1 : 0.25, transition: 'opacity 120ms' }} />
    </Box>
  )
}

/** The rows of a list: sortable headers (aria-sort), the registry's columns and the permitted actions. */
export function EntityTable({ entity, rows, loading, ordering, onSort, permissions, parentId }: Props) {
  const { t } = useLingui()
  const text = useText()
  const columns = entity.list.columns
  const actions = permissions.change || permissions.add || permissions.delete
  const label = (column: string) => (column === 'id' ? 'ID' : text(fieldOf(entity, column)?.label))
  return (
    <Box sx={{ overflowX: 'auto', position: 'relative' }}>
      {loading && <LinearProgress size="sm" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
      <Table
        hoverRow
        size="sm"
        sx={{
          '--TableCell-paddingX': '12px', '--TableCell-paddingY': '8px', minWidth: 560,
          '& thead th': { bgcolor: 'background.level1', verticalAlign: 'middle' }, '& th:first-of-type': { width: 72 },
        }}
      >
        <thead>
          <tr>
            {columns.map((column) => {
              const direction = sortDirection(ordering, column)
              return (
                <th key={column} aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined} style={column === 'is_active' ? { width: 96 } : undefined}>
                  {isSortable(entity, column) ? <SortHeader label={label(column)} direction={direction} onClick={() => onSort(column)} /> : label(column)}
                </th>
              )
            })}
            {actions && <th style={{ width: 128, textAlign: 'right' }}>{t`Ações`}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && !loading && <EmptyRow colSpan={columns.length + (actions ? 1 : 0)}>{t`Sem resultados`}</EmptyRow>}
          {rows.map((row) => {
            const ids = { parentId, itemId: row.id }
            return (
              <tr key={row.id} data-testid="list-row">
                {columns.map((column) => (
                  <td key={column}>
                    <Cell entity={entity} column={column} record={row} />
                  </td>
                ))}
                {actions && (
                  <td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {permissions.change && (
                      <EntityIconButton home={entity.home} path={entityPath(entity, 'edit', ids)} label={t`Editar`} testId="row-edit">
                        <EditIcon />
                      </EntityIconButton>
                    )}
                    {/* Spec 001 §6 ties Duplicate to permEdit; the copy is created, so it needs add too. */}
                    {permissions.change && permissions.add && (
                      <EntityIconButton home={entity.home} path={entityPath(entity, 'create', ids)} search={{ duplicate_id: row.id }} label={t`Duplicar`} testId="row-duplicate">
                        <CopyIcon />
                      </EntityIconButton>
                    )}
                    {permissions.delete && (
                      <EntityIconButton home={entity.home} path={entityPath(entity, 'delete', ids)} label={t`Deletar`} testId="row-delete" color="danger">
                        <DeleteIcon />
                      </EntityIconButton>
                    )}
                  </td>
                )}
              </tr>
            )
          })}
        </tbody>
      </Table>
    </Box>
  )
}
