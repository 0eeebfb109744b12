import type { AppDeps } from '../../deps.ts'
import { loadAgents, pauseAllowsOutgoing } from './agents.ts'
import type { AcdResult } from './store.ts'
import { refuse } from './store.ts'

// Outgoing chats (types 10, 11, 31) are assigned to their agent directly, never queued (outbound.ts creates them).

/**
 * Whether the agent may start an outgoing chat (types 10, 11, 31: a template to a new contact, a mailing, internal),
 * which is assigned to them directly, never queued: refused while a pause that applies to chats (enable_webchat) does
 * not allow outgoing chats — spec 001 §5 'Usuário esta pausado'.
 */
export async function mayStartOutgoingChat(deps: AppDeps, siteId: number, userId: number): Promise<AcdResult<object>> {
  const agent = (await loadAgents(deps.db, siteId, [userId])).get(userId)
  if (!agent || !agent.active) return refuse(404, 'notFound')
  if (!pauseAllowsOutgoing(agent.pause)) return refuse(400, 'userPaused')
  return { ok: true }
}
