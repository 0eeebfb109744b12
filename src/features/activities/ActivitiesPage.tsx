import { useState } from 'react'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import LinearProgress from '@mui/joy/LinearProgress'
import Sheet from '@mui/joy/Sheet'
import Stack from '@mui/joy/Stack'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Activity } from '../../../contract/api/activities.ts'
import { ACTIVITY_CALL_HEADER, ACTIVITY_MAX_ATTEMPTS } from '../../../contract/api/activities.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useAgentSelector, useAgentSystem } from '../../app/agentSystemContext.tsx'
import { formatDateTime } from '../../app/dates.ts'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { useRoles } from '../../entities/permissions.ts'
import { ACTIVITIES_KEY, markActivityDone, upcomingActivitiesQuery } from './activitiesApi.ts'
import { AddIcon, DoneIcon } from './icons.tsx'
import { ACTIVITY_TYPES, NewActivityDialog } from './NewActivityDialog.tsx'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import { EmptyRow } from '../../components/table/EmptyRow.tsx'

const COLUMNS = 8

/**
 * /activities (spec 000 §2 "Activity": start, end, subject, type, call to, mark as done, automatic execution): the
 * agent's pending activities, due or not yet (GET …/activities/?upcoming=true), with 'Marcar como feita' and 'Ligar'
 * (the webphone dials it, like the dialpad). A supervisor with sites.add_activity schedules one ('Nova atividade').
 */
export function ActivitiesPage() {
  const { t, i18n } = useLingui()
  const roles = useRoles()
  const queryClient = useQueryClient()
  const query = useQuery(upcomingActivitiesQuery())
  const [creating, setCreating] = useState(false)
  const [marking, setMarking] = useState<number | null>(null)
  const system = useAgentSystem()
  const canCall = has(roles, PERMISSIONS.viewSoftphone) && system !== null
  useErrorToast(query.error)
  const markDone = async (activity: Activity) => {
    setMarking(activity.id)
    try {
      await markActivityDone(activity.id)
      toast.success(t`Atividade marcada como feita.`)
      await queryClient.invalidateQueries({ queryKey: ACTIVITIES_KEY })
    } catch (failure) {
      const detail = (failure as Error).message
      toast.error(t`Erro: ${detail}`)
    } finally {
      setMarking(null)
    }
  }
  const rows = query.data?.results ?? []
  return (
    <>
      <PageHeader
        title={t`Atividades`}
        subtitle={t`Suas ligações agendadas; as de execução automática são discadas pelo webphone quando você está disponível.`}
        actions={
          has(roles, PERMISSIONS.addActivity) && (
            <Button startDecorator={<AddIcon />} onClick={() => setCreating(true)} data-testid="activity-new">
              {t`Nova atividade`}
            </Button>
          )
        }
      />
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'auto', boxShadow: 'xs', position: 'relative' }} data-testid="activities">
        {query.isFetching && <LinearProgress size="sm" sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
        <Table
          hoverRow
          size="sm"
          sx={{
            '--TableCell-paddingX': '12px',
            '--TableCell-paddingY': '8px',
            minWidth: 1000,
            tableLayout: 'auto',
            '& thead th': { bgcolor: 'background.level1', whiteSpace: 'normal', verticalAlign: 'bottom' },
          }}
        >
          <thead>
            <tr>
              <th>{t({ message: 'Início', context: 'activity start' })}</th>
              <th>{t`Fim`}</th>
              <th style={{ minWidth: 200 }}>{t`Assunto`}</th>
              <th>{t`Tipo`}</th>
              <th>{t`Ligar para`}</th>
              <th>{t`Execução automática`}</th>
              <th>{t`Tentativas`}</th>
              <th aria-label={t`Ações`} />
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && !query.isPending && <EmptyRow colSpan={COLUMNS}>{t`Nenhuma atividade pendente`}</EmptyRow>}
            {rows.map((activity) => {
              const due = Date.parse(activity.start) <= Date.now()
              return (
                <tr key={activity.id} data-testid="activity-row">
                  <td>
                    {formatDateTime(activity.start)}
                    {!due && (
                      <Typography level="body-xs" textColor="text.tertiary">
                        {t`Agendada`}
                      </Typography>
                    )}
                  </td>
                  <td>{activity.end ? formatDateTime(activity.end) : '—'}</td>
                  <td>{activity.subject}</td>
                  <td>{ACTIVITY_TYPES[activity.type] ? i18n._(ACTIVITY_TYPES[activity.type]) : activity.type}</td>
                  <td>{activity.destination}</td>
                  <td>
                    <Chip size="sm" variant="soft" color={activity.automatic_execution ? 'success' : 'neutral'}>
                      {activity.automatic_execution ? t`Sim` : t`Não`}
                    </Chip>
                  </td>
                  <td data-testid="activity-attempts">
                    {activity.count}/{ACTIVITY_MAX_ATTEMPTS}
                  </td>
                  <td>
                    <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ whiteSpace: 'nowrap' }}>
                      {canCall && <CallButton activity={activity} />}
                      <Button
                        size="sm"
                        variant="outlined"
                        startDecorator={<DoneIcon />}
                        loading={marking === activity.id}
                        onClick={() => void markDone(activity)}
                        data-testid="activity-done"
                      >
                        {t`Marcar como feita`}
                      </Button>
                    </Stack>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </Table>
      </Sheet>
      {creating && <NewActivityDialog onClose={() => setCreating(false)} />}
    </>
  )
}

/** 'Ligar': the webphone dials the activity's destination (with its id in the call headers), as the dialpad would. */
function CallButton({ activity }: { activity: Activity }) {
  const { t } = useLingui()
  const system = useAgentSystem()
  const ready = useAgentSelector('webphone', (snapshot) => snapshot.matches('ready'))
  return (
    <Button
      size="sm"
      variant="soft"
      color="success"
      startDecorator={<PhoneIcon />}
      disabled={!ready}
      title={ready ? undefined : t`O webphone não está ativo`}
      onClick={() =>
        system
          ?.get('webphone')
          .send({ type: 'DIAL', number: activity.destination, origin: 'activity', headers: { [ACTIVITY_CALL_HEADER]: String(activity.id) } })
      }
      data-testid="activity-call"
    >
      {t`Ligar`}
    </Button>
  )
}
