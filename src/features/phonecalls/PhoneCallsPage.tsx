import { useState } from 'react'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
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
import type { Column } from '../../entities/list/DataTable.tsx'
import { ListPage } from '../../entities/list/ListPage.tsx'
import { useListState } from '../../entities/list/useListState.ts'
import { useRoles } from '../../entities/permissions.ts'
import { CallDetailDialog } from './CallDetailDialog.tsx'
import { callListQuery, CLASSIFICATION_LOOKUP, NO_FILTERS, QUEUE_LOOKUP } from './callsApi.ts'
import type { CallFilters } from './callsApi.ts'
import { callTypeOptions, DIRECTION_LABELS, dialStatusOptions, statusText } from './callText.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'

const { search: _search, ...FILTERS } = NO_FILTERS

/**
 * /phonecalls (spec 000 §2): the calls the agent placed or was offered — a supervisor's or reporter's whole site —
 * newest first, with the filters of GET /v1/report/calls/ (dates, call type, status, phone search debounced 500 ms,
 * queue), page sizes 5–25, 'Sem resultados' and the 'Erro: {detail}' toast. A row opens the call's detail.
 */
export function PhoneCallsPage() {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const roles = useRoles()
  const list = useListState<Omit<CallFilters, 'search'>>({ filters: FILTERS })
  const filters = list.filters
  const set = list.setFilters
  const [open, setOpen] = useState<CallRow>()
  const query = useQuery(callListQuery({ ...filters, search: list.params.search }, list.params.page, list.params.pageSize))
  const queues = useQuery(lookupQuery(QUEUE_LOOKUP))
  const classifications = useQuery(lookupQuery(CLASSIFICATION_LOOKUP))
  useErrorToast(query.error)
  const direction = (value: string) => {
    const descriptor = DIRECTION_LABELS[value]
    return descriptor ? i18n._(descriptor) : value
  }
  const columns: Column<CallRow>[] = [
    { key: 'datetime', header: t`Data/hora`, width: 160, cell: (call) => formatDateTime(call.datetime) },
    { key: 'phone', header: t`Telefone`, cell: (call) => call.phone },
    {
      key: 'type',
      header: t`Tipo`,
      cell: (call) => {
        const typeLabel = callTypeLabel(call.call_type, locale)
        const directionLabel = direction(call.direction)
        return (
          <>
            {typeLabel}
            {/* The direction under the type, unless the type already says it (en-US 'Inbound'). */}
            {directionLabel !== typeLabel && (
              <Typography level="body-xs" textColor="text.tertiary">
                {directionLabel}
              </Typography>
            )}
          </>
        )
      },
    },
    {
      key: 'agent',
      header: t`Agente/ramal`,
      cell: (call) => (
        <>
          {call.user_description}
          {call.endpoint && (
            <Typography level="body-xs" textColor="text.tertiary">
              {call.endpoint}
            </Typography>
          )}
        </>
      ),
    },
    { key: 'queue', header: t`Fila`, cell: (call) => call.queue_description },
    {
      key: 'status',
      header: t`Status`,
      cell: (call) => <span data-testid="call-status">{call.dial_status === null ? '' : statusText(call.dial_status, call.dial_status_text, locale)}</span>,
    },
    { key: 'duration', header: t`Duração`, width: 110, cell: (call) => (call.total_duration === null ? '' : formatDuration(call.total_duration)) },
    { key: 'answered', header: t`Tempo atendido`, width: 120, cell: (call) => formatDuration(call.total_answer_duration) },
  ]
  return (
    <>
      <PageHeader title={t`Chamadas`} subtitle={t`As chamadas feitas e recebidas; clique em uma para ver os detalhes.`} />
      <ListPage
        testId="phonecalls"
        list={list}
        count={query.data?.count ?? 0}
        allowAll={false}
        columns={columns}
        rows={query.data?.results ?? []}
        rowKey={(call) => call.call_id}
        loading={query.isFetching}
        pending={query.isPending}
        minWidth={900}
        rowProps={(call) => {
          const party = call.phone || call.endpoint
          return {
            'data-testid': 'call-row',
            tabIndex: 0,
            'aria-label': t`Ver detalhes da chamada ${party}`,
            onClick: () => setOpen(call),
            onKeyDown: (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setOpen(call)),
            style: { cursor: 'pointer' },
          }
        }}
        toolbarSx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1.4fr 1.4fr 1.4fr 1.4fr' } }}
        toolbar={
          <>
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
            <FormControl id="calls-classification" size="sm">
              <FormLabel>{t`Classificação`}</FormLabel>
              <Select value={filters.classification} onChange={(_, value) => set({ classification: value ?? '' })} data-testid="calls-classification">
                <Option value="">{t`Todas`}</Option>
                {(classifications.data ?? []).map((classification) => (
                  <Option key={String(classification.id)} value={String(classification.id)}>
                    {String(classification.description ?? classification.id)}
                  </Option>
                ))}
              </Select>
            </FormControl>
            <FormControl id="calls-search" size="sm">
              <FormLabel>{t`Telefone`}</FormLabel>
              <Input
                value={list.searchText}
                onChange={(e) => list.setSearchText(e.target.value)}
                placeholder={t`Buscar telefone`}
                startDecorator={<SearchIcon />}
                slotProps={{ input: { type: 'search' } }}
              />
            </FormControl>
          </>
        }
      />
      {open && <CallDetailDialog call={open} canPlay={has(roles, PERMISSIONS.downloadMonitorFile)} onClose={() => setOpen(undefined)} />}
    </>
  )
}
