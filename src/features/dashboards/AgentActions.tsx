import Dropdown from '@mui/joy/Dropdown'
import IconButton from '@mui/joy/IconButton'
import Menu from '@mui/joy/Menu'
import MenuButton from '@mui/joy/MenuButton'
import MenuItem from '@mui/joy/MenuItem'
import { useLingui } from '@lingui/react/macro'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useRoles } from '../../entities/permissions.ts'
import type { MonitorMode } from '../../../contract/api/monitor.ts'

// The supervisor's actions on one agent (spec 000 §4, §6, §7): pause with a reason or unpause (sites.pause_agent), and
// the remote commands (sites.command_agent): do-not-disturb on or off, reload the console, sign out. Each opens a
// confirmation (AgentActionDialog) before anything is sent.

export type AgentAction = 'pause' | 'unpause' | 'dndOn' | 'dndOff' | 'refresh' | 'logout'
/** The menu's choices: a confirmed action, or a monitoring mode (MonitorBar). */
export type WallboardAction = AgentAction | MonitorMode

export function AgentActions({ agent, onAction }: { agent: WallboardAgent; onAction: (action: WallboardAction, agent: WallboardAgent) => void }) {
  const { t } = useLingui()
  const roles = useRoles()
  const canPause = has(roles, PERMISSIONS.pauseAgent)
  const canCommand = has(roles, PERMISSIONS.commandAgent)
  // Listen / whisper / barge (sites.monitor_agent): on a call the agent is talking on.
  const canMonitor = has(roles, PERMISSIONS.monitorAgent) && agent.call?.state === 'talking'
  if (!canPause && !canCommand && !canMonitor) return null
  const dnd = agent.status === 'do_not_disturb'
  return (
    <Dropdown>
      <MenuButton
        slots={{ root: IconButton }}
        slotProps={{ root: { size: 'sm', variant: 'plain', color: 'neutral' } }}
        aria-label={t`Ações para ${agent.name}`}
        data-testid="wallboard-agent-menu"
      >
        <span aria-hidden style={{ fontSize: 18, lineHeight: 1 }}>
          ⋮
        </span>
      </MenuButton>
      <Menu size="sm" placement="bottom-end">
        {canMonitor && <MenuItem onClick={() => onAction('listen', agent)} data-testid="wallboard-action-listen">{t`Ouvir a ligação`}</MenuItem>}
        {canMonitor && <MenuItem onClick={() => onAction('whisper', agent)} data-testid="wallboard-action-whisper">{t`Sussurrar ao agente`}</MenuItem>}
        {canMonitor && <MenuItem onClick={() => onAction('barge', agent)} data-testid="wallboard-action-barge">{t`Entrar na ligação`}</MenuItem>}
        {canPause && !agent.pause && <MenuItem onClick={() => onAction('pause', agent)} data-testid="wallboard-action-pause">{t`Pausar…`}</MenuItem>}
        {canPause && agent.pause && <MenuItem onClick={() => onAction('unpause', agent)} data-testid="wallboard-action-unpause">{t`Tirar da pausa`}</MenuItem>}
        {canCommand && (
          <MenuItem onClick={() => onAction(dnd ? 'dndOff' : 'dndOn', agent)} data-testid="wallboard-action-dnd">
            {dnd ? t`Desativar não perturbe` : t`Ativar não perturbe`}
          </MenuItem>
        )}
        {canCommand && <MenuItem onClick={() => onAction('refresh', agent)} data-testid="wallboard-action-refresh">{t`Recarregar console`}</MenuItem>}
        {canCommand && (
          <MenuItem color="danger" onClick={() => onAction('logout', agent)} data-testid="wallboard-action-logout">
            {t`Deslogar`}
          </MenuItem>
        )}
      </Menu>
    </Dropdown>
  )
}
