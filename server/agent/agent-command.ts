import type { CommandResponse } from '../../contract/api/activities.ts'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import type { ServerMessage } from '../../contract/realtime/service-socket.ts'
import type { UserRow } from '../db/schema/index.ts'
import type { AppDeps } from '../deps.ts'
import { detailError } from '../http/errors.ts'
import { pushToUser } from '../bus/channels.ts'
import { findUser } from '../users/user-repo.ts'
import { auditSupervisorAction } from './supervisor-audit.ts'

// A supervisor's remote commands to an agent's console (spec 000 §4 Logout, §7 received actions dnd, refresh, openUrl,
// logout). They go over the bus, so the agent hears them on whichever instance holds their sockets. The server keeps
// nothing: the console acts (a remote logout shows 'Comando recebido, você será deslogado em 15 segundos' and signs
// out 15 s later, or once its calls end), and an agent with no socket open simply misses the command.

/** The commands a supervisor may send; `logout` carries why (the socket's session-ended logouts say theirs). */
export type AgentCommand = Extract<ServerMessage, { action: 'dnd' | 'refresh' | 'openUrl' | 'logout' }>

/** Why a remote logout happened, in the `logout` frame. */
export const SUPERVISOR_LOGOUT_REASON = 'supervisor'

export async function sendAgentCommand(
  deps: AppDeps,
  caller: { user: UserRow; lang: Locale },
  userId: number,
  command: AgentCommand,
): Promise<CommandResponse> {
  const siteId = caller.user.siteId
  const agent = await findUser(deps.db, siteId, userId)
  if (!agent) throw detailError(404, 'notFound', caller.lang)
  const { action, ...detail } = command
  await auditSupervisorAction(deps.db, { siteId, supervisorId: caller.user.id, agentId: agent.id, command: action, detail })
  await pushToUser(deps.bus, { siteId, userId: agent.id }, command)
  return { success: true, detail: message('commandSent', caller.lang) }
}
