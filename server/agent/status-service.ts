import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { AgentChannel, AgentStatusRow } from '../../contract/api/agent.ts'
import type { EndpointStatus } from '../../contract/codes/states.ts'
import { userExtras, users } from '../db/schema/index.ts'
import { agentStates, pauseReports } from '../db/schema/agent.ts'
import type { AppDeps } from '../deps.ts'
import { pushToSupervisors } from '../bus/channels.ts'
import { AVAILABLE_FOR_PAUSE, startPendingPause } from './pause-service.ts'
import { toPause } from './pause-view.ts'

// The status each agent reports on the service socket (change_state: spec 000 §4 aggregate status, §7; spec 001 §4
// webchat status). A change is committed (current status + one timeline row) before the site's supervisors hear it;
// a repeat of the current status (a client re-sending after a reconnect) changes nothing and is not announced.

export type StatusTarget = { siteId: number; userId: number }

/** The columns of agent_states per channel (fixed names, never input). */
const COLUMNS = {
  telephony: { status: sql.raw('telephony_status'), changedAt: sql.raw('telephony_changed_at') },
  chat: { status: sql.raw('chat_status'), changedAt: sql.raw('chat_changed_at') },
} as const

type ChangeRow = { changed: boolean; previous: string | null; pending_pause: boolean }

export async function reportStatus(deps: AppDeps, who: StatusTarget, channel: AgentChannel, status: EndpointStatus): Promise<void> {
  const { status: column, changedAt } = COLUMNS[channel]
  const now = new Date()
  // One statement (one round trip, atomic): the previous status, the upsert that only happens on a change, the
  // timeline row that only follows an upsert, and whether a supervisor's pause waits for the agent. Every CTE reads
  // the snapshot from before the statement, so `prev` is the status being replaced.
  const result = await deps.db.execute(sql`
    WITH prev AS (
      SELECT ${column} AS status FROM agent_states WHERE user_id = ${who.userId}
    ), upsert AS (
      INSERT INTO agent_states (user_id, site_id, ${column}, ${changedAt})
      VALUES (${who.userId}, ${who.siteId}, ${status}, ${now})
      ON CONFLICT (user_id) DO UPDATE SET ${column} = EXCLUDED.${column}, ${changedAt} = EXCLUDED.${changedAt}
      WHERE agent_states.${column} IS DISTINCT FROM EXCLUDED.${column}
      RETURNING 1
    ), event AS (
      INSERT INTO agent_status_events (site_id, user_id, channel, status, previous_status, at)
      SELECT ${who.siteId}, ${who.userId}, ${channel}, ${status}, (SELECT status FROM prev), ${now}
      WHERE EXISTS (SELECT 1 FROM upsert)
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM event) AS changed,
      (SELECT status FROM prev) AS previous,
      EXISTS (SELECT 1 FROM pause_reports WHERE user_id = ${who.userId} AND ended_at IS NULL AND pending) AS pending_pause
  `)
  const row = (result as unknown as { rows: ChangeRow[] }).rows[0]
  if (!row?.changed) return
  await pushToSupervisors(deps.bus, who.siteId, {
    action: 'agentStatus',
    user: who.userId,
    channel,
    status,
    previous: (row.previous ?? null) as EndpointStatus | null,
    changed_at: now.toISOString(),
  })
  const available = channel === 'telephony' && (AVAILABLE_FOR_PAUSE as readonly string[]).includes(status)
  if (available && row.pending_pause) await startPendingPause(deps, who.siteId, who.userId)
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
