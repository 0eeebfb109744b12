import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Input from '@mui/joy/Input'
import Sheet from '@mui/joy/Sheet'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { listQuery } from '../api.ts'
import { AddIcon, SearchIcon } from '../icons.tsx'
import { EntityButton } from '../links.tsx'
import { entityPath } from '../paths.ts'
import { useEntityPermissions } from '../permissions.ts'
import { EntityTable } from './EntityTable.tsx'
import { Pagination } from './Pagination.tsx'
import { useListState } from './useListState.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'

type Props = {
  entity: Entity
  /** A sub-route entity's parent id: the list is filtered by it and its links keep it. */
  parentId?: number
  /** Buttons before New (Back, Import). */
  tools?: ReactNode
}

/**
 * The generic list (spec 001 §2): filter box, the registry's columns with sortable headers, actions by permission
 * (New, Edit, Duplicate, Delete), page sizes 5–25, 'Sem resultados' when empty and 'Erro: {detail}' on failure. Used
 * by the list pages and, embedded, by crud-index fields.
 */
export function EntityList({ entity, parentId, tools }: Props) {
  const { t } = useLingui()
  const permissions = useEntityPermissions(entity)
  const extra = entity.parent && parentId !== undefined ? { [entity.parent.field]: parentId } : undefined
  const list = useListState(entity, extra)
  const query = useQuery(listQuery(entity, list.params))
  useErrorToast(query.error)
  const ids = { parentId }
  return (
    <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden', boxShadow: 'xs' }} data-testid={`entity-list-${entity.key}`}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', p: 1.5, borderBottom: '1px solid', borderColor: 'divider' }}>
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
          <EntityButton home={entity.home} path={entityPath(entity, 'create', ids)} size="sm" startDecorator={<AddIcon />} testId="list-new">
            {t`Novo`}
          </EntityButton>
        )}
      </Box>
      <EntityTable
        entity={entity}
        rows={query.data?.results ?? []}
        loading={query.isPending}
        ordering={list.params.ordering}
        onSort={list.sort}
        permissions={permissions}
        parentId={parentId}
      />
      <Pagination
        count={query.data?.count ?? 0}
        page={list.params.page}
        pageSize={list.params.pageSize}
        onPage={list.setPage}
        onPageSize={list.setPageSize}
      />
    </Sheet>
  )
}
