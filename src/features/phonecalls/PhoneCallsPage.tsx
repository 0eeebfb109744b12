import { useEffect, useState } from 'react'
import Box from '@mui/joy/Box'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import LinearProgress from '@mui/joy/LinearProgress'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Sheet from '@mui/joy/Sheet'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { CallRow } from '../../../contract/api/calls.ts'
import { callTypeLabel } from '../../../contract/codes/index.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { formatDateTime } from '../../app/dates.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { lookupQuery } from '../../entities/api.ts'
import { SearchIcon } from '../../entities/icons.tsx'
import { Pagination } from '../../entities/list/Pagination.tsx'
import { DEFAULT_PAGE_SIZE, useDebouncedValue } from '../../entities/list/useListState.ts'
import { useRoles } from '../../entities/permissions.ts'
import { CallDetailDialog } from './CallDetailDialog.tsx'
import { callListQuery, NO_FILTERS, QUEUE_LOOKUP } from './callsApi.ts'
import type { CallFilters } from './callsApi.ts'
import { callTypeOptions, DIRECTION_LABELS, dialStatusOptions, statusText } from './callText.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import { EmptyRow } from '../../components/table/EmptyRow.tsx'

const COLUMNS = 8

/**
 * /phonecalls (spec 000 §2): the calls the agent placed or was offered — a supervisor's or reporter's whole site —
 * newest first, with the filters of GET /v1/report/calls/ (dates, call type, status, phone search debounced 500 ms,
 * queue), page sizes 5–25, 'Sem resultados' and the 'Erro: {detail}' toast. A row opens the call's detail.
 */
export function PhoneCallsPage() {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const roles = useRoles()
  const [filters, setFilters] = useState<Omit<CallFilters, 'search'>>(NO_FILTERS)
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText)
  const [page, setPage] = useState(0)
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE)
  const [open, setOpen] = useState<CallRow>()
  useEffect(() => setPage(0), [search])
  const query = useQuery(callListQuery({ ...filters, search }, page, pageSize))
  const queues = useQuery(lookupQuery(QUEUE_LOOKUP))
  useErrorToast(query.error)
  const set = (patch: Partial<CallFilters>) => {
    setFilters((previous) => ({ ...previous, ...patch }))
    setPage(0)
  }
  const rows = query.data?.results ?? []
  const direction = (value: string) => {
    const descriptor = DIRECTION_LABELS[value]
    return descriptor ? i18n._(descriptor) : value
  }
  return (
    <>
      <PageHeader title={t`Chamadas`} subtitle={t`As chamadas feitas e recebidas; clique em uma para ver os detalhes.`} />
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden', boxShadow: 'xs' }} data-testid="phonecalls">
        <Box
          sx={{
            display: 'grid', gap: 1.5, p: 1.5, borderBottom: '1px solid', borderColor: 'divider',
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1.4fr 1.4fr 1.4fr 1.4fr' },
          }}
        >
          <FormControl id="calls-from" size="sm">
            <FormLabel>{t`De`}</FormLabel>
            <Input type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} />
          </FormControl>
          <FormControl id="calls-to" size="sm">
            <FormLabel>{t`Até`}</FormLabel>
            <Input type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} />
          </FormControl>
          <FormControl id="calls-type" size="sm">
            <FormLabel>{t`Tipo de chamada`}</FormLabel>
            <Select value={filters.callType} onChange={(_, value) => set({ callType: value ?? '' })}>
              <Option value="">{t`Todos`}</Option>
              {callTypeOptions(locale).map((option) => (
                <Option key={option.value} value={option.value}>
                  {option.label}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl id="calls-status" size="sm">
            <FormLabel>{t`Status`}</FormLabel>
            <Select value={filters.dialStatus} onChange={(_, value) => set({ dialStatus: value ?? '' })}>
              <Option value="">{t`Todos`}</Option>
              {dialStatusOptions(locale).map((option) => (
                <Option key={option.value} value={option.value}>
                  {option.label}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl id="calls-queue" size="sm">
            <FormLabel>{t`Fila`}</FormLabel>
            <Select value={filters.queue} onChange={(_, value) => set({ queue: value ?? '' })}>
              <Option value="">{t`Todas`}</Option>
              {(queues.data ?? []).map((queue) => (
                <Option key={String(queue.id)} value={String(queue.id)}>
                  {String(queue.description ?? queue.id)}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl id="calls-search" size="sm">
            <FormLabel>{t`Telefone`}</FormLabel>
            <Input
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              placeholder={t`Buscar telefone`}
              startDecorator={<SearchIcon />}
              slotProps={{ input: { type: 'search' } }}
            />
          </FormControl>
        </Box>
        <Box sx={{ overflowX: 'auto', position: 'relative' }}>
          {query.isFetching && <LinearProgress size="sm" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
          <Table hoverRow size="sm" sx={{ '--TableCell-paddingX': '12px', '--TableCell-paddingY': '8px', minWidth: 900, '& thead th': { bgcolor: 'background.level1', whiteSpace: 'normal', verticalAlign: 'bottom' } }}>
            <thead>
              <tr>
                <th style={{ width: 160 }}>{t`Data/hora`}</th>
                <th>{t`Telefone`}</th>
                <th>{t`Tipo`}</th>
                <th>{t`Agente/ramal`}</th>
                <th>{t`Fila`}</th>
                <th>{t`Status`}</th>
                <th style={{ width: 110 }}>{t`Duração`}</th>
                <th style={{ width: 120 }}>{t`Tempo atendido`}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && !query.isPending && <EmptyRow colSpan={COLUMNS}>{t`Sem resultados`}</EmptyRow>}
              {rows.map((call) => {
                const party = call.phone || call.endpoint
                const typeLabel = callTypeLabel(call.call_type, locale)
                const directionLabel = direction(call.direction)
                return (
                <tr
                  key={call.call_id}
                  data-testid="call-row"
                  tabIndex={0}
                  aria-label={t`Ver detalhes da chamada ${party}`}
                  onClick={() => setOpen(call)}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setOpen(call))}
                  style={{ cursor: 'pointer' }}
                >
                  <td>{formatDateTime(call.datetime)}</td>
                  <td>{call.phone}</td>
                  <td>
                    {typeLabel}
                    {/* The direction under the type, unless the type already says it (en-US 'Inbound'). */}
                    {directionLabel !== typeLabel && (
                      <Typography level="body-xs" textColor="text.tertiary">
                        {directionLabel}
                      </Typography>
                    )}
                  </td>
                  <td>
                    {call.user_description}
                    {call.endpoint && (
                      <Typography level="body-xs" textColor="text.tertiary">
                        {call.endpoint}
                      </Typography>
                    )}
                  </td>
                  <td>{call.queue_description}</td>
                  <td data-testid="call-status">{call.dial_status === null ? '' : statusText(call.dial_status, call.dial_status_text, locale)}</td>
                  <td>{call.total_duration === null ? '' : formatDuration(call.total_duration)}</td>
                  <td>{formatDuration(call.total_answer_duration)}</td>
                </tr>
                )
              })}
            </tbody>
          </Table>
        </Box>
        <Pagination
          count={query.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          allowAll={false}
          onPage={setPage}
          onPageSize={(size) => {
            setPageSize(size)
            setPage(0)
          }}
        />
      </Sheet>
      {open && <CallDetailDialog call={open} canPlay={has(roles, PERMISSIONS.downloadMonitorFile)} onClose={() => setOpen(undefined)} />}
    </>
  )
}
