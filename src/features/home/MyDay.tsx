import { useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import Grid from '@mui/joy/Grid'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import Skeleton from '@mui/joy/Skeleton'
import Typography from '@mui/joy/Typography'
import ToggleButtonGroup from '@mui/joy/ToggleButtonGroup'
import { useTheme } from '@mui/joy/styles'
import type { DashboardScope, DashboardToday } from '../../../contract/api/dashboard.ts'
import { DASHBOARD_PATHS } from '../../../contract/api/dashboard.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import { useProfile } from '../../api/useProfile.ts'
import { dayjs, formatDateTime } from '../../app/dates.ts'
import { useLocale } from '../../app/useLocale.ts'
import { Chart } from '../../components/charts/Chart.tsx'
import { ButtonLink } from '../../components/links.tsx'

// The home page's day (spec 000 §2 "/", dashboard page id 1): what the agent did today — or the whole site, for a
// supervisor who switches to it — from GET /v1/dashboard/today/, refreshed every minute and when the tab comes back.

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

function Figure({ label, value, detail, testId }: { label: ReactNode; value: ReactNode; detail?: ReactNode; testId: string }) {
  return (
    <Card variant="outlined" sx={{ boxShadow: 'xs', height: '100%', gap: 0.25 }} data-testid={testId}>
      <Typography level="body-sm" textColor="text.tertiary">
        {label}
      </Typography>
      <Typography level="h3" component="p" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Typography>
      {detail ? (
        <Typography level="body-xs" textColor="text.tertiary">
          {detail}
        </Typography>
      ) : null}
    </Card>
  )
}

function HourChart({ day }: { day: DashboardToday }) {
  const { t } = useLingui()
  const theme = useTheme()
  const data = useMemo(
    () => ({
      labels: day.calls.hours.map((h) => dayjs(h.start).format('HH[h]')),
      datasets: [
        { label: t`Atendidas`, data: day.calls.hours.map((h) => h.answered), backgroundColor: theme.palette.success[400], stack: 'calls' },
        { label: t`Não atendidas`, data: day.calls.hours.map((h) => h.unanswered), backgroundColor: theme.palette.danger[300], stack: 'calls' },
      ],
    }),
    [day, t, theme],
  )
  const options = useMemo(
    () => ({
      plugins: { legend: { position: 'bottom' as const } },
      scales: { x: { stacked: true, grid: { display: false } }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
    }),
    [],
  )
  const total = day.calls.inbound + day.calls.outbound + day.calls.internal
  return <Chart type="bar" data={data} options={options} label={t`Chamadas por hora: ${total} chamadas hoje`} />
}

function PauseChart({ day }: { day: DashboardToday }) {
  const { t } = useLingui()
  const theme = useTheme()
  const palette = [theme.palette.warning[400], theme.palette.primary[400], theme.palette.neutral[400], theme.palette.success[300], theme.palette.danger[300]]
  const data = useMemo(
    () => ({
      labels: day.pauses.by_reason.map((r) => r.description || t`Sem motivo`),
      datasets: [{ data: day.pauses.by_reason.map((r) => Math.round(r.seconds / 60)), backgroundColor: day.pauses.by_reason.map((_, i) => palette[i % palette.length]!) }],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [day, t, theme],
  )
  const options = useMemo(
    () => ({
      plugins: {
        legend: { position: 'bottom' as const },
        tooltip: { callbacks: { label: (item: { label: string; raw: unknown }) => `${item.label}: ${item.raw} min` } },
      },
    }),
    [],
  )
  return <Chart type="doughnut" data={data} options={options} height={180} label={t`Pausas por motivo, em minutos`} />
}

export function MyDay() {
  const { t } = useLingui()
  const { roles } = useProfile()
  const { params } = useLocale()
  const supervisor = has(roles, PERMISSIONS.viewDashboardSupervisor)
  const [scope, setScope] = useState<DashboardScope>('me')
  const tz = browserTimeZone()
  const day = useQuery({
    queryKey: ['dashboard', 'today', scope, tz],
    queryFn: () => api.get<DashboardToday>(DASHBOARD_PATHS.today, { scope, tz }),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  })
  const d = day.data
  const inbound = d ? `${d.calls.inbound_answered} / ${d.calls.inbound}` : '—'
  const outbound = d ? `${d.calls.outbound_answered} / ${d.calls.outbound}` : '—'

  return (
    <Box component="section" aria-labelledby="my-day-title" sx={{ mb: 3 }} data-testid="my-day">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography id="my-day-title" level="title-lg" sx={{ flex: 1 }}>
          {scope === 'site' ? <Trans>O dia do site</Trans> : <Trans>Seu dia</Trans>}
        </Typography>
        {supervisor ? (
          <ToggleButtonGroup size="sm" value={scope} onChange={(_, value) => value && setScope(value as DashboardScope)} aria-label={t`Mostrar`}>
            <Button value="me" data-testid="my-day-scope-me">
              <Trans>Meu dia</Trans>
            </Button>
            <Button value="site" data-testid="my-day-scope-site">
              <Trans>Site</Trans>
            </Button>
          </ToggleButtonGroup>
        ) : null}
      </Box>
      {day.isError ? (
        <Card variant="soft" color="warning">
          <Typography level="body-sm">
            <Trans>Não foi possível carregar os números de hoje.</Trans>
          </Typography>
        </Card>
      ) : (
        <>
          <Grid container spacing={2} sx={{ mb: 2 }}>
            <Grid xs={6} md={4} lg={2}>
              <Figure testId="my-day-inbound" label={<Trans>Recebidas atendidas</Trans>} value={inbound} />
            </Grid>
            <Grid xs={6} md={4} lg={2}>
              <Figure testId="my-day-outbound" label={<Trans>Realizadas atendidas</Trans>} value={outbound} />
            </Grid>
            <Grid xs={6} md={4} lg={2}>
              <Figure testId="my-day-talk" label={<Trans>Tempo em conversa</Trans>} value={d ? formatDuration(d.calls.talk_seconds) : '—'} />
            </Grid>
            <Grid xs={6} md={4} lg={2}>
              <Figure
                testId="my-day-chats"
                label={<Trans>Chats atendidos</Trans>}
                value={d ? d.chats.answered : '—'}
                detail={d ? <Trans>{d.chats.open} em andamento</Trans> : undefined}
              />
            </Grid>
            <Grid xs={6} md={4} lg={2}>
              <Figure
                testId="my-day-pauses"
                label={<Trans>Tempo em pausa</Trans>}
                value={d ? formatDuration(d.pauses.seconds) : '—'}
                detail={d ? <Trans>{d.pauses.count} pausas</Trans> : undefined}
              />
            </Grid>
            <Grid xs={6} md={4} lg={2}>
              <Figure
                testId="my-day-after-service"
                label={<Trans>Pós-atendimento</Trans>}
                value={d ? formatDuration(d.after_service.seconds) : '—'}
                detail={d ? <Trans>{d.after_service.count} chamadas</Trans> : undefined}
              />
            </Grid>
          </Grid>
          <Grid container spacing={2}>
            <Grid xs={12} lg={6}>
              <Card variant="outlined" sx={{ boxShadow: 'xs', height: '100%' }}>
                <Typography level="title-md">
                  <Trans>Chamadas por hora</Trans>
                </Typography>
                {d ? <HourChart day={d} /> : <Skeleton variant="rectangular" height={220} />}
              </Card>
            </Grid>
            <Grid xs={12} md={6} lg={3}>
              <Card variant="outlined" sx={{ boxShadow: 'xs', height: '100%' }}>
                <Typography level="title-md">
                  <Trans>Pausas por motivo</Trans>
                </Typography>
                {!d ? (
                  <Skeleton variant="rectangular" height={180} />
                ) : d.pauses.by_reason.length ? (
                  <PauseChart day={d} />
                ) : (
                  <Typography level="body-sm" textColor="text.tertiary">
                    <Trans>Nenhuma pausa hoje.</Trans>
                  </Typography>
                )}
              </Card>
            </Grid>
            <Grid xs={12} md={6} lg={3}>
              <Card variant="outlined" sx={{ boxShadow: 'xs', height: '100%' }} data-testid="my-day-activities">
                <Typography level="title-md">
                  <Trans>Atividades</Trans>
                </Typography>
                <Typography level="body-sm">
                  {d ? (
                    <Trans>
                      {d.activities.due_today} para hoje · {d.activities.overdue} atrasadas
                    </Trans>
                  ) : (
                    '—'
                  )}
                </Typography>
                {d?.activities.next.length ? (
                  <List size="sm" sx={{ '--ListItem-paddingX': 0 }}>
                    {d.activities.next.map((a) => (
                      <ListItem key={a.id} sx={{ display: 'flex', gap: 1 }}>
                        <Typography
                          level="body-xs"
                          textColor={new Date(a.start) < new Date(d.from) ? 'danger.plainColor' : 'text.tertiary'}
                          sx={{ fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}
                        >
                          {formatDateTime(a.start)}
                        </Typography>
                        <Typography level="body-sm" noWrap>
                          {a.subject || a.destination}
                        </Typography>
                      </ListItem>
                    ))}
                  </List>
                ) : null}
                <ButtonLink to="/{-$locale}/activities" params={params} size="sm" variant="soft" sx={{ mt: 'auto', alignSelf: 'flex-start' }}>
                  <Trans>Ver atividades</Trans>
                </ButtonLink>
              </Card>
            </Grid>
          </Grid>
        </>
      )}
    </Box>
  )
}
