import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { AgentChannel, AgentStatusRow } from '../../contract/api/agent.ts'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import { userExtras, users } from '../db/schema/index.ts'
import { agentStates, agentStatusEvents, pauseReports } from '../db/schema/agent.ts'
import type { AppDeps } from '../deps.ts'
import { pushToSupervisors } from '../realtime/channels.ts'
import { AVAILABLE_FOR_PAUSE, startPendingPause } from './pause-service.ts'
import { toPause } from './pause-view.ts'

// The status each agent reports on the service socket (change_state: spec 000 §4 aggregate status, §7; spec 001 §4
// webchat status). A change is committed (current status + one timeline row) before the site's supervisors hear it;
// a repeat of the current status (a client re-sending after a reconnect) changes nothing and is not announced.

export type StatusTarget = { siteId: number; userId: number }

export async function reportStatus(deps: AppDeps, who: StatusTarget, channel: AgentChannel, status: EndpointStatus): Promise<void> {
  const telephony = channel === 'telephony'
  const change = await deps.db.transaction(async (tx) => {
    const now = new Date()
    const [state] = await tx.select().from(agentStates).where(eq(agentStates.userId, who.userId)).for('update')
    const previous = ((telephony ? state?.telephonyStatus : state?.chatStatus) ?? null) as EndpointStatus | null
    if (previous === status) return null
    const values = telephony ? { telephonyStatus: status, telephonyChangedAt: now } : { chatStatus: status, chatChangedAt: now }
    await tx
      .insert(agentStates)
      .values({ userId: who.userId, siteId: who.siteId, ...values })
      .onConflictDoUpdate({ target: agentStates.userId, set: values })
    await tx.insert(agentStatusEvents).values({ siteId: who.siteId, userId: who.userId, channel, status, previousStatus: previous, at: now })
    return { previous, at: now }
  })
  if (!change) return
  await pushToSupervisors(deps.bus, who.siteId, {
    action: 'agentStatus',
    user: who.userId,
    channel,
    status,
    previous: change.previous,
    changed_at: change.at.toISOString(),
  })
  if (telephony && (AVAILABLE_FOR_PAUSE as readonly string[]).includes(status)) await startPendingPause(deps, who.siteId, who.userId)
}

/** GET /v1/agent/status/: every active user of the site with their current statuses, channel logins and pause. */
export async function listStatuses(deps: AppDeps, siteId: number, filter: { team?: number | undefined } = {}): Promise<AgentStatusRow[]> {
  const { db } = deps
  const where = [eq(users.siteId, siteId), eq(users.isActive, true)]
  if (filter.team !== undefined) where.push(eq(users.teamId, filter.team))
  const rows = await db
    .select({ user: users, state: agentStates, extra: userExtras })
    .from(users)
    .leftJoin(agentStates, eq(agentStates.userId, users.id))
    .leftJoin(userExtras, eq(userExtras.userId, users.id))
    .where(and(...where))
    .orderBy(asc(users.username))
  const ids = rows.map((row) => row.user.id)
  const pauses = ids.length
    ? await db
        .select()
        .from(pauseReports)
        .where(and(eq(pauseReports.siteId, siteId), inArray(pauseReports.userId, ids), isNull(pauseReports.endedAt)))
    : []
  const pauseOf = new Map(pauses.map((row) => [row.userId, toPause(row)]))
  return rows.map(({ user, state, extra }) => ({
    user: user.id,
    username: user.username,
    name: `${user.firstName} ${user.lastName}`.trim() || user.username,
    team: user.teamId,
    telephony_status: (state?.telephonyStatus ?? null) as EndpointStatus | null,
    telephony_changed_at: state?.telephonyChangedAt?.toISOString() ?? null,
    chat_status: (state?.chatStatus ?? null) as EndpointStatus | null,
    chat_changed_at: state?.chatChangedAt?.toISOString() ?? null,
    login_channel_telephony: extra?.loginChannelTelephony ?? false,
    login_channel_chat: extra?.loginChannelChat ?? false,
    pause: pauseOf.get(user.id) ?? null,
  }))
}
