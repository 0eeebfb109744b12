import { useEffect, useMemo, useState } from 'react'
import { ChoiceSelect } from '../../components/form/ChoiceSelect.tsx'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Grid from '@mui/joy/Grid'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Sheet from '@mui/joy/Sheet'
import Skeleton from '@mui/joy/Skeleton'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useTheme } from '@mui/joy/styles'
import { Trans, useLingui } from '@lingui/react/macro'
import type { BuilderFilterChoices, BuilderPage, BuilderPeriod, BuilderResult, BuilderWidgetData, ViewerFilter } from '../../../contract/api/builder.ts'
import { BUILDER_PATHS, BUILDER_PERIODS, BUILDER_TEXTS, builderText } from '../../../contract/api/builder.ts'
import { useProfile } from '../../api/useProfile.ts'
import { ButtonLink } from '../../components/links.tsx'
import { useLiveRefresh } from './liveRefresh.ts'
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
// the layout and every widget's numbers, computed by the server in the user's time zone, with the viewer's filter bar
// (period, and the team, agent, queue, chat queue, campaign and classification the page's queries take). A page with `refresh` over live data asks again
// when the service socket announces a change, at most once per `refresh` seconds (liveRefresh.ts: no polling). The
// agent and queue grids are the live wallboard's (its feed). Inside pages are links under the title.

const HEIGHTS: Record<number, number> = { 1: 120, 2: 260, 3: 380 }
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** The viewer's filter bar: '' keeps what each query stores. */
export type ViewerValues = { period: BuilderPeriod | '' } & Record<ViewerFilter, string>
export const NO_VIEWER_FILTERS: ViewerValues = { period: '', team: '', agent: '', queue: '', chat_queue: '', campaign: '', classification: '' }

export const builderPageQuery = (kind: 'dashboards' | 'reports', id: string, locale: string, viewer: ViewerValues = NO_VIEWER_FILTERS) =>
  queryOptions({
    queryKey: ['builder', 'page', kind, id, locale, viewer] as const,
    queryFn: ({ signal }) =>
      api.get<BuilderPage>(
        BUILDER_PATHS.page.replace(':kind', kind).replace(':id', encodeURIComponent(id)),
        {
          tz: timeZone(),
          period: viewer.period || undefined,
          team: viewer.team || undefined,
          agent: viewer.agent || undefined,
          queue: viewer.queue || undefined,
          chat_queue: viewer.chat_queue || undefined,
          campaign: viewer.campaign || undefined,
          classification: viewer.classification || undefined,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  })

const builderChoicesQuery = () =>
  queryOptions({
    queryKey: ['builder', 'filters'] as const,
    queryFn: ({ signal }) => api.get<BuilderFilterChoices>(BUILDER_PATHS.filters, undefined, { signal }),
    staleTime: 5 * 60_000,
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

/**
 * A chart with nothing to draw says so instead of an empty frame: no group and no total, or a pie whose slices are all
 * zero (bars and lines over days keep their zeros: the days themselves say something).
 */
export function isEmptyChart(type: BuilderWidgetData['type'], result: BuilderResult): boolean {
  if (!result.groups.length) return !result.total
  return type === 'pie' && result.groups.every((g) => !g.value)
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
  else if (isEmptyChart(widget.type, widget.result))
    body = (
      <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Typography level="body-sm" textColor="text.tertiary" data-testid="builder-widget-empty">
          {t`Nada no período.`}
        </Typography>
      </Box>
    )
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

/** The viewer's filters, as the page declares them (the filters its queries take); changing one runs the page again. */
function FilterBar({ page, value, onChange, busy }: { page: BuilderPage; value: ViewerValues; onChange: (next: ViewerValues) => void; busy: boolean }) {
  const { t, i18n } = useLingui()
  const fields = page.filters.fields
  const choices = useQuery({ ...builderChoicesQuery(), enabled: fields.length > 0 })
  const set = (patch: Partial<ViewerValues>) => onChange({ ...value, ...patch })
  const changed = Object.values(value).some(Boolean)
  if (!page.filters.period && fields.length === 0) return null
  return (
    <Sheet
      variant="outlined"
      role="group"
      aria-label={t`Filtros da página`}
      data-testid="builder-filters"
      sx={{
        p: 1.5,
        borderRadius: 'md',
        mb: 2,
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(auto-fill, minmax(170px, 1fr))' },
        alignItems: 'end',
      }}
    >
      {page.filters.period && (
        <FormControl id="builder-filter-period" size="sm">
          <FormLabel>{t`Período`}</FormLabel>
          <Select value={value.period} onChange={(_, next) => set({ period: (next ?? '') as ViewerValues['period'] })} data-testid="builder-filter-period">
            <Option value="">{t`O de cada widget`}</Option>
            {BUILDER_PERIODS.map((period) => (
              <Option key={period} value={period}>
                {builderText(BUILDER_TEXTS.periods[period], i18n.locale)}
              </Option>
            ))}
          </Select>
        </FormControl>
      )}
      {fields.includes('team') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="team"
          label={t`Equipe`}
          value={value.team}
          choices={choices.data?.team}
          all={t`Todas`}
          onChange={(team) => set({ team })}
        />
      )}
      {fields.includes('agent') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="agent"
          label={t`Agente`}
          value={value.agent}
          choices={choices.data?.agent}
          all={t`Todos`}
          onChange={(agent) => set({ agent })}
        />
      )}
      {fields.includes('queue') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="queue"
          label={t`Fila`}
          value={value.queue}
          choices={choices.data?.queue}
          all={t`Todas`}
          onChange={(queue) => set({ queue })}
        />
      )}
      {fields.includes('chat_queue') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="chat_queue"
          label={t`Fila de chat`}
          value={value.chat_queue}
          choices={choices.data?.chat_queue}
          all={t`Todas`}
          onChange={(chat_queue) => set({ chat_queue })}
        />
      )}
      {fields.includes('campaign') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="campaign"
          label={t`Campanha`}
          value={value.campaign}
          choices={choices.data?.campaign}
          all={t`Todas`}
          onChange={(campaign) => set({ campaign })}
        />
      )}
      {fields.includes('classification') && (
        <ChoiceSelect
          prefix="builder-filter"
          id="classification"
          label={t`Classificação`}
          value={value.classification}
          choices={choices.data?.classification}
          all={t`Todas`}
          onChange={(classification) => set({ classification })}
        />
      )}
      <Box>
        <Button size="sm" variant="plain" disabled={!changed} loading={busy} onClick={() => onChange(NO_VIEWER_FILTERS)} data-testid="builder-filters-clear">
          <Trans>Limpar filtros</Trans>
        </Button>
      </Box>
    </Sheet>
  )
}

export function BuilderPageView({ kind, id, home = false }: { kind: 'dashboards' | 'reports'; id: string; home?: boolean }) {
  const { t } = useLingui()
  const { locale, params } = useLocale()
  const profile = useProfile()
  const [viewer, setViewer] = useState<ViewerValues>(NO_VIEWER_FILTERS)
  useEffect(() => setViewer(NO_VIEWER_FILTERS), [kind, id])
  const page = useQuery(builderPageQuery(kind, id, locale, viewer))
  const data = page.data
  // Live data and a refresh interval: asked again when the socket announces a change, at most once per interval.
  useLiveRefresh(Boolean(data?.live && data.refresh > 0), Math.max(1, data?.refresh ?? 0) * 1000, () => void page.refetch(), profile.roles)
  if (page.isError) {
    return (
      <>
        <PageHeader title={t`Página não encontrada`} />
        <Alert color="danger">{t`Esta página não existe ou você não tem permissão para vê-la.`}</Alert>
      </>
    )
  }
  if (!data) return <Skeleton variant="rectangular" height={320} />
  const subtitle =
    data.refresh > 0 && data.live
      ? t`Ao vivo: atualiza quando algo muda, no máximo a cada ${data.refresh} segundos.`
      : kind === 'dashboards'
        ? t`Painel`
        : t`Relatório`
  return (
    <>
      <PageHeader
        title={data.title}
        subtitle={home ? t`Sua página inicial` : subtitle}
        actions={
          data.inside.length > 0 && (
            <Box component="nav" aria-label={t`Páginas internas`} data-testid="builder-inside" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {data.inside.map((inside) =>
                inside.kind === 'dashboards' ? (
                  <ButtonLink key={inside.id} to="/{-$locale}/dashboards/$id" params={{ ...params, id: String(inside.id) }} size="sm" variant="outlined">
                    {inside.title}
                  </ButtonLink>
                ) : (
                  <ButtonLink key={inside.id} to="/{-$locale}/reports/pages/{-$id}" params={{ ...params, id: String(inside.id) }} size="sm" variant="outlined">
                    {inside.title}
                  </ButtonLink>
                ),
              )}
            </Box>
          )
        }
      />
      <FilterBar page={data} value={viewer} onChange={setViewer} busy={page.isFetching} />
      {data.widgets.length === 0 ? (
        <Alert>{t`Esta página ainda não tem widgets.`}</Alert>
      ) : (
        <Grid container spacing={2} data-testid="builder-page" data-fetching={page.isFetching ? 'true' : 'false'}>
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
