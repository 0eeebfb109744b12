import { useMemo, useState } from 'react'
import { ChoiceSelect } from '../../components/form/ChoiceSelect.tsx'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Grid from '@mui/joy/Grid'
import Input from '@mui/joy/Input'
import Sheet from '@mui/joy/Sheet'
import Skeleton from '@mui/joy/Skeleton'
import Typography from '@mui/joy/Typography'
import { useTheme } from '@mui/joy/styles'
import type { ReportColumnKind, ReportFilter, ReportId, ReportPage as ReportPageData } from '../../../contract/api/reports.ts'
import { REPORT_DIRECT_CSV_MAX_ROWS, REPORT_IDS } from '../../../contract/api/reports.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { dayjs, formatDateTime } from '../../app/dates.ts'
import { useLocale } from '../../app/useLocale.ts'
import { Chart } from '../../components/charts/Chart.tsx'
import { ButtonLink, CardLink } from '../../components/links.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import type { Column } from '../../entities/list/DataTable.tsx'
import { DataTable } from '../../entities/list/DataTable.tsx'
import { Pagination } from '../../entities/list/Pagination.tsx'
import { DownloadIcon } from '../phonecalls/icons.tsx'
import { createReportJob, reportChoicesQuery, reportCsvUrl, reportListQuery, reportPageQuery } from './reportsApi.ts'
import type { ReportFilterValues } from './reportsApi.ts'

// /reports/pages/:id? (spec 000 §2 "Report selection with CSV download"): without an id, the reports the user may
// open; with one, its filter bar, totals, one chart, a paginated table and 'Baixar CSV' — streamed when small, queued
// in the processing queue when it has more than REPORT_DIRECT_CSV_MAX_ROWS rows.

type Row = Record<string, string | number | boolean | null>

const today = () => dayjs().format('YYYY-MM-DD')
const emptyFilters = (): ReportFilterValues => ({ date_from: today(), date_to: today(), team: '', agent: '', queue: '', campaign: '', classification: '' })

function useFormat() {
  const { t, i18n } = useLingui()
  return (kind: ReportColumnKind, value: string | number | boolean | null): string => {
    if (value === null || value === undefined || value === '') return kind === 'text' ? '' : '—'
    switch (kind) {
      case 'datetime':
        return formatDateTime(value as string)
      case 'duration':
        return formatDuration(value as number)
      case 'percent':
        return `${Number(value).toLocaleString(i18n.locale, { maximumFractionDigits: 1 })}%`
      case 'number':
        return Number(value).toLocaleString(i18n.locale)
      case 'boolean':
        return value ? t`Sim` : t`Não`
      default:
        return String(value)
    }
  }
}

function ReportList() {
  const { locale, params } = useLocale()
  const list = useQuery(reportListQuery(locale))
  useErrorToast(list.error)
  return (
    <Grid container spacing={2} data-testid="report-list">
      {(list.data?.results ?? []).map((report) => (
        <Grid key={report.id} xs={12} sm={6} lg={3}>
          <CardLink
            to="/{-$locale}/reports/pages/{-$id}"
            params={{ ...params, id: report.id }}
            variant="outlined"
            sx={{ height: '100%', textDecoration: 'none', boxShadow: 'xs', '&:hover': { boxShadow: 'md', borderColor: 'primary.outlinedHoverBorder' } }}
            data-testid={`report-card-${report.id}`}
          >
            <Typography level="title-md">{report.title}</Typography>
            <Typography level="body-sm" textColor="text.secondary">
              {report.description}
            </Typography>
          </CardLink>
        </Grid>
      ))}
      {list.isPending
        ? [0, 1, 2, 3].map((i) => (
            <Grid key={i} xs={12} sm={6} lg={3}>
              <Skeleton variant="rectangular" height={96} />
            </Grid>
          ))
        : null}
    </Grid>
  )
}

function ReportChart({ page }: { page: ReportPageData }) {
  const theme = useTheme()
  const format = useFormat()
  const colors = [theme.palette.primary[500], theme.palette.danger[300], theme.palette.success[400], theme.palette.warning[400]]
  const kind = page.chart.series[0]?.kind ?? 'number'
  const data = useMemo(
    () => ({
      labels: page.chart.by === 'day' ? page.chart.labels.map((day) => dayjs(day).format('DD/MM')) : page.chart.labels,
      datasets: page.chart.series.map((series, i) => ({
        label: series.label,
        // Durations are drawn in minutes (the axis reads 'min'); counts as they are.
        data: series.kind === 'duration' ? series.values.map((v) => Math.round((v / 60) * 10) / 10) : series.values,
        backgroundColor: colors[i % colors.length],
        borderRadius: 3,
        maxBarThickness: 48,
      })),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [page, theme],
  )
  const options = useMemo(
    () => ({
      plugins: { legend: { position: 'bottom' as const } },
      scales: {
        x: { grid: { display: false } },
        y: { beginAtZero: true, ticks: { precision: 0, ...(kind === 'duration' ? { callback: (v: string | number) => `${v} min` } : {}) } },
      },
    }),
    [kind],
  )
  const summary = page.chart.series
    .map(
      (s) =>
        `${s.label}: ${format(
          s.kind,
          s.values.reduce((a, b) => a + b, 0),
        )}`,
    )
    .join(', ')
  return <Chart type="bar" data={data} options={options} height={240} label={`${page.title} — ${summary}`} />
}

function ReportView({ id }: { id: ReportId }) {
  const { t, i18n } = useLingui()
  const { locale, params } = useLocale()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const format = useFormat()
  const [draft, setDraft] = useState<ReportFilterValues>(emptyFilters)
  const [filters, setFilters] = useState<ReportFilterValues>(emptyFilters)
  const [page, setPage] = useState(0)
  const [pageSize, setPageSize] = useState(25)
  const list = useQuery(reportListQuery(locale))
  const summary = list.data?.results.find((r) => r.id === id)
  const choices = useQuery(reportChoicesQuery())
  const data = useQuery(reportPageQuery(id, filters, page, pageSize, locale))
  useErrorToast(data.error)
  const report = data.data
  const uses = (filter: ReportFilter) => summary?.filters.includes(filter) ?? false
  const set = (patch: Partial<ReportFilterValues>) => setDraft((previous) => ({ ...previous, ...patch }))
  const apply = () => {
    setFilters(draft)
    setPage(0)
  }
  const queue = useMutation({
    mutationFn: () => createReportJob(id, filters),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['reports', 'jobs'] })
      toast(t`O relatório é grande: ele está sendo gerado na fila de processamento.`, 'primary')
      await navigate({ to: '/{-$locale}/reports/processing-queue', params })
    },
  })
  useErrorToast(queue.error)
  const large = (report?.count ?? 0) > REPORT_DIRECT_CSV_MAX_ROWS
  const columns: Column<Row>[] = (report?.columns ?? []).map((column) => ({
    key: column.key,
    header: column.label,
    align: column.kind === 'number' || column.kind === 'duration' || column.kind === 'percent' ? 'right' : undefined,
    width: column.kind === 'datetime' ? 160 : column.kind === 'duration' ? 120 : undefined,
    cell: (row: Row) => format(column.kind, row[column.key] ?? null),
  }))

  return (
    <>
      <PageHeader
        title={summary?.title ?? <Skeleton variant="text" width={240} />}
        subtitle={summary?.description}
        actions={
          <ButtonLink to="/{-$locale}/reports/pages/{-$id}" params={{ ...params, id: undefined }} variant="plain" size="sm">
            <Trans>Todos os relatórios</Trans>
          </ButtonLink>
        }
      />
      <Sheet
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault()
          apply()
        }}
        sx={{
          p: 2,
          borderRadius: 'md',
          mb: 2,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)', xl: 'repeat(8, 1fr)' },
          alignItems: 'end',
        }}
        data-testid="report-filters"
      >
        <FormControl id="report-filter-from" size="sm">
          <FormLabel>{t`De`}</FormLabel>
          <Input type="date" value={draft.date_from} onChange={(e) => set({ date_from: e.target.value })} required />
        </FormControl>
        <FormControl id="report-filter-to" size="sm">
          <FormLabel>{t`Até`}</FormLabel>
          <Input type="date" value={draft.date_to} onChange={(e) => set({ date_to: e.target.value })} required />
        </FormControl>
        {uses('team') && (
          <ChoiceSelect
            prefix="report-filter"
            id="team"
            label={t`Equipe`}
            value={draft.team}
            choices={choices.data?.team}
            onChange={(team) => set({ team })}
            all={t`Todas`}
          />
        )}
        {uses('agent') && (
          <ChoiceSelect
            prefix="report-filter"
            id="agent"
            label={t`Agente`}
            value={draft.agent}
            choices={choices.data?.agent}
            onChange={(agent) => set({ agent })}
            all={t`Todos`}
          />
        )}
        {uses('queue') && (
          <ChoiceSelect
            prefix="report-filter"
            id="queue"
            label={t`Fila`}
            value={draft.queue}
            choices={id === 'chats' ? choices.data?.chat_queue : choices.data?.queue}
            onChange={(queue) => set({ queue })}
            all={t`Todas`}
          />
        )}
        {uses('campaign') && (
          <ChoiceSelect
            prefix="report-filter"
            id="campaign"
            label={t`Campanha`}
            value={draft.campaign}
            choices={choices.data?.campaign}
            onChange={(campaign) => set({ campaign })}
            all={t`Todas`}
          />
        )}
        {uses('classification') && (
          <ChoiceSelect
            prefix="report-filter"
            id="classification"
            label={t`Classificação`}
            value={draft.classification}
            choices={choices.data?.classification}
            onChange={(classification) => set({ classification })}
            all={t`Todas`}
          />
        )}
        <Box sx={{ display: 'flex', gap: 1, gridColumn: { xs: 'span 2', md: 'auto' } }}>
          <Button type="submit" size="sm" data-testid="report-apply" loading={data.isFetching && !data.isPending}>
            <Trans>Filtrar</Trans>
          </Button>
          {large ? (
            <Button
              size="sm"
              variant="outlined"
              startDecorator={<DownloadIcon />}
              onClick={() => queue.mutate()}
              loading={queue.isPending}
              data-testid="report-csv"
            >
              <Trans>Baixar CSV</Trans>
            </Button>
          ) : (
            <Button
              size="sm"
              variant="outlined"
              component="a"
              href={reportCsvUrl(id, filters, i18n.locale)}
              download
              startDecorator={<DownloadIcon />}
              data-testid="report-csv"
              disabled={!report}
            >
              <Trans>Baixar CSV</Trans>
            </Button>
          )}
        </Box>
      </Sheet>
      {/* The totals side by side, as many per line as fit (a report has 3 to 7). */}
      <Box sx={{ display: 'grid', gap: 2, mb: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(124px, 1fr))' }} data-testid="report-totals">
        {(report?.totals ?? []).map((total) => (
          <Card key={total.key} variant="outlined" sx={{ boxShadow: 'xs', gap: 0.25, p: 1.5 }} data-testid={`report-total-${total.key}`}>
            <Typography level="body-sm" textColor="text.tertiary">
              {total.label}
            </Typography>
            <Typography level="h4" component="p" sx={{ fontVariantNumeric: 'tabular-nums', mt: 'auto', whiteSpace: 'nowrap' }}>
              {format(total.kind, total.value)}
            </Typography>
          </Card>
        ))}
        {!report ? [0, 1, 2, 3].map((i) => <Skeleton key={i} variant="rectangular" height={84} />) : null}
      </Box>
      <Card variant="outlined" sx={{ boxShadow: 'xs', mb: 2 }}>
        <Typography level="title-md">{report ? report.chart.by === 'day' ? <Trans>Por dia</Trans> : <Trans>Maiores grupos</Trans> : ' '}</Typography>
        {report ? (
          report.count === 0 ? (
            <Typography level="body-sm" textColor="text.tertiary" sx={{ py: 4, textAlign: 'center' }}>
              <Trans>Nada neste período.</Trans>
            </Typography>
          ) : (
            <ReportChart page={report} />
          )
        ) : (
          <Skeleton variant="rectangular" height={240} />
        )}
      </Card>
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden' }} data-testid="report-table">
        <DataTable<Row>
          columns={columns}
          rows={report?.results ?? []}
          rowKey={(row) => JSON.stringify(row)}
          loading={data.isFetching}
          pending={data.isPending}
          minWidth={Math.max(700, columns.length * 110)}
          rowProps={() => ({ 'data-testid': 'report-row' })}
          regionLabel={summary?.title ?? t`Relatório`}
        />
        <Pagination
          count={report?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          onPageSize={(size) => {
            setPageSize(size)
            setPage(0)
          }}
          allowAll={false}
        />
      </Sheet>
    </>
  )
}

export function ReportsPage({ id }: { id?: string }) {
  const { t } = useLingui()
  if (id && (REPORT_IDS as readonly string[]).includes(id)) return <ReportView key={id} id={id as ReportId} />
  return (
    <>
      <PageHeader title={t`Relatórios`} subtitle={t`Escolha um relatório para filtrar, ver os totais e baixar em CSV.`} />
      <ReportList />
    </>
  )
}
