import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { EndpointStatus } from '../../../contract/codes/states.ts'
import type { WallboardAgent, WallboardQueue } from '../../../contract/realtime/wallboard.ts'
import type { Db } from '../../db/client.ts'
import { openAfterServicesOfSite } from '../../telephony/control/after-service.ts'

// What the wallboard shows, read from the database in a handful of statements per site (the feed runs it at most
// every 250 ms while somebody watches, whatever the number of watchers). Everything is derived from rows other parts
// already write: agent_states and pause_reports (presence), call_records (call control), chat_rooms (chat ACD) and
// the queues' member lists. Nothing here writes.

/** Seconds a chat must be answered within to count for the chat queues' service level (chat queues name no target). */
export const CHAT_SERVICE_LEVEL_SECONDS = 60

export type WallboardState = { agents: WallboardAgent[]; queues: WallboardQueue[] }

type Rows<T> = { rows: T[] }
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows
}
const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString())
const num = (value: number | string | null | undefined): number => Number(value ?? 0)

/** The start of today in the server's time zone: the queue counters count from there. */
export function startOfDay(now: Date): Date {
  const day = new Date(now)
  day.setHours(0, 0, 0, 0)
  return day
}

type AgentRow = {
  id: number
  username: string
  first_name: string
  last_name: string
  team_id: number | null
  team_name: string | null
  telephony_status: string | null
  telephony_changed_at: Date | string | null
  chat_status: string | null
  chat_changed_at: Date | string | null
  login_telephony: boolean | null
  login_chat: boolean | null
  pause_description: string | null
  pause_started_at: Date | string | null
  pause_maximum: number | null
  pause_pending: boolean | null
  pause_started_by: number | null
  has_pause: boolean
}

type CallRow = {
  user_id: number
  direction: string
  phone: string
  caller: string
  callee: string
  mine_as_caller: boolean
  answered_at: Date | string | null
  started_at: Date | string
  queue_id: number | null
}

type MemberRow = { kind: 'calls' | 'chats'; queue_id: number; user_id: number }
type QueueRow = { kind: 'calls' | 'chats'; id: number; name: string; target: number }
type QueueStatsRow = { queue_id: number; waiting: number | string; longest: Date | string | null; answered: number | string; in_target: number | string; abandoned: number | string }

/** Every agent and queue of the site as the wallboard shows them now. */
export async function loadWallboard(db: Db, siteId: number, now: Date): Promise<WallboardState> {
  const dayStart = startOfDay(now)
  const [agentRows, callRows, chatCounts, afterServices, members, queueRows, callStats, chatStats] = await Promise.all([
    // Agents: active users with a device, a channel sign-in or a queue membership (admins without any stay out).
    rows<AgentRow>(
      db,
      sql`
      SELECT u.id, u.username, u.first_name, u.last_name, u.team_id, t.name AS team_name,
        s.telephony_status, s.telephony_changed_at, s.chat_status, s.chat_changed_at,
        x.login_channel_telephony AS login_telephony, x.login_channel_chat AS login_chat,
        p.id IS NOT NULL AS has_pause, p.description AS pause_description, p.started_at AS pause_started_at,
        p.maximum_duration AS pause_maximum, p.pending AS pause_pending, p.started_by AS pause_started_by
      FROM users u
      LEFT JOIN teams t ON t.id = u.team_id
      LEFT JOIN agent_states s ON s.user_id = u.id
      LEFT JOIN user_extras x ON x.user_id = u.id
      LEFT JOIN pause_reports p ON p.user_id = u.id AND p.ended_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM call_records r WHERE r.after_service_pause_report_id = p.id)
      WHERE u.site_id = ${siteId} AND u.is_active
        AND (u.device_id IS NOT NULL OR x.login_channel_telephony OR x.login_channel_chat
          OR EXISTS (SELECT 1 FROM pabx_queues_members m WHERE m.user_id = u.id)
          OR EXISTS (SELECT 1 FROM chat_queues_members m WHERE m.user_id = u.id))
      ORDER BY u.first_name, u.last_name, u.username`,
    ),
    // The open call steps of the site, by the agent on either end (the latest one wins below).
    rows<CallRow>(
      db,
      sql`
      SELECT who.user_id, r.direction, r.phone, r.caller, r.callee, who.user_id = r.caller_user_id AS mine_as_caller,
        r.answered_at, r.started_at, r.queue_id
      FROM call_records r
      CROSS JOIN LATERAL (VALUES (r.user_id), (r.caller_user_id)) AS who(user_id)
      WHERE r.site_id = ${siteId} AND r.ended_at IS NULL AND who.user_id IS NOT NULL
      ORDER BY r.started_at`,
    ),
    rows<{ user_id: number; count: number | string }>(
      db,
      sql`SELECT user_id, count(*) AS count FROM chat_rooms
        WHERE site_id = ${siteId} AND state = 'active' AND ended_at IS NULL AND user_id IS NOT NULL GROUP BY user_id`,
    ),
    openAfterServicesOfSite(db, siteId, now),
    rows<MemberRow>(
      db,
      sql`SELECT 'calls' AS kind, queue_id, user_id FROM pabx_queues_members WHERE site_id = ${siteId}
        UNION ALL SELECT 'chats' AS kind, queue_id, user_id FROM chat_queues_members WHERE site_id = ${siteId}`,
    ),
    rows<QueueRow>(
      db,
      sql`SELECT 'calls' AS kind, id, description AS name, service_level AS target FROM pabx_queues WHERE site_id = ${siteId} AND is_active
        UNION ALL SELECT 'chats' AS kind, id, description AS name, ${CHAT_SERVICE_LEVEL_SECONDS} AS target FROM chat_queues WHERE site_id = ${siteId} AND is_active
        ORDER BY name, id`,
    ),
    // One row per (call, queue) of today or still open: when it entered, whether and when a member answered.
    rows<QueueStatsRow>(
      db,
      sql`
      WITH calls AS (
        SELECT r.queue_id, r.call_id, min(coalesce(r.queue_started_at, r.started_at)) AS entered,
          min(r.answered_at) AS answered_at, bool_or(r.ended_at IS NULL) AS open
        FROM call_records r
        WHERE r.site_id = ${siteId} AND r.queue_id IS NOT NULL AND (r.started_at >= ${dayStart} OR r.ended_at IS NULL)
        GROUP BY r.queue_id, r.call_id
      )
      SELECT c.queue_id,
        count(*) FILTER (WHERE c.open AND c.answered_at IS NULL) AS waiting,
        min(c.entered) FILTER (WHERE c.open AND c.answered_at IS NULL) AS longest,
        count(*) FILTER (WHERE c.answered_at IS NOT NULL AND c.entered >= ${dayStart}) AS answered,
        count(*) FILTER (WHERE c.answered_at IS NOT NULL AND c.entered >= ${dayStart}
          AND c.answered_at - c.entered <= make_interval(secs => q.service_level)) AS in_target,
        count(*) FILTER (WHERE NOT c.open AND c.answered_at IS NULL AND c.entered >= ${dayStart}) AS abandoned
      FROM calls c JOIN pabx_queues q ON q.id = c.queue_id
      GROUP BY c.queue_id`,
    ),
    rows<QueueStatsRow>(
      db,
      sql`
      SELECT queue_id,
        count(*) FILTER (WHERE state IN ('queued', 'offered')) AS waiting,
        min(queued_at) FILTER (WHERE state IN ('queued', 'offered')) AS longest,
        count(*) FILTER (WHERE answered_at >= ${dayStart} AND queued_at IS NOT NULL) AS answered,
        count(*) FILTER (WHERE answered_at >= ${dayStart} AND queued_at IS NOT NULL
          AND answered_at - queued_at <= make_interval(secs => ${CHAT_SERVICE_LEVEL_SECONDS})) AS in_target,
        count(*) FILTER (WHERE ended_at >= ${dayStart} AND answered_at IS NULL AND queued_at IS NOT NULL) AS abandoned
      FROM chat_rooms
      WHERE site_id = ${siteId} AND queue_id IS NOT NULL
        AND (state IN ('queued', 'offered') OR answered_at >= ${dayStart} OR ended_at >= ${dayStart})
      GROUP BY queue_id`,
    ),
  ])

  const callOf = new Map<number, CallRow>()
  for (const row of callRows) callOf.set(Number(row.user_id), row)
  const chatsOf = new Map(chatCounts.map((row) => [Number(row.user_id), num(row.count)]))
  const afterOf = new Map(afterServices.map((row) => [row.userId, row]))
  const queuesOf = new Map<number, string[]>()
  for (const member of members) {
    const list = queuesOf.get(Number(member.user_id)) ?? []
    list.push(`${member.kind}:${member.queue_id}`)
    queuesOf.set(Number(member.user_id), list)
  }

  const agents = agentRows.map((row): WallboardAgent => {
    const id = Number(row.id)
    const call = callOf.get(id)
    const after = afterOf.get(id)
    return {
      id,
      name: `${row.first_name} ${row.last_name}`.trim() || row.username,
      username: row.username,
      team: row.team_id === null ? null : Number(row.team_id),
      team_name: row.team_name ?? '',
      status: (row.telephony_status ?? null) as EndpointStatus | null,
      status_since: iso(row.telephony_changed_at),
      chat_status: (row.chat_status ?? null) as EndpointStatus | null,
      chat_status_since: iso(row.chat_changed_at),
      login_telephony: row.login_telephony ?? false,
      login_chat: row.login_chat ?? false,
      pause: row.has_pause
        ? {
            description: row.pause_description ?? '',
            started_at: iso(row.pause_started_at),
            maximum_duration: num(row.pause_maximum),
            pending: row.pause_pending ?? false,
            started_by: row.pause_started_by === null ? null : Number(row.pause_started_by),
          }
        : null,
      call: call
        ? {
            number: call.phone || (call.mine_as_caller ? call.callee : call.caller),
            direction: (['inbound', 'outbound', 'internal'].includes(call.direction) ? call.direction : 'internal') as 'inbound' | 'outbound' | 'internal',
            state: call.answered_at ? 'talking' : 'ringing',
            since: iso(call.answered_at ?? call.started_at)!,
            queue: call.queue_id === null ? null : Number(call.queue_id),
          }
        : null,
      chats: chatsOf.get(id) ?? 0,
      after_service: after && !call ? { started_at: after.startedAt.toISOString(), ends_at: after.endsAt?.toISOString() ?? null } : null,
      queues: (queuesOf.get(id) ?? []).sort(),
    }
  })

  const statsOf = new Map<string, QueueStatsRow>()
  for (const row of callStats) statsOf.set(`calls:${row.queue_id}`, row)
  for (const row of chatStats) statsOf.set(`chats:${row.queue_id}`, row)

  const queues = queueRows.map((row): WallboardQueue => {
    const key = `${row.kind}:${row.id}`
    const stats = statsOf.get(key)
    const answered = num(stats?.answered)
    const abandoned = num(stats?.abandoned)
    const inTarget = num(stats?.in_target)
    const queueAgents = agents.filter((agent) => agent.queues.includes(key))
    const logged = queueAgents.filter((agent) => (row.kind === 'calls' ? agent.login_telephony : agent.login_chat))
    const free = logged.filter((agent) => (row.kind === 'calls' ? isFreeForCalls(agent) : isFreeForChats(agent)))
    return {
      key,
      id: Number(row.id),
      kind: row.kind,
      name: row.name,
      waiting: num(stats?.waiting),
      longest_since: iso(stats?.longest ?? null),
      answered,
      abandoned,
      answered_in_target: inTarget,
      target: num(row.target),
      service_level: answered + abandoned === 0 ? null : Math.round((inTarget / (answered + abandoned)) * 1000) / 10,
      agents_logged: logged.length,
      agents_free: free.length,
    }
  })
  return { agents, queues }
}

/** Free for a queue call: available, no call, no pause, no after-service (the ACD's rule, server/telephony/control/acd.ts). */
export function isFreeForCalls(agent: WallboardAgent): boolean {
  return agent.status === 'not_inuse' && !agent.call && !agent.after_service && !(agent.pause && !agent.pause.pending)
}

function isFreeForChats(agent: WallboardAgent): boolean {
  return agent.chat_status === 'not_inuse' && !(agent.pause && !agent.pause.pending)
}
