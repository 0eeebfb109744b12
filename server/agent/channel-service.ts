import type { AgentChannel, ChannelResponse } from '../../contract/api/agent.ts'
import { userExtras } from '../db/schema/index.ts'
import type { UserRow } from '../db/schema/index.ts'
import type { AppDeps } from '../deps.ts'
import { pushToUser } from '../bus/channels.ts'
import { chatAvailabilityChanged } from './chat-availability.ts'

// Spec 000 §7 "Agent channel": signing in to (or out of) the telephony or chat channel sets the user's userextra
// login_channel_* flag (spec 000 §3), which the profile reports. `logged_in_by` says whether the agent or the system
// (a team's auto login) did it; it is answered, not stored. The user's sockets are told to refetch the profile.
export async function setChannelLogin(
  deps: AppDeps,
  user: UserRow,
  channel: AgentChannel,
  loggedIn: boolean,
  loggedInBy: 'user' | 'system' | null,
): Promise<ChannelResponse> {
  const set = channel === 'telephony' ? { loginChannelTelephony: loggedIn } : { loginChannelChat: loggedIn }
  const [extra] = await deps.db
    .insert(userExtras)
    .values({ userId: user.id, siteId: user.siteId, ...set })
    .onConflictDoUpdate({ target: userExtras.userId, set })
    .returning()
  await pushToUser(deps.bus, { siteId: user.siteId, userId: user.id }, { action: 'updateUser' })
  if (channel === 'chat') await chatAvailabilityChanged(deps, { siteId: user.siteId, userId: user.id })
  return {
    success: true,
    channel,
    logged_in: loggedIn,
    logged_in_by: loggedIn ? loggedInBy : null,
    login_channel_telephony: extra!.loginChannelTelephony,
    login_channel_chat: extra!.loginChannelChat,
  }
}
