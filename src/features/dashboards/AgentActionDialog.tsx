import { useState } from 'react'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { AGENT_PATHS } from '../../../contract/api/agent.ts'
import { COMMAND_PATHS } from '../../../contract/api/activities.ts'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'
import { api } from '../../api/client.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { profileQuery } from '../../api/session.ts'
import type { AgentAction } from './AgentActions.tsx'

// The confirmation of a supervisor's action on an agent: says what will happen to whom, asks the pause reason for a
// pause, and sends the request only on 'Confirmar'. The server writes each to the audit log. The reasons offered are
// the active pause types the supervisor's profile lists (the settings list needs a settings permission supervisors
// do not hold; the API takes any active type of the site).

type Answer = { success?: boolean; detail?: string }

async function perform(action: AgentAction, agent: WallboardAgent, pauseId: number | null): Promise<Answer> {
  const user_id = agent.id
  switch (action) {
    case 'pause':
      return api.post(AGENT_PATHS.supervisorPause, { user_id, pause_id: pauseId })
    case 'unpause':
      return api.post(AGENT_PATHS.supervisorUnpause, { user_id })
    case 'dndOn':
      return api.post(COMMAND_PATHS.dnd, { user_id, dnd: true })
    case 'dndOff':
      return api.post(COMMAND_PATHS.dnd, { user_id, dnd: false })
    case 'refresh':
      return api.post(COMMAND_PATHS.refresh, { user_id })
    case 'logout':
      return api.post(COMMAND_PATHS.logout, { user_id })
  }
}

export function AgentActionDialog({ action, agent, onClose }: { action: AgentAction; agent: WallboardAgent; onClose: () => void }) {
  const { t } = useLingui()
  const [pauseId, setPauseId] = useState<string | null>(null)
  const pauses = useQuery({ ...profileQuery, select: (profile) => profile?.pauses ?? [] })
  const name = agent.name
  const questions: Record<AgentAction, string> = {
    pause: t`Pausar ${name}? A pausa começa quando a ligação em curso terminar.`,
    unpause: t`Tirar ${name} da pausa?`,
    dndOn: t`Ativar não perturbe para ${name}? O webphone deixa de receber chamadas.`,
    dndOff: t`Desativar não perturbe para ${name}?`,
    refresh: t`Recarregar o console de ${name}?`,
    logout: t`Deslogar ${name}? O console avisa e sai em 15 segundos.`,
  }
  const mutation = useMutation({
    mutationFn: () => perform(action, agent, pauseId === null ? null : Number(pauseId)),
    onSuccess: (answer) => {
      if (answer.success === false) toast.error(answer.detail ?? t`Não foi possível concluir a ação.`)
      else toast.success(answer.detail ?? t`Comando enviado.`)
      onClose()
    },
    onError: (error: Error) => toast.error(error.message),
  })
  const blocked = action === 'pause' && pauseId === null
  return (
    <Modal open onClose={onClose}>
      <ModalDialog role="alertdialog" aria-labelledby="wallboard-action-title" sx={{ width: 'min(440px, 94vw)' }} data-testid="wallboard-action-dialog">
        <DialogTitle id="wallboard-action-title">{t`Confirmar ação`}</DialogTitle>
        <DialogContent>{questions[action]}</DialogContent>
        {action === 'pause' && (
          <FormControl required>
            <FormLabel id="wallboard-pause-label">{t`Motivo da pausa`}</FormLabel>
            <Select
              placeholder={t`Selecione`}
              value={pauseId}
              onChange={(_, value) => setPauseId(value)}
              slotProps={{ button: { 'aria-labelledby': 'wallboard-pause-label' } }}
              data-testid="wallboard-pause-select"
            >
              {(pauses.data ?? []).map((row) => (
                <Option key={String(row.id)} value={String(row.id)}>
                  {String(row.description ?? row.id)}
                </Option>
              ))}
            </Select>
          </FormControl>
        )}
        <DialogActions>
          <Button onClick={() => mutation.mutate()} loading={mutation.isPending} disabled={blocked} color={action === 'logout' ? 'danger' : 'primary'} data-testid="wallboard-action-confirm">
            {t`Confirmar`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
