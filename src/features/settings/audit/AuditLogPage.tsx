import { Fragment, useState } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Sheet from '@mui/joy/Sheet'
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
import { Pagination } from '../../../entities/list/Pagination.tsx'
import { DEFAULT_PAGE_SIZE } from '../../../entities/list/useListState.ts'
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
  const [filters, setFilters] = useState<Filters>(EMPTY)
  const [page, setPage] = useState(0)
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE)
  const [open, setOpen] = useState<number>()
  const query = useQuery({
    queryKey: ['audit-log', filters, page, pageSize],
    queryFn: ({ signal }) => api.get<ListResponse<AuditEntry>>(clientPath(AUDIT_LOG_API), auditQueryParams(filters, page, pageSize), { signal }),
    placeholderData: (previous) => previous,
  })
  const users = useQuery(lookupQuery('/api/v1/business/users/', { ordering: 'username' }))
  useErrorToast(query.error)
  const set = (patch: Partial<Filters>) => {
    setFilters((prev) => ({ ...prev, ...patch }))
    setPage(0)
  }
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
  const rows = query.data?.results ?? []
  return (
    <>
      <PageHeader title={t`Registro de auditoria`} subtitle={t`Quem criou, alterou ou excluiu cada cadastro, e o que mudou.`} />
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden', boxShadow: 'xs' }}>
        <Box sx={{ display: 'grid', gap: 1.5, p: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '2fr 1.5fr 1fr 1fr 1fr' }, borderBottom: '1px solid', borderColor: 'divider' }}>
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
        </Box>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="sm" hoverRow sx={{ minWidth: 720, '& thead th': { bgcolor: 'background.level1' } }}>
            <thead>
              <tr>
                <th style={{ width: 44 }} aria-label={t`Detalhes`} />
                <th style={{ width: 170 }}>{t`Quando`}</th>
                <th>{t`Quem`}</th>
                <th>{t`Ação`}</th>
                <th>{t`Cadastro`}</th>
                <th style={{ width: 90 }}>ID</th>
                <th>{t`Campos alterados`}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && !query.isPending && (
                <tr>
                  <td colSpan={7}>
                    <Typography level="body-sm" textColor="text.tertiary" sx={{ textAlign: 'center', py: 3 }}>
                      {t`Sem resultados`}
                    </Typography>
                  </td>
                </tr>
              )}
              {rows.map((entry) => {
                const changes = auditChanges(entry.before, entry.after)
                const expanded = open === entry.id
                return (
                  <Fragment key={entry.id}>
                    <tr data-testid="audit-row">
                      <td>
                        <IconButton size="sm" variant="plain" aria-expanded={expanded} aria-label={t`Ver alterações`} onClick={() => setOpen(expanded ? undefined : entry.id)}>
                          <ExpandMoreIcon sx={{ transform: expanded ? 'rotate(180deg)' : 'none', transition: 'transform 120ms' }} />
                        </IconButton>
                      </td>
                      <td>{formatDateTime(entry.at)}</td>
                      <td>{entry.user_description ?? (entry.user === null ? t`Sistema` : `#${entry.user}`)}</td>
                      <td>
                        <Chip size="sm" variant="soft" color={actionColor[entry.action] ?? 'neutral'}>
                          {actionLabel[entry.action] ?? entry.action}
                        </Chip>
                        {entry.cascade_of && (
                          <Typography level="body-xs" textColor="text.tertiary" data-testid="audit-cascade">
                            {t`em cascata de ${cascadeLabel(entry.cascade_of)}`}
                          </Typography>
                        )}
                      </td>
                      <td>{entityLabel(entry.entity)}</td>
                      <td>{entry.object_id}</td>
                      <td>
                        <Typography level="body-xs" textColor="text.secondary" noWrap sx={{ maxWidth: 320 }}>
                          {changes.map((c) => fieldLabel(entry.entity, c.field)).join(', ')}
                        </Typography>
                      </td>
                    </tr>
                    {expanded && (
                      <tr>
                        <td colSpan={7} style={{ background: 'var(--joy-palette-background-level1)' }}>
                          <Table size="sm" borderAxis="bothBetween" aria-label={t`Antes e depois`} sx={{ bgcolor: 'background.surface', '& td': { wordBreak: 'break-word', verticalAlign: 'top' } }}>
                            <thead>
                              <tr>
                                <th style={{ width: '24%' }}>{t`Campo`}</th>
                                <th>{t`Antes`}</th>
                                <th>{t`Depois`}</th>
                              </tr>
                            </thead>
                            <tbody>
                              {changes.map((c) => (
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
                        </td>
                      </tr>
                    )}
                  </Fragment>
                )
              })}
            </tbody>
          </Table>
        </Box>
        <Pagination
          count={query.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          onPageSize={(size) => {
            setPageSize(size)
            setPage(0)
          }}
        />
      </Sheet>
    </>
  )
}
