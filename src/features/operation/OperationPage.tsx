import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Card from '@mui/joy/Card'
import Chip from '@mui/joy/Chip'
import LinearProgress from '@mui/joy/LinearProgress'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import Typography from '@mui/joy/Typography'
import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Activity, ActivityListResponse } from '../../../contract/api/activities.ts'
import { ACTIVITY_PATHS } from '../../../contract/api/activities.ts'
import type { CallRow } from '../../../contract/api/calls.ts'
import { CALL_PATHS } from '../../../contract/api/calls.ts'
import { formatDateTime } from '../../../contract/format/dates.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { api } from '../../api/client.ts'
import { useProfile } from '../../api/useProfile.ts'
import { ButtonLink } from '../../components/links.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'

// /operation (spec 000 §2; dashboard page id 2, the menu's Operation section; issue 17 item 4): the agent's day on one
// page — activities due today, callbacks (the activities a call's classification scheduled: they name the call's
// target), the leads of the agent's clients, and the agent's last calls. Each panel shows only with its codename
// (activities: sites.view_activities; leads: sites.view_mailingclient and sites.view_client; calls:
// sites.view_softphone) and links to its own page.

type Row = Record<string, unknown>
type ListResponse<T> = { count: number; results: T[] }

/** The end of the local day: what is due "today" (overdue included). */
function endOfToday(): number {
  const end = new Date()
  end.setHours(23, 59, 59, 999)
  return end.getTime()
}

function Panel({ title, count, loading, children, action, testId }: { title: string; count?: number; loading?: boolean; children: ReactNode; action?: ReactNode; testId: string }) {
  return (
    <Card variant="outlined" sx={{ gap: 1, minWidth: 0 }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography level="title-md" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {count !== undefined && (
          <Chip size="sm" variant="soft" data-testid={`${testId}-count`}>
            {count}
          </Chip>
        )}
        {action}
      </Box>
      {loading && <LinearProgress size="sm" />}
      {children}
    </Card>
  )
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography level="body-sm" textColor="text.tertiary" sx={{ py: 1 }}>
      {children}
    </Typography>
  )
}

function ActivityItems({ rows, empty }: { rows: Activity[]; empty: string }) {
  if (!rows.length) return <Empty>{empty}</Empty>
  const now = Date.now()
  return (
    <List size="sm" sx={{ '--ListItem-paddingX': 0 }}>
      {rows.slice(0, 8).map((row) => (
        <ListItem key={row.id} sx={{ display: 'flex', gap: 1 }}>
          <Typography level="body-sm" sx={{ fontVariantNumeric: 'tabular-nums', color: Date.parse(row.start) < now ? 'danger.600' : undefined, minWidth: 130 }}>
            {formatDateTime(row.start)}
          </Typography>
          <Typography level="body-sm" sx={{ flex: 1, minWidth: 0 }} noWrap>
            {row.subject || row.destination}
          </Typography>
          <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {row.destination}
          </Typography>
        </ListItem>
      ))}
    </List>
  )
}

export function OperationPage() {
  const { t } = useLingui()
  const { roles, id: userId } = useProfile()
  const canActivities = has(roles, PERMISSIONS.viewActivities)
  const canLeads = has(roles, PERMISSIONS.viewMailingClient) && has(roles, PERMISSIONS.viewClient)
  const canCalls = has(roles, PERMISSIONS.viewSoftphone)

  const activities = useQuery({
    queryKey: ['activities', 'upcoming'],
    queryFn: ({ signal }) => api.get<ActivityListResponse>(ACTIVITY_PATHS.list, { upcoming: 'true' }, { signal }),
    enabled: canActivities,
    refetchInterval: 60_000,
  })
  const myClients = useQuery({
    queryKey: ['operation', 'my-clients', userId],
    queryFn: ({ signal }) => api.get<ListResponse<Row>>('/v1/crm/clients/', { owner: userId, limit: 200, ordering: '-id' }, { signal }),
    enabled: canLeads,
  })
  const clientIds = (myClients.data?.results ?? []).map((row) => Number(row.id))
  const leads = useQuery({
    queryKey: ['operation', 'leads', clientIds.join(',')],
    queryFn: ({ signal }) =>
      api.get<ListResponse<Row>>('/v1/crm/leads/', { client__in: clientIds.join(','), status__in: 'pending,in_progress', limit: 10, ordering: '-id' }, { signal }),
    enabled: canLeads && clientIds.length > 0,
  })
  const calls = useQuery({
    queryKey: ['operation', 'calls', userId],
    queryFn: ({ signal }) => api.get<ListResponse<CallRow>>(CALL_PATHS.calls, { user: userId, limit: 8, offset: 0 }, { signal }),
    enabled: canCalls,
    refetchInterval: 60_000,
  })

  const due = (activities.data?.results ?? []).filter((row) => !row.done && Date.parse(row.start) <= endOfToday())
  const callbacks = due.filter((row) => row.target !== '')
  const tasks = due.filter((row) => row.target === '')
  const leadRows = leads.data?.results ?? []

  return (
    <Box>
      <PageHeader title={t`Operação`} subtitle={t`Seu dia: atividades, retornos, leads e os últimos contatos.`} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {canActivities && (
          <Panel
            title={t`Atividades de hoje`}
            count={tasks.length}
            loading={activities.isPending}
            testId="operation-activities"
            action={
              <ButtonLink size="sm" variant="plain" to="/{-$locale}/activities">
                {t`Ver todas`}
              </ButtonLink>
            }
          >
            <ActivityItems rows={tasks} empty={t`Nenhuma atividade para hoje.`} />
          </Panel>
        )}
        {canActivities && (
          <Panel title={t`Retornos agendados`} count={callbacks.length} loading={activities.isPending} testId="operation-callbacks">
            <ActivityItems rows={callbacks} empty={t`Nenhum retorno agendado para hoje.`} />
          </Panel>
        )}
        {canLeads && (
          <Panel
            title={t`Leads dos meus clientes`}
            count={leads.data?.count ?? 0}
            loading={myClients.isPending}
            testId="operation-leads"
            action={
              <ButtonLink size="sm" variant="plain" to="/{-$locale}/leads/$" params={{ _splat: '' }}>
                {t`Ver todos`}
              </ButtonLink>
            }
          >
            {leadRows.length === 0 ? (
              <Empty>{t`Nenhum lead pendente dos seus clientes.`}</Empty>
            ) : (
              <List size="sm" sx={{ '--ListItem-paddingX': 0 }}>
                {leadRows.map((row) => (
                  <ListItem key={String(row.id)} sx={{ display: 'flex', gap: 1 }}>
                    <Typography level="body-sm" sx={{ flex: 1 }} noWrap>
                      {[row.name, row.surname].filter(Boolean).join(' ')}
                    </Typography>
                    <Typography level="body-xs">{String(row.mailing_description ?? '')}</Typography>
                    <ButtonLink size="sm" variant="plain" to="/{-$locale}/leads/$" params={{ _splat: `${String(row.id)}/show` }}>
                      {t`Abrir`}
                    </ButtonLink>
                  </ListItem>
                ))}
              </List>
            )}
          </Panel>
        )}
        {canCalls && (
          <Panel
            title={t`Últimos contatos`}
            loading={calls.isPending}
            testId="operation-contacts"
            action={
              <ButtonLink size="sm" variant="plain" to="/{-$locale}/phonecalls">
                {t`Ver todas`}
              </ButtonLink>
            }
          >
            {(calls.data?.results ?? []).length === 0 ? (
              <Empty>{t`Nenhuma chamada ainda.`}</Empty>
            ) : (
              <List size="sm" sx={{ '--ListItem-paddingX': 0 }}>
                {(calls.data?.results ?? []).map((row) => (
                  <ListItem key={row.id} sx={{ display: 'flex', gap: 1 }}>
                    <Typography level="body-sm" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 130 }}>
                      {formatDateTime(row.datetime)}
                    </Typography>
                    <Typography level="body-sm" sx={{ flex: 1 }} noWrap>
                      {row.phone}
                    </Typography>
                    <Typography level="body-xs">{row.dial_status_text}</Typography>
                    <Typography level="body-xs" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatDuration(row.total_answer_duration ?? 0)}
                    </Typography>
                  </ListItem>
                ))}
              </List>
            )}
          </Panel>
        )}
      </Box>
    </Box>
  )
}
