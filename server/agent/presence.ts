import type { AgentChannel, Pause } from '../../contract/api/agent.ts'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import type { SocketActivity } from '../../contract/realtime/service-socket.ts'
import type { AppDeps } from '../deps.ts'
import { currentPause } from './pause-service.ts'
import { reportStatus } from './status-service.ts'

// What the service socket asks of the agent side (server/realtime/gateway.ts): one object, so the gateway knows
// nothing of tables.
export type Who = { siteId: number; userId: number }

export type AgentPresence = {
  currentPause(who: Who): Promise<Pause | null>
  /** Pending activities (scheduled calls). No activities table exists yet: always empty until that issue lands. */
  pendingActivities(who: Who): Promise<SocketActivity[]>
  /** done_activity: nothing to mark while no activities exist. */
  doneActivity(who: Who, id: number): Promise<void>
  reportStatus(who: Who, channel: AgentChannel, status: EndpointStatus): Promise<void>
}

export function createAgentPresence(deps: AppDeps): AgentPresence {
  return {
    currentPause: (who) => currentPause(deps.db, who.siteId, who.userId),
    pendingActivities: async () => [],
    doneActivity: async () => {},
    reportStatus: (who, channel, status) => reportStatus(deps, who, channel, status),
  }
}
