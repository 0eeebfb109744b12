import { useEffect, useMemo, useState } from 'react'
import { queryOptions, useQuery } from '@tanstack/react-query'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Grid from '@mui/joy/Grid'
import Skeleton from '@mui/joy/Skeleton'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useTheme } from '@mui/joy/styles'
import { useLingui } from '@lingui/react/macro'
import type { BuilderPage, BuilderResult, BuilderWidgetData } from '../../../contract/api/builder.ts'
import { BUILDER_PATHS } from '../../../contract/api/builder.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { api } from '../../api/client.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useLocale } from '../../app/useLocale.ts'
import { Chart } from '../../components/charts/Chart.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { AgentCard } from '../dashboards/AgentCard.tsx'
import { QueueTiles } from '../dashboards/QueueTiles.tsx'
import { useWallboard } from '../dashboards/wallboardStore.ts'
import { useAgentActing } from '../dashboards/useAgentActing.tsx'
import { useNow } from '../webphone/useClock.ts'

// A page the builder composed (contract/api/builder.ts): /dashboards/:id and /reports/pages/:id. One request brings
// the layout and every widget's numbers, computed by the server in the user's time zone; a dashboard asks again every
// `refresh` seconds. The agent and queue grids are the live wallboard's (its feed, no polling).

const HEIGHTS: Record<number, number> = { 1: 120, 2: 260, 3: 380 }
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

export const builderPageQuery = (kind: 'dashboards' | 'reports', id: string, locale: string, refresh?: number) =>
  queryOptions({
    queryKey: ['builder', 'page', kind, id, locale] as const,
    queryFn: ({ signal }) =>
      api.get<BuilderPage>(BUILDER_PATHS.page.replace(':kind', kind).replace(':id', encodeURIComponent(id)), { tz: timeZone() }, { signal }),
    refetchInterval: refresh && refresh > 0 ? refresh * 1000 : false,
  })

function useValueFormat() {
  const { i18n } = useLingui()
  return (kind: BuilderResult['measure']['kind'], value: number | null) => {
    if (value === null) return '—'
    if (kind === 'duration') return formatDuration(value)
    const text = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 }).format(value)
    return kind === 'percent' ? `${text} %` : text
  }
}

function NumberWidget({ result }: { result: BuilderResult }) {
  const format = useValueFormat()
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', height: '100%' }}>
      <Typography level="h1" component="p" data-testid="builder-number" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {format(result.measure.kind, result.total)}
      </Typography>
      <Typography level="body-sm" textColor="text.tertiary">
        {result.measure.label}
      </Typography>
    </Box>
  )
}

function ChartWidget({ widget, result, height }: { widget: BuilderWidgetData; result: BuilderResult; height: number }) {
  const theme = useTheme()
  const format = useValueFormat()
  const palette = [theme.palette.primary[500], theme.palette.success[400], theme.palette.warning[400], theme.palette.danger[300], theme.palette.neutral[400]]
  const groups = result.groups.length ? result.groups : [{ label: result.measure.label, value: result.total }]
  const minutes = result.measure.kind === 'duration'
  const type = widget.type === 'pie' ? 'doughnut' : widget.type === 'line' ? 'line' : 'bar'
  const data = useMemo(
    () => ({
      labels: groups.map((g) => g.label || '—'),
      datasets: [
        {
          label: result.measure.label,
          data: groups.map((g) => (minutes ? Math.round(((g.value ?? 0) / 60) * 10) / 10 : (g.value ?? 0))),
          backgroundColor: type === 'doughnut' ? groups.map((_, i) => palette[i % palette.length]) : palette[0],
          borderColor: palette[0],
          borderRadius: type === 'bar' ? 3 : 0,
          maxBarThickness: 48,
          tension: 0.3,
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [result, theme, type],
  )
  const options = useMemo(
    () =>
      type === 'doughnut'
        ? { plugins: { legend: { position: 'right' as const } } }
        : {
            plugins: { legend: { display: false } },
            scales: {
              x: { grid: { display: false } },
              y: { beginAtZero: true, ticks: { precision: 0, ...(minutes ? { callback: (v: string | number) => `${v} min` } : {}) } },
            },
          },
    [type, minutes],
  )
  const summary = groups.map((g) => `${g.label}: ${format(result.measure.kind, g.value)}`).join(', ')
  return <Chart type={type} data={data} options={options} height={height} label={`${widget.title} — ${summary}`} />
}

function TableWidget({ result }: { result: BuilderResult }) {
  const format = useValueFormat()
  const { t } = useLingui()
  const groups = result.groups.length ? result.groups : [{ label: result.measure.label, value: result.total }]
  return (
    <Box sx={{ overflow: 'auto', height: '100%' }}>
      <Table size="sm" stickyHeader>
        <thead>
          <tr>
            <th>{result.group.key === 'none' ? '' : result.group.label}</th>
            <th style={{ textAlign: 'right' }}>{result.measure.label}</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g, i) => (
            <tr key={i}>
              <td>{g.label || '—'}</td>
              <td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{format(result.measure.kind, g.value)}</td>
            </tr>
          ))}
          {result.group.key !== 'none' && (
            <tr>
              <th scope="row">{t`Total`}</th>
              <td style={{ textAlign: 'right', fontWeight: 600 }}>{format(result.measure.kind, result.total)}</td>
            </tr>
          )}
        </tbody>
      </Table>
    </Box>
  )
}

/** The live wallboard's agents or queues, from the service socket (the wallboard actor watches while shown). */
function LiveGrid({ type }: { type: 'agent-grid' | 'queue-grid' }) {
  const { t } = useLingui()
  const system = useAgentSystem()
  useEffect(() => {
    const actor = system?.get('wallboard')
    actor?.send({ type: 'WATCH' })
    return () => actor?.send({ type: 'UNWATCH' })
  }, [system])
  const data = useWallboard()
  const now = useNow()
  const { onAction, bar, dialog } = useAgentActing()
  if (type === 'queue-grid') return <QueueTiles queues={[...data.queues.values()]} callers={data.callers} now={now} />
  const agents = [...data.agents.values()].sort((a, b) => a.name.localeCompare(b.name))
  return (
    <>
      {bar}
      <Box
        aria-label={t`Agentes`}
        sx={{ display: 'grid', gap: 0.75, gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))', overflow: 'auto', height: '100%' }}
      >
        {agents.map((agent) => (
          <AgentCard key={agent.id} agent={agent} now={now} onAction={onAction} />
        ))}
      </Box>
      {dialog}
    </>
  )
}

function Widget({ widget }: { widget: BuilderWidgetData }) {
  const { t } = useLingui()
  const height = HEIGHTS[widget.height] ?? 260
  const live = widget.type === 'agent-grid' || widget.type === 'queue-grid'
  let body
  if (live) body = <LiveGrid type={widget.type as 'agent-grid'} />
  else if (widget.error || !widget.result) body = <Alert color="warning">{t`Este widget não pôde ser calculado: ${widget.error ?? ''}`}</Alert>
  else if (widget.type === 'number') body = <NumberWidget result={widget.result} />
  else if (widget.type === 'table') body = <TableWidget result={widget.result} />
  else body = <ChartWidget widget={widget} result={widget.result} height={height - 16} />
  return (
    <Card variant="outlined" data-testid="builder-widget" data-type={widget.type} sx={{ height: '100%', boxShadow: 'xs', gap: 1 }}>
      <Typography level="title-sm" component="h2">
        {widget.title}
      </Typography>
      <Box sx={live ? { minHeight: height } : { height }}>{body}</Box>
    </Card>
  )
}

export function BuilderPageView({ kind, id }: { kind: 'dashboards' | 'reports'; id: string }) {
  const { t } = useLingui()
  const { locale } = useLocale()
  // The page says how often it refreshes; the first answer sets the interval of the next ones.
  const [refresh, setRefresh] = useState<number | undefined>(undefined)
  const page = useQuery(builderPageQuery(kind, id, locale, refresh))
  useEffect(() => {
    if (page.data) setRefresh(page.data.refresh)
  }, [page.data])
  if (page.isError) {
    return (
      <>
        <PageHeader title={t`Página não encontrada`} />
        <Alert color="danger">{t`Esta página não existe ou você não tem permissão para vê-la.`}</Alert>
      </>
    )
  }
  if (!page.data) return <Skeleton variant="rectangular" height={320} />
  const data = page.data
  return (
    <>
      <PageHeader
        title={data.title}
        subtitle={data.refresh > 0 ? t`Atualiza a cada ${data.refresh} segundos.` : kind === 'dashboards' ? t`Painel` : t`Relatório`}
      />
      {data.widgets.length === 0 ? (
        <Alert>{t`Esta página ainda não tem widgets.`}</Alert>
      ) : (
        <Grid container spacing={2} data-testid="builder-page">
          {data.widgets.map((widget, i) => (
            <Grid key={`${widget.id}-${i}`} xs={12} md={Math.max(6, widget.width)} lg={widget.width}>
              <Widget widget={widget} />
            </Grid>
          ))}
        </Grid>
      )}
    </>
  )
}
