import type { AgentChannel, Pause } from '../../contract/api/agent.ts'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import type { SocketActivity } from '../../contract/realtime/service-socket.ts'
import type { AppDeps } from '../deps.ts'
import { markActivityDone, pendingActivities } from './activity-service.ts'
import { currentPause } from './pause-service.ts'
import { reportStatus } from './status-service.ts'

// What the service socket asks of the agent side (server/realtime/sockets/business.ts): one object, so the socket
// knows nothing of tables. (Its call-step frames go to telephony/control/call-service.ts.)
export type Who = { siteId: number; userId: number }

export type AgentPresence = {
  currentPause(who: Who): Promise<Pause | null>
  /** The agent's due, not-done activities (scheduled calls), by start. */
  pendingActivities(who: Who): Promise<SocketActivity[]>
  /** done_activity: marks the agent's own activity done (another user's id changes nothing). */
  doneActivity(who: Who, id: number): Promise<void>
  reportStatus(who: Who, channel: AgentChannel, status: EndpointStatus): Promise<void>
}

export function createAgentPresence(deps: AppDeps): AgentPresence {
  return {
    currentPause: (who) => currentPause(deps.db, who.siteId, who.userId),
    pendingActivities: (who) => pendingActivities(deps.db, who),
    doneActivity: async (who, id) => {
      await markActivityDone(deps, who, id)
    },
    reportStatus: (who, channel, status) => reportStatus(deps, who, channel, status),
  }
}
