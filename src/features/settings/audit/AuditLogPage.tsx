import { useState } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { ENTITIES, findEntity } from '../../../../contract/entities/index.ts'
import { api } from '../../../api/client.ts'
import { dayjs, formatDateTime } from '../../../app/dates.ts'
import { ExpandMoreIcon } from '../../../components/icons/icons.tsx'
import { PageHeader } from '../../../components/layout/PageHeader.tsx'
import type { ListResponse } from '../../../entities/api.ts'
import { clientPath, lookupQuery } from '../../../entities/api.ts'
import { fieldOf } from '../../../entities/list/cells.tsx'
import type { Column } from '../../../entities/list/DataTable.tsx'
import { ListPage } from '../../../entities/list/ListPage.tsx'
import { useListState } from '../../../entities/list/useListState.ts'
import { useText } from '../../../entities/text.ts'
import { auditChanges, showValue } from './auditDiff.ts'
import type { AuditEntry } from './auditDiff.ts'
import { useErrorToast } from '../../../components/toast/useErrorToast.ts'

export const AUDIT_LOG_API = '/api/v1/system/audit-log/'

/** One side of a change: text as is, lists and rows as indented JSON in a scrolling block. */
function DiffValue({ value }: { value: unknown }) {
  const text = showValue(value)
  if (typeof value !== 'object' || value === null) return <>{text}</>
  return (
    <Box component="pre" sx={{ m: 0, fontSize: 'xs', fontFamily: 'code', whiteSpace: 'pre-wrap', maxHeight: 240, overflow: 'auto' }}>
      {text}
    </Box>
  )
}

type Filters = { entity: string; user: string; action: string; from: string; to: string }
const EMPTY: Filters = { entity: '', user: '', action: '', from: '', to: '' }

/** The audit log's query: the filters (dates as whole local days), newest first, paged. */
export function auditQueryParams(filters: Filters, page: number, pageSize: number): Record<string, string | number> {
  return {
    offset: page * pageSize,
    limit: pageSize,
    ordering: '-at,-id',
    ...(filters.entity ? { entity: filters.entity } : {}),
    ...(filters.user ? { user: filters.user } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.from ? { at__gte: dayjs(filters.from).startOf('day').toISOString() } : {}),
    ...(filters.to ? { at__lte: dayjs(filters.to).endOf('day').toISOString() } : {}),
  }
}

/** /settings/system/audit-log — who changed which settings row, when, and what (before → after). */
export function AuditLogPage() {
  const { t } = useLingui()
  const text = useText()
  const list = useListState<Filters>({ filters: EMPTY })
  const { filters, setFilters: set } = list
  const { page, pageSize } = list.params
  const [open, setOpen] = useState<number>()
  const query = useQuery({
    queryKey: ['audit-log', filters, page, pageSize],
    queryFn: ({ signal }) => api.get<ListResponse<AuditEntry>>(clientPath(AUDIT_LOG_API), auditQueryParams(filters, page, pageSize), { signal }),
    placeholderData: (previous) => previous,
  })
  const users = useQuery(lookupQuery('/api/v1/business/users/', { ordering: 'username' }))
  useErrorToast(query.error)
  const actionLabel = { create: t`Criação`, update: t`Alteração`, delete: t`Exclusão` } as const
  const actionColor = { create: 'success', update: 'primary', delete: 'danger' } as const
  const entityLabel = (key: string) => {
    const entity = findEntity(key)
    return entity ? text(entity.label.singular) : key
  }
  // A row the database removed or cleared because another was deleted names that row.
  const cascadeLabel = (origin: { entity: string; object_id: number }) => `${entityLabel(origin.entity)} #${origin.object_id}`
  const fieldLabel = (key: string, field: string) => {
    const entity = findEntity(key)
    return (entity && text(fieldOf(entity, field)?.label)) || field
  }
  const columns: Column<AuditEntry>[] = [
    {
      key: 'expand',
      header: null,
      ariaLabel: t`Detalhes`,
      width: 44,
      cell: (entry) => {
        const expanded = open === entry.id
        return (
          <IconButton
            size="sm"
            variant="plain"
            aria-expanded={expanded}
            aria-label={t`Ver alterações`}
            onClick={() => setOpen(expanded ? undefined : entry.id)}
          >
            <ExpandMoreIcon sx={{ transform: expanded ? 'rotate(180deg)' : 'none', transition: 'transform 120ms' }} />
          </IconButton>
        )
      },
    },
    { key: 'at', header: t`Quando`, width: 170, cell: (entry) => formatDateTime(entry.at) },
    { key: 'user', header: t`Quem`, cell: (entry) => entry.user_description ?? (entry.user === null ? t`Sistema` : `#${entry.user}`) },
    {
      key: 'action',
      header: t`Ação`,
      cell: (entry) => (
        <>
          <Chip size="sm" variant="soft" color={actionColor[entry.action] ?? 'neutral'}>
            {actionLabel[entry.action] ?? entry.action}
          </Chip>
          {entry.cascade_of && (
            <Typography level="body-xs" textColor="text.tertiary" data-testid="audit-cascade">
              {t`em cascata de ${cascadeLabel(entry.cascade_of)}`}
            </Typography>
          )}
        </>
      ),
    },
    { key: 'entity', header: t`Cadastro`, cell: (entry) => entityLabel(entry.entity) },
    { key: 'object_id', header: 'ID', width: 90, cell: (entry) => entry.object_id },
    {
      key: 'changes',
      header: t`Campos alterados`,
      cell: (entry) => (
        <Typography level="body-xs" textColor="text.secondary" noWrap sx={{ maxWidth: 320 }}>
          {auditChanges(entry.before, entry.after)
            .map((c) => fieldLabel(entry.entity, c.field))
            .join(', ')}
        </Typography>
      ),
    },
  ]
  const detail = (entry: AuditEntry) =>
    open === entry.id && (
      <Table
        size="sm"
        borderAxis="bothBetween"
        aria-label={t`Antes e depois`}
        sx={{ bgcolor: 'background.surface', '& td': { wordBreak: 'break-word', verticalAlign: 'top' } }}
      >
        <thead>
          <tr>
            <th style={{ width: '24%' }}>{t`Campo`}</th>
            <th>{t`Antes`}</th>
            <th>{t`Depois`}</th>
          </tr>
        </thead>
        <tbody>
          {auditChanges(entry.before, entry.after).map((c) => (
            <tr key={c.field} data-testid="audit-change">
              <td>{fieldLabel(entry.entity, c.field)}</td>
              <td style={{ color: 'var(--joy-palette-danger-600)' }}>
                <DiffValue value={c.before} />
              </td>
              <td style={{ color: 'var(--joy-palette-success-700)' }}>
                <DiffValue value={c.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    )
  return (
    <>
      <PageHeader title={t`Registro de auditoria`} subtitle={t`Quem criou, alterou ou excluiu cada cadastro, e o que mudou.`} />
      <ListPage
        list={list}
        count={query.data?.count ?? 0}
        columns={columns}
        rows={query.data?.results ?? []}
        rowKey={(entry) => entry.id}
        rowProps={() => ({ 'data-testid': 'audit-row' })}
        detail={detail}
        loading={query.isFetching}
        pending={query.isPending}
        minWidth={720}
        toolbarSx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '2fr 1.5fr 1fr 1fr 1fr' } }}
        toolbar={
          <>
            <FormControl id="audit-entity" size="sm">
              <FormLabel>{t`Cadastro`}</FormLabel>
              <Select value={filters.entity} onChange={(_, v) => set({ entity: v ?? '' })}>
                <Option value="">{t`Todos`}</Option>
                {ENTITIES.map((e) => (
                  <Option key={e.key} value={e.key}>
                    {text(e.label.plural)}
                  </Option>
                ))}
              </Select>
            </FormControl>
            <FormControl id="audit-user" size="sm">
              <FormLabel>{t`Usuário`}</FormLabel>
              <Select value={filters.user} onChange={(_, v) => set({ user: v ?? '' })}>
                <Option value="">{t`Todos`}</Option>
                {(users.data ?? []).map((u) => (
                  <Option key={String(u.id)} value={String(u.id)}>
                    {String(u.username ?? u.id)}
                  </Option>
                ))}
              </Select>
            </FormControl>
            <FormControl id="audit-action" size="sm">
              <FormLabel>{t`Ação`}</FormLabel>
              <Select value={filters.action} onChange={(_, v) => set({ action: v ?? '' })}>
                <Option value="">{t`Todas`}</Option>
                {(['create', 'update', 'delete'] as const).map((a) => (
                  <Option key={a} value={a}>
                    {actionLabel[a]}
                  </Option>
                ))}
              </Select>
            </FormControl>
            <FormControl id="audit-from" size="sm">
              <FormLabel>{t`De`}</FormLabel>
              <Input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
            </FormControl>
            <FormControl id="audit-to" size="sm">
              <FormLabel>{t`Até`}</FormLabel>
              <Input type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
            </FormControl>
          </>
        }
      />
    </>
  )
}
