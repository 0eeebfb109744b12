import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { DeleteIcon, EditIcon } from '../../components/icons/icons.tsx'
import type { ApiRecord } from '../api.ts'
import { CopyIcon } from '../icons.tsx'
import { EntityIconButton } from '../links.tsx'
import { entityPath } from '../paths.ts'
import type { EntityPermissions } from '../permissions.ts'
import { useText } from '../text.ts'
import { Cell, fieldOf, isSortable } from './cells.tsx'
import type { Column } from './DataTable.tsx'

/** An entity list's columns: the registry's (sortable where the server can order), then the permitted actions. */
export function useEntityColumns(entity: Entity, permissions: EntityPermissions, parentId?: number): Column<ApiRecord>[] {
  const { t } = useLingui()
  const text = useText()
  const columns: Column<ApiRecord>[] = entity.list.columns.map((column, index) => ({
    key: column,
    header: column === 'id' ? 'ID' : text(fieldOf(entity, column)?.label),
    width: index === 0 ? 72 : column === 'is_active' ? 96 : undefined,
    sortable: isSortable(entity, column),
    cell: (row) => <Cell entity={entity} column={column} record={row} />,
  }))
  if (!(permissions.change || permissions.add || permissions.delete)) return columns
  const actions: Column<ApiRecord> = {
    key: 'actions',
    header: t`Ações`,
    width: 128,
    align: 'right',
    cell: (row) => {
      const ids = { parentId, itemId: row.id }
      return (
        <>
          {permissions.change && (
            <EntityIconButton home={entity.home} path={entityPath(entity, 'edit', ids)} label={t`Editar`} testId="row-edit">
              <EditIcon />
            </EntityIconButton>
          )}
          {/* Spec 001 §6 ties Duplicate to permEdit; the copy is created, so it needs add too. */}
          {permissions.change && permissions.add && (
            <EntityIconButton
              home={entity.home}
              path={entityPath(entity, 'create', ids)}
              search={{ duplicate_id: row.id }}
              label={t`Duplicar`}
              testId="row-duplicate"
            >
              <CopyIcon />
            </EntityIconButton>
          )}
          {permissions.delete && (
            <EntityIconButton home={entity.home} path={entityPath(entity, 'delete', ids)} label={t`Deletar`} testId="row-delete" color="danger">
              <DeleteIcon />
            </EntityIconButton>
          )}
        </>
      )
    },
  }
  return [...columns, actions]
}
