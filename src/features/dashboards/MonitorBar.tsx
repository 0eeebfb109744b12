import { useEffect, useRef, useState } from 'react'
import Button from '@mui/joy/Button'
import Sheet from '@mui/joy/Sheet'
import ToggleButtonGroup from '@mui/joy/ToggleButtonGroup'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { MONITOR_MODES, MONITOR_PATHS } from '../../../contract/api/monitor.ts'
import type { MonitorMode, MonitorSession } from '../../../contract/api/monitor.ts'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'
import { api } from '../../api/client.ts'
import { toast } from '../../components/toast/toastStore.ts'

// Listening to, whispering to or barging in on an agent's call (issue 19 item 1; server/media/app/spy.ts). Starting
// makes the supervisor's webphone ring with the monitoring call: the request waits until it is answered (one click
// in the top bar). While it lasts this bar shows whom, the mode (switchable) and Stop. In listen mode the agent is
// not told (a product decision; some jurisdictions require a notice: see the README).

export type MonitorRequest = { agent: WallboardAgent; mode: MonitorMode }

const path = (template: string, id: string) => template.replace(':id', id)

export function MonitorBar({ request, onDone }: { request: MonitorRequest; onDone: () => void }) {
  const { t } = useLingui()
  const [session, setSession] = useState<MonitorSession | null>(null)
  const [busy, setBusy] = useState(true)
  const asked = useRef(false)
  const labels: Record<MonitorMode, string> = { listen: t`Ouvir`, whisper: t`Sussurrar`, barge: t`Intervir` }
  useEffect(() => {
    if (asked.current) return
    asked.current = true
    api
      .post<MonitorSession>(MONITOR_PATHS.start, { user_id: request.agent.id, mode: request.mode })
      .then((answer) => setSession(answer))
      .catch((error: Error) => {
        toast.error(error.message)
        onDone()
      })
      .finally(() => setBusy(false))
  }, [request, onDone])
  const change = (mode: MonitorMode) => {
    if (!session || mode === session.mode) return
    setBusy(true)
    api
      .post<MonitorSession>(path(MONITOR_PATHS.mode, session.id), { mode })
      .then((answer) => setSession(answer))
      .catch((error: Error) => toast.error(error.message))
      .finally(() => setBusy(false))
  }
  const stop = () => {
    if (!session) return onDone()
    setBusy(true)
    api
      .post(path(MONITOR_PATHS.stop, session.id), {})
      .catch((error: Error) => toast.error(error.message))
      .finally(onDone)
  }
  const name = request.agent.name
  return (
    <Sheet
      variant="soft"
      color="primary"
      role="status"
      data-testid="wallboard-monitor"
      data-mode={session?.mode ?? ''}
      sx={{ borderRadius: 'sm', p: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
    >
      <Typography level="title-sm" sx={{ flex: 1, minWidth: 200 }}>
        {session ? t`Monitorando ${name}` : t`Atenda a chamada de monitoria no webphone para ouvir ${name}.`}
        {session?.listen_only ? (
          <Typography component="span" level="body-xs" data-testid="wallboard-monitor-listen-only" sx={{ display: 'block' }}>
            {t`Só ouvir: o agente atendeu esta chamada diretamente.`}
          </Typography>
        ) : null}
      </Typography>
      <ToggleButtonGroup
        size="sm"
        value={session?.mode ?? request.mode}
        disabled={!session || busy}
        onChange={(_, value) => value && change(value as MonitorMode)}
        aria-label={t`Modo de monitoria`}
      >
        {MONITOR_MODES.map((mode) => {
          // The mode on is plain to see (in barge the customer hears the supervisor): the soft group's pressed look
          // was hardly told from the others on the bar's soft background.
          const on = (session?.mode ?? request.mode) === mode
          return (
            <Button
              key={mode}
              value={mode}
              variant={on ? 'solid' : 'outlined'}
              color="primary"
              disabled={session?.listen_only === true && mode !== 'listen'}
              data-testid={`wallboard-monitor-${mode}`}
            >
              {labels[mode]}
            </Button>
          )
        })}
      </ToggleButtonGroup>
      <Button size="sm" color="danger" variant="solid" onClick={stop} loading={busy && !session} data-testid="wallboard-monitor-stop">
        {session ? t`Encerrar` : t`Cancelar`}
      </Button>
    </Sheet>
  )
}
