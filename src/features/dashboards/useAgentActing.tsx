import { useCallback, useState } from 'react'
import type { ReactNode } from 'react'
import type { WallboardAgent } from '../../../contract/realtime/wallboard.ts'
import { AgentActionDialog } from './AgentActionDialog.tsx'
import type { AgentAction, WallboardAction } from './AgentActions.tsx'
import { MonitorBar } from './MonitorBar.tsx'
import type { MonitorRequest } from './MonitorBar.tsx'

/**
 * What a supervisor does to an agent from a card of the wallboard or of a builder page's agent grid: a confirmed
 * action (pause, logout, …) in a dialog, or a listen / whisper / barge session in the monitoring bar.
 */
export function useAgentActing(): { onAction: (action: WallboardAction, agent: WallboardAgent) => void; bar: ReactNode; dialog: ReactNode } {
  const [acting, setActing] = useState<{ action: AgentAction; agent: WallboardAgent } | null>(null)
  const [monitor, setMonitor] = useState<MonitorRequest | null>(null)
  const onAction = useCallback((action: WallboardAction, agent: WallboardAgent) => {
    if (action === 'listen' || action === 'whisper' || action === 'barge') setMonitor({ agent, mode: action })
    else setActing({ action, agent })
  }, [])
  const endMonitor = useCallback(() => setMonitor(null), [])
  return {
    onAction,
    bar: monitor && <MonitorBar key={`${monitor.agent.id}-${monitor.mode}`} request={monitor} onDone={endMonitor} />,
    dialog: acting && <AgentActionDialog action={acting.action} agent={acting.agent} onClose={() => setActing(null)} />,
  }
}
