import { and, asc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { agentStates, callRecords, pabxDevices, pabxQueues, pabxQueuesMembers, sipRegistrations, userExtras, users } from '../../db/schema/index.ts'
import type { Candidate, Memory } from '../../acd/strategies.ts'

// The queue side of call control (ACD): who of a queue's members can take a call now, and what the strategies need to
// remember — all read from the database (agent statuses from server/agent/status-service.ts, call records), so a
// restart or another server instance continues where this one stopped.

export type QueueRow = typeof pabxQueues.$inferSelect

export type Member = Candidate & {
  deviceId: number
  deviceUsername: string
  available: boolean
}

/** An open step older than this is a leftover of a call whose end was never reported, not a busy agent. */
const STALE_OPEN_STEP_MS = 4 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export async function loadQueue(db: Db, siteId: number, queueId: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(pabxQueues)
    .where(and(eq(pabxQueues.siteId, siteId), eq(pabxQueues.id, queueId), eq(pabxQueues.isActive, true)))
  return row ?? null
}

/** User ids with a step still ringing or talking (any queue, any call): they are not offered another call. */
export async function engagedUsers(db: Db, siteId: number, now: Date): Promise<Set<number>> {
  const rows = await db
    .select({
      userId: callRecords.userId,
      offered: callRecords.offeredUserIds,
      callerUserId: callRecords.callerUserId,
      answeredAt: callRecords.answeredAt,
    })
    .from(callRecords)
    .where(and(eq(callRecords.siteId, siteId), isNull(callRecords.endedAt), gte(callRecords.startedAt, new Date(now.getTime() - STALE_OPEN_STEP_MS))))
  const engaged = new Set<number>()
  for (const row of rows) {
    if (row.userId) engaged.add(row.userId)
    if (row.callerUserId) engaged.add(row.callerUserId)
    // A ring-all offer holds every member it rings only until one answers: the others are free again.
    if (!row.answeredAt) for (const id of row.offered ?? []) engaged.add(id)
  }
  return engaged
}

/** Every member of the queue with what the strategies weigh, and whether they can take a call now. */
export async function loadMembers(db: Db, siteId: number, queueId: number, now: Date): Promise<Member[]> {
  const rows = await db
    .select({
      userId: pabxQueuesMembers.userId,
      position: pabxQueuesMembers.position,
      penalty: pabxQueuesMembers.penalty,
      userActive: users.isActive,
      lastLogin: users.lastLogin,
      deviceId: pabxDevices.id,
      deviceUsername: pabxDevices.username,
      deviceActive: pabxDevices.isActive,
      status: agentStates.telephonyStatus,
      loggedIn: userExtras.loginChannelTelephony,
      registered: sipRegistrations.registered,
      expiresAt: sipRegistrations.expiresAt,
    })
    .from(pabxQueuesMembers)
    .innerJoin(users, and(eq(users.id, pabxQueuesMembers.userId), eq(users.siteId, siteId)))
    .leftJoin(pabxDevices, and(eq(pabxDevices.id, users.deviceId), eq(pabxDevices.siteId, siteId)))
    .leftJoin(agentStates, eq(agentStates.userId, users.id))
    .leftJoin(userExtras, eq(userExtras.userId, users.id))
    .leftJoin(sipRegistrations, and(eq(sipRegistrations.siteId, siteId), eq(sipRegistrations.username, pabxDevices.username)))
    .where(and(eq(pabxQueuesMembers.siteId, siteId), eq(pabxQueuesMembers.queueId, queueId)))
    .orderBy(asc(pabxQueuesMembers.position), asc(pabxQueuesMembers.id))
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.userId)
  const lastEnded = await db
    .select({
      userId: callRecords.userId,
      at: sql<Date | string | null>`max(${callRecords.endedAt})`,
    })
    .from(callRecords)
    .where(and(eq(callRecords.siteId, siteId), inArray(callRecords.userId, ids), isNotNull(callRecords.answeredAt)))
    .groupBy(callRecords.userId)
  const answered = await db
    .select({ userId: callRecords.userId, n: sql<number>`count(*)::int` })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, siteId),
        eq(callRecords.queueId, queueId),
        inArray(callRecords.userId, ids),
        isNotNull(callRecords.answeredAt),
        gte(callRecords.startedAt, new Date(now.getTime() - DAY_MS)),
      ),
    )
    .groupBy(callRecords.userId)
  const lastOf = new Map(lastEnded.map((r) => [r.userId, r.at ? new Date(r.at) : null]))
  const countOf = new Map(answered.map((r) => [r.userId, Number(r.n)]))
  const engaged = await engagedUsers(db, siteId, now)
  return rows.map((row) => {
    const unregistered = row.registered === false || (row.registered === true && row.expiresAt !== null && row.expiresAt < now)
    return {
      userId: row.userId,
      position: row.position,
      penalty: row.penalty,
      lastCallEndedAt: lastOf.get(row.userId) ?? null,
      callsAnswered: countOf.get(row.userId) ?? 0,
      loginAt: row.lastLogin,
      deviceId: row.deviceId ?? 0,
      deviceUsername: row.deviceUsername ?? '',
      available:
        row.userActive &&
        row.deviceId !== null &&
        row.deviceActive === true &&
        row.status === 'not_inuse' &&
        row.loggedIn === true &&
        !unregistered &&
        !engaged.has(row.userId),
    }
  })
}

/** The member this queue offered its last call to (round robin's memory), from the call records. */
export async function queueMemory(db: Db, siteId: number, queueId: number): Promise<Memory> {
  const [row] = await db
    .select({ userId: callRecords.userId })
    .from(callRecords)
    .where(and(eq(callRecords.siteId, siteId), eq(callRecords.queueId, queueId), isNotNull(callRecords.userId)))
    .orderBy(sql`${callRecords.startedAt} desc, ${callRecords.id} desc`)
    .limit(1)
  return { lastOfferedUserId: row?.userId ?? null }
}

/** Calls waiting in the queue now: callers whose queue step rings, unanswered (max_callers). */
export async function waitingCalls(db: Db, siteId: number, queueId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${callRecords.callId})::int` })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, siteId),
        eq(callRecords.queueId, queueId),
        isNull(callRecords.endedAt),
        isNull(callRecords.answeredAt),
        gte(callRecords.startedAt, new Date(now.getTime() - STALE_OPEN_STEP_MS)),
      ),
    )
  return Number(row?.n ?? 0)
}

/**
 * Queue weight (`pabx_queues.weight`): of `userIds`, the members of `queue` that a heavier queue of the site also counts
 * on while callers wait in it. Such an agent is offered `queue`'s calls last, so a heavier queue's next caller finds them.
 */
export async function claimedByHeavierQueues(db: Db, siteId: number, queue: QueueRow, userIds: readonly number[], now: Date): Promise<Set<number>> {
  if (userIds.length === 0) return new Set()
  const since = new Date(now.getTime() - STALE_OPEN_STEP_MS)
  const rows = await db
    .selectDistinct({ userId: pabxQueuesMembers.userId })
    .from(pabxQueuesMembers)
    .innerJoin(pabxQueues, eq(pabxQueues.id, pabxQueuesMembers.queueId))
    .where(
      and(
        eq(pabxQueuesMembers.siteId, siteId),
        inArray(pabxQueuesMembers.userId, [...userIds]),
        eq(pabxQueues.isActive, true),
        sql`${pabxQueues.weight} > ${queue.weight}`,
        sql`exists (select 1 from call_records r where r.site_id = ${siteId} and r.queue_id = ${pabxQueues.id}
            and r.ended_at is null and r.answered_at is null and r.started_at >= ${since})`,
      ),
    )
  return new Set(rows.map((row) => row.userId))
}
