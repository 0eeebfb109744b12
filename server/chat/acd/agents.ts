import { and, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import { chatQueuesMembers, chatQueuesTeams, chatRooms, teams, userExtras, users, usersChatChannels } from '../../db/schema/index.ts'
import { pauseReports } from '../../db/schema/agent.ts'
import type { Candidate, Memory } from '../../acd/strategies.ts'
import type { DbOrTx } from './store.ts'
import { HOLDING_STATES } from './store.ts'

// Who may take a chat now (spec 001 §4 "Chat lifecycle", "Webchat status"; spec 000 §4 pause rules), all read from
// the database so another server instance decides the same way:
//
// - signed in to the chat channel (userextra login_channel_chat), an active user;
// - the room's channel among the user's chat channels, when the user has any configured (none = every channel);
// - the current pause (a started one; a supervisor's pending pause has not started) either does not apply to chats
//   (enable_webchat off) or allows incoming chats (allow_incoming_chat) — the rule the spec states for outgoing chats
//   ("blocked when the agent is paused, webchat is enabled for the pause and outgoing chat is not allowed"), mirrored;
// - fewer rooms held (offered or active) than the team's chat_limit_per_user (no team: 1, the team default; 0: no
//   limit, as the console's machines/webchatStatus.machine.ts counts it);
// - for a given room, not among the agents who already declined it or let it ring out (declined_user_ids).

export type PauseFacts = { enableWebchat: boolean; allowIncomingChat: boolean; allowOutgoingChat: boolean }

export type AgentFacts = {
  userId: number
  active: boolean
  loggedIn: boolean
  pause: PauseFacts | null
  limit: number
  autoAnswer: boolean
  /** Rooms offered to or served by the agent now. */
  holding: number
  /** The user's chat channels; empty = every channel. */
  channels: Set<number>
  lastLogin: Date | null
  /** When the agent was last given a room (answered, or offered if never answered): "longest idle" orders by it. */
  lastAssignedAt: Date | null
}

/** The default team chat_limit_per_user, for users without a team. */
export const DEFAULT_CHAT_LIMIT = 1

export function pauseAllowsIncoming(pause: PauseFacts | null): boolean {
  return !pause || !pause.enableWebchat || pause.allowIncomingChat
}

export function pauseAllowsOutgoing(pause: PauseFacts | null): boolean {
  return !pause || !pause.enableWebchat || pause.allowOutgoingChat
}

/** Whether the agent may be given one more incoming room now (the room's own rules — channel, declines — aside). */
export function mayTakeIncoming(agent: AgentFacts | undefined): agent is AgentFacts {
  return !!agent && agent.active && agent.loggedIn && pauseAllowsIncoming(agent.pause) && !atLimit(agent)
}

/** The agent holds as many rooms as the team allows (a limit of 0 means no limit, as the console counts it). */
export function atLimit(agent: Pick<AgentFacts, 'holding' | 'limit'>): boolean {
  return agent.limit > 0 && agent.holding >= agent.limit
}

export function servesChannel(agent: AgentFacts, channelId: number): boolean {
  return agent.channels.size === 0 || agent.channels.has(channelId)
}

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value))

export async function loadAgents(db: DbOrTx, siteId: number, userIds: readonly number[]): Promise<Map<number, AgentFacts>> {
  const facts = new Map<number, AgentFacts>()
  if (userIds.length === 0) return facts
  const ids = [...new Set(userIds)]
  const rows = await db
    .select({
      userId: users.id,
      active: users.isActive,
      lastLogin: users.lastLogin,
      loggedIn: userExtras.loginChannelChat,
      limit: teams.chatLimitPerUser,
      autoAnswer: teams.enableWebchatAutoAnswer,
      enableWebchat: pauseReports.enableWebchat,
      allowIncomingChat: pauseReports.allowIncomingChat,
      allowOutgoingChat: pauseReports.allowOutgoingChat,
    })
    .from(users)
    .leftJoin(userExtras, eq(userExtras.userId, users.id))
    .leftJoin(teams, eq(teams.id, users.teamId))
    .leftJoin(pauseReports, and(eq(pauseReports.userId, users.id), isNull(pauseReports.endedAt), eq(pauseReports.pending, false)))
    .where(and(eq(users.siteId, siteId), inArray(users.id, ids)))
  const holding = await db
    .select({ userId: chatRooms.userId, n: sql<number>`count(*)::int` })
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), inArray(chatRooms.userId, ids), inArray(chatRooms.state, [...HOLDING_STATES])))
    .groupBy(chatRooms.userId)
  const channels = await db
    .select({ userId: usersChatChannels.userId, channelId: usersChatChannels.channelId })
    .from(usersChatChannels)
    .where(and(eq(usersChatChannels.siteId, siteId), inArray(usersChatChannels.userId, ids)))
  const assigned = await db
    .select({ userId: chatRooms.userId, at: sql<Date | string | null>`max(coalesce(${chatRooms.answeredAt}, ${chatRooms.offeredAt}))` })
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), inArray(chatRooms.userId, ids)))
    .groupBy(chatRooms.userId)
  const holdingOf = new Map(holding.map((r) => [r.userId!, Number(r.n)]))
  const assignedOf = new Map(assigned.map((r) => [r.userId!, toDate(r.at)]))
  for (const row of rows) {
    facts.set(row.userId, {
      userId: row.userId,
      active: row.active,
      loggedIn: row.loggedIn ?? false,
      pause:
        row.enableWebchat === null
          ? null
          : { enableWebchat: row.enableWebchat, allowIncomingChat: row.allowIncomingChat ?? false, allowOutgoingChat: row.allowOutgoingChat ?? false },
      limit: row.limit ?? DEFAULT_CHAT_LIMIT,
      autoAnswer: row.autoAnswer ?? false,
      holding: holdingOf.get(row.userId) ?? 0,
      channels: new Set(channels.filter((c) => c.userId === row.userId).map((c) => c.channelId)),
      lastLogin: row.lastLogin,
      lastAssignedAt: assignedOf.get(row.userId) ?? null,
    })
  }
  return facts
}

export type QueueMember = { userId: number; position: number; penalty: number }

/**
 * The agents of each queue: its member rows; a queue without member rows is served by the active users of its teams
 * (penalty 0, in user id order), so "this team answers this queue" needs no member list.
 */
export async function loadQueueMembers(db: DbOrTx, siteId: number, queueIds: readonly number[]): Promise<Map<number, QueueMember[]>> {
  const members = new Map<number, QueueMember[]>()
  if (queueIds.length === 0) return members
  const rows = await db
    .select({ queueId: chatQueuesMembers.queueId, userId: chatQueuesMembers.userId, position: chatQueuesMembers.position, penalty: chatQueuesMembers.penalty })
    .from(chatQueuesMembers)
    .where(and(eq(chatQueuesMembers.siteId, siteId), inArray(chatQueuesMembers.queueId, [...queueIds])))
    .orderBy(chatQueuesMembers.position, chatQueuesMembers.id)
  for (const row of rows) {
    const list = members.get(row.queueId) ?? []
    list.push({ userId: row.userId, position: row.position, penalty: row.penalty })
    members.set(row.queueId, list)
  }
  const teamQueues = queueIds.filter((id) => !members.has(id))
  if (teamQueues.length > 0) {
    const teamUsers = await db
      .select({ queueId: chatQueuesTeams.queueId, userId: users.id })
      .from(chatQueuesTeams)
      .innerJoin(users, and(eq(users.teamId, chatQueuesTeams.teamId), eq(users.siteId, siteId), eq(users.isActive, true)))
      .where(and(eq(chatQueuesTeams.siteId, siteId), inArray(chatQueuesTeams.queueId, teamQueues)))
      .orderBy(users.id)
    for (const row of teamUsers) {
      const list = members.get(row.queueId) ?? []
      if (!list.some((m) => m.userId === row.userId)) list.push({ userId: row.userId, position: 1_000_000 + row.userId, penalty: 0 })
      members.set(row.queueId, list)
    }
  }
  return members
}

/** Rooms each agent answered in the queue in the last 24 hours (fewestcalls). */
export async function answeredToday(db: DbOrTx, siteId: number, queueId: number, now: Date): Promise<Map<number, number>> {
  const rows = await db
    .select({ userId: chatRooms.userId, n: sql<number>`count(*)::int` })
    .from(chatRooms)
    .where(
      and(
        eq(chatRooms.siteId, siteId),
        eq(chatRooms.queueId, queueId),
        isNotNull(chatRooms.userId),
        gte(chatRooms.answeredAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)),
      ),
    )
    .groupBy(chatRooms.userId)
  return new Map(rows.map((r) => [r.userId!, Number(r.n)]))
}

/**
 * The agent this queue offered its last room to (round robin's memory): the newest offer's agent, or, when that offer
 * rang out or was declined (the room went back to the queue without an agent), the last agent who declined it.
 */
export async function queueMemory(db: DbOrTx, siteId: number, queueId: number): Promise<Memory> {
  const [row] = await db
    .select({ userId: chatRooms.userId, declined: chatRooms.declinedUserIds })
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, siteId), eq(chatRooms.queueId, queueId), isNotNull(chatRooms.offeredAt)))
    .orderBy(sql`${chatRooms.offeredAt} desc, ${chatRooms.id} desc`)
    .limit(1)
  if (!row) return { lastOfferedUserId: null }
  return { lastOfferedUserId: row.userId ?? row.declined.at(-1) ?? null }
}

export function candidateOf(member: QueueMember, agent: AgentFacts | undefined, answered: Map<number, number>): Candidate {
  return {
    userId: member.userId,
    position: member.position,
    penalty: member.penalty,
    lastCallEndedAt: agent?.lastAssignedAt ?? null,
    callsAnswered: answered.get(member.userId) ?? 0,
    loginAt: agent?.lastLogin ?? null,
  }
}
