import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Input from '@mui/joy/Input'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { listQuery } from '../api.ts'
import { AddIcon, SearchIcon } from '../icons.tsx'
import { EntityButton } from '../links.tsx'
import { entityPath } from '../paths.ts'
import { useEntityPermissions } from '../permissions.ts'
import { useEntityColumns } from './entityColumns.tsx'
import { ListPage } from './ListPage.tsx'
import { useListState } from './useListState.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'

type Props = {
  entity: Entity
  /** A sub-route entity's parent id: the list is filtered by it and its links keep it. */
  parentId?: number
  /** Buttons before New (Back, Import). */
  tools?: ReactNode
  /** Fields the list is narrowed by (the interactions of one type). */
  filter?: Readonly<Record<string, number>>
}

/**
 * The generic list (spec 001 §2): filter box, the registry's columns with sortable headers, actions by permission
 * (New, Edit, Duplicate, Delete), page sizes 5–25, 'Sem resultados' when empty and 'Erro: {detail}' on failure. Used
 * by the list pages and, embedded, by crud-index fields.
 */
export function EntityList({ entity, parentId, tools, filter }: Props) {
  const { t } = useLingui()
  const permissions = useEntityPermissions(entity)
  const parentFilter = entity.parent && parentId !== undefined ? { [entity.parent.field]: parentId } : undefined
  const extra = filter || parentFilter ? { ...filter, ...parentFilter } : undefined
  const list = useListState({ ordering: entity.list.ordering, extra })
  const query = useQuery(listQuery(entity, list.params))
  useErrorToast(query.error)
  const columns = useEntityColumns(entity, permissions, parentId)
  return (
    <ListPage
      testId={`entity-list-${entity.key}`}
      list={list}
      count={query.data?.count ?? 0}
      columns={columns}
      rows={query.data?.results ?? []}
      rowKey={(row) => row.id}
      rowProps={() => ({ 'data-testid': 'list-row' })}
      loading={query.isPending}
      pending={query.isPending}
      toolbar={
        <>
          <Input
            size="sm"
            value={list.searchText}
            onChange={(e) => list.setSearchText(e.target.value)}
            placeholder={t`Filtrar`}
            startDecorator={<SearchIcon />}
            slotProps={{ input: { 'aria-label': t`Filtrar`, type: 'search' } }}
            sx={{ flex: '1 1 220px', maxWidth: 360 }}
          />
          <Box sx={{ flex: 1 }} />
          {tools}
          {permissions.add && (
            <EntityButton home={entity.home} path={entityPath(entity, 'create', { parentId })} size="sm" startDecorator={<AddIcon />} testId="list-new">
              {t`Novo`}
            </EntityButton>
          )}
        </>
      }
    />
  )
}
