import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { AFTER_SERVICE_GRACE_SECONDS, AFTER_SERVICE_TYPE_CALL } from '../../../contract/codes/after-service.ts'
import type { Db } from '../../db/client.ts'
import { callRecords } from '../../db/schema/index.ts'
import { pauseReports } from '../../db/schema/agent.ts'
import { pauseSeconds } from '../../agent/pause-view.ts'
import type { Bus } from '../../bus/bus.ts'
import { pushToUser } from '../../bus/channels.ts'

// The server's side of after-service (spec 000 §4, §7): an agent whose call ended is in after-service from that
// moment, whatever the browser reports. The window is born with the call's end — not with the webphone's
// after-service/start, which may come late or never (a closed tab, a customer who hung up first) — so the ACD never
// offers a queue call in between (acd.ts engagedUsers). It ends with ?type=hangup or after_service_finished (the
// webphone), or when its time (the team's duration plus AFTER_SERVICE_GRACE_SECONDS) is over: then the server ends it
// itself and tells the agent's sockets (afterServiceTimeout).
//
// A step is in after-service for its agents (user_id, caller_user_id) when their team enables after-service, it was
// answered and ended, it lasted at least the team's ignore_after_service_with_duration_shorter_than, it was not
// transferred (no transfer type on it, no step transferred from it) and its after-service has not finished — or when
// the webphone started one for it (after-service/start). Modes without a time limit (optional, mandatory) hold it until
// the agent ends it, within STALE_HOURS.

const STALE_HOURS = 4

/** The steps in after-service of a site now: who (the agent), the step, and when its time is over (null: untimed). */
async function openAfterServices(db: Db, siteId: number | null, now: Date, userId: number | null = null) {
  const since = new Date(now.getTime() - STALE_HOURS * 3600_000)
  const result = await db.execute(sql`
    SELECT who.user_id AS user_id, r.id AS step_id, r.uid AS uid, r.site_id AS site_id, r.after_service_pause_report_id AS report_id,
      greatest(r.ended_at, coalesce(r.after_service_started_at, r.ended_at)) AS started_at,
      CASE WHEN t.after_service_mode IN ('optional', 'mandatory') THEN NULL
        ELSE greatest(r.ended_at, coalesce(r.after_service_started_at, r.ended_at))
          + make_interval(secs => t.duration_of_after_service) END AS ends_at
    FROM call_records r
    CROSS JOIN LATERAL (VALUES (r.user_id), (r.caller_user_id)) AS who(user_id)
    JOIN users u ON u.id = who.user_id
    JOIN teams t ON t.id = u.team_id AND t.enable_after_service
    WHERE ${siteId === null ? sql`true` : sql`r.site_id = ${siteId}`}
      AND ${userId === null ? sql`true` : sql`who.user_id = ${userId}`}
      AND r.ended_at IS NOT NULL AND r.ended_at >= ${since}
      AND r.after_service_finished_at IS NULL
      AND (r.after_service_started_at IS NOT NULL OR (
        r.answered_at IS NOT NULL
        AND coalesce(r.answered_duration, 0) >= t.ignore_after_service_with_duration_shorter_than
        AND r.transfer_type IS NULL
        AND NOT EXISTS (SELECT 1 FROM call_records c WHERE c.transfer_of_uid = r.uid)))
  `)
  type Row = {
    user_id: number
    step_id: number | string
    uid: string
    site_id: number
    report_id: number | null
    started_at: Date | string
    ends_at: Date | string | null
  }
  return (result as unknown as { rows: Row[] }).rows.map((row) => ({
    userId: Number(row.user_id),
    stepId: Number(row.step_id),
    uid: row.uid,
    siteId: Number(row.site_id),
    reportId: row.report_id === null ? null : Number(row.report_id),
    startedAt: new Date(row.started_at),
    endsAt: row.ends_at === null ? null : new Date(row.ends_at),
  }))
}

/** The after-services of a site now, their time not over (grace included): the supervisor wallboard shows them. */
export async function openAfterServicesOfSite(db: Db, siteId: number, now: Date) {
  const graceMs = AFTER_SERVICE_GRACE_SECONDS * 1000
  return (await openAfterServices(db, siteId, now)).filter((row) => row.endsAt === null || row.endsAt.getTime() + graceMs > now.getTime())
}

/** Agents of a site in after-service now (their time not over, grace included): the ACD offers them nothing. */
export async function usersInAfterService(db: Db, siteId: number, now: Date): Promise<Set<number>> {
  const rows = await openAfterServices(db, siteId, now)
  const graceMs = AFTER_SERVICE_GRACE_SECONDS * 1000
  return new Set(rows.filter((row) => row.endsAt === null || row.endsAt.getTime() + graceMs > now.getTime()).map((row) => row.userId))
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * Ends the after-service of a step: its pause report (if the webphone started one) ends, the step records when, and —
 * when given — the type and duration the webphone reported.
 */
export async function finishStepAfterService(
  tx: Db | Tx,
  step: { id: number; afterServicePauseReportId: number | null },
  now: Date,
  extra: { afterServiceType?: number | undefined; afterServiceDuration?: number | undefined } = {},
): Promise<void> {
  if (step.afterServicePauseReportId !== null) {
    const [report] = await tx
      .select()
      .from(pauseReports)
      .where(and(eq(pauseReports.id, step.afterServicePauseReportId), isNull(pauseReports.endedAt)))
    if (report) {
      await tx
        .update(pauseReports)
        .set({ endedAt: now, duration: pauseSeconds({ ...report, endedAt: now }, now.getTime()), stoppedBy: report.userId })
        .where(eq(pauseReports.id, report.id))
    }
  }
  await tx
    .update(callRecords)
    .set({
      afterServiceFinishedAt: sql`coalesce(${callRecords.afterServiceFinishedAt}, ${now}::timestamptz)`,
      ...(extra.afterServiceType !== undefined ? { afterServiceType: extra.afterServiceType } : {}),
      ...(extra.afterServiceDuration !== undefined ? { afterServiceDuration: extra.afterServiceDuration } : {}),
    })
    .where(eq(callRecords.id, step.id))
}

export type ExpiredAfterService = { siteId: number; userId: number; uid: string; reportId: number | null }

/**
 * The server's afterServiceTimeout: every after-service whose time (plus the grace) is over ends now. Answers who to
 * tell. Run by the telephony sweep (server/telephony/index.ts) and on demand (tests).
 */
export async function expireAfterServices(db: Db, now: Date, siteId: number | null = null): Promise<ExpiredAfterService[]> {
  const graceMs = AFTER_SERVICE_GRACE_SECONDS * 1000
  const rows = (await openAfterServices(db, siteId, now)).filter((row) => row.endsAt !== null && row.endsAt.getTime() + graceMs <= now.getTime())
  if (rows.length === 0) return []
  const ids = [...new Set(rows.map((row) => row.stepId))]
  const steps = await db
    .select({ id: callRecords.id, afterServicePauseReportId: callRecords.afterServicePauseReportId })
    .from(callRecords)
    .where(inArray(callRecords.id, ids))
  await db.transaction(async (tx) => {
    for (const step of steps) await finishStepAfterService(tx, step, now, { afterServiceType: AFTER_SERVICE_TYPE_CALL })
  })
  return rows.map((row) => ({ siteId: row.siteId, userId: row.userId, uid: row.uid, reportId: row.reportId }))
}

/** expireAfterServices, then each agent's sockets hear afterServiceTimeout (the webphone ends its after-service). */
export async function sweepAfterServices(db: Db, bus: Bus, now: Date, siteId: number | null = null): Promise<ExpiredAfterService[]> {
  const expired = await expireAfterServices(db, now, siteId)
  for (const row of expired)
    await pushToUser(bus, { siteId: row.siteId, userId: row.userId }, { action: 'afterServiceTimeout', uid: row.uid, session_id: row.reportId })
  return expired
}

/**
 * A supervisor ends an agent's after-service now (POST /v1/agent/supervisor/end-after-service/): every open one of
 * theirs ends and their sockets hear afterServiceTimeout (uid null when the server knew none: the webphone ends
 * whichever runs).
 */
export async function endAfterServicesOf(db: Db, bus: Bus, who: { siteId: number; userId: number }, now: Date): Promise<number> {
  const rows = await openAfterServices(db, who.siteId, now, who.userId)
  const ids = [...new Set(rows.map((row) => row.stepId))]
  if (ids.length > 0) {
    const steps = await db
      .select({ id: callRecords.id, afterServicePauseReportId: callRecords.afterServicePauseReportId })
      .from(callRecords)
      .where(inArray(callRecords.id, ids))
    await db.transaction(async (tx) => {
      for (const step of steps) await finishStepAfterService(tx, step, now, { afterServiceType: AFTER_SERVICE_TYPE_CALL })
    })
  }
  const frames = rows.length > 0 ? rows.map((row) => ({ uid: row.uid, session_id: row.reportId })) : [{ uid: null, session_id: null }]
  for (const frame of frames) await pushToUser(bus, who, { action: 'afterServiceTimeout', ...frame })
  return rows.length
}
