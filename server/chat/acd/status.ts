import type { EndpointStatus } from '../../../contract/codes/states.ts'
import { reportStatus } from '../../agent/status-service.ts'
import type { AppDeps } from '../../deps.ts'
import { atLimit, loadAgents } from './agents.ts'

// Spec 001 §4 "Webchat status", computed from the database, first rule that holds (the order of the console's
// machines/webchatStatus.machine.ts):
//   unavailable — not signed in to the chat channel (the start);
//   paused      — a started pause that applies to chats (enable_webchat) is current;
//   busy        — the rooms held (offered or active) reach the team's chat_limit_per_user (0 = no limit);
//   unavailable — the chat socket's registration failed, is unregistered or disconnected (the socket passes
//                 `connection`; the ACD itself does not know it and assumes registered);
//   not_inuse   — otherwise.
// Stored as agent_states.chat_status through the agent status service, which records the timeline and tells the
// site's supervisors (`agentStatus`, channel 'chat') only when it changed.

export type ChatConnection = 'registered' | 'connected' | 'registrationFailed' | 'unregistered' | 'disconnected'

export async function webchatStatus(deps: AppDeps, siteId: number, userId: number, connection: ChatConnection = 'registered'): Promise<EndpointStatus> {
  const agent = (await loadAgents(deps.db, siteId, [userId])).get(userId)
  if (!agent || !agent.active || !agent.loggedIn) return 'unavailable'
  if (agent.pause?.enableWebchat) return 'paused'
  if (atLimit(agent)) return 'busy'
  if (connection === 'registrationFailed' || connection === 'unregistered' || connection === 'disconnected') return 'unavailable'
  return 'not_inuse'
}

/** Recomputes the agent's webchat status and stores it (supervisors hear a change). */
export async function refreshWebchatStatus(deps: AppDeps, siteId: number, userId: number, connection?: ChatConnection): Promise<EndpointStatus> {
  const status = await webchatStatus(deps, siteId, userId, connection)
  await reportStatus(deps, { siteId, userId }, 'chat', status)
  return status
}
