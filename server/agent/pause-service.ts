import { and, eq, isNull, sql } from 'drizzle-orm'
import type { SQL, SQLWrapper } from 'drizzle-orm'
import type { Pause, PauseCode, PauseOption, PauseResponse } from '../../contract/api/agent.ts'
import { PAUSE_CODES } from '../../contract/api/agent.ts'
import type { Locale } from '../../contract/locales.ts'
import type { MessageKey } from '../../contract/messages.ts'
import { message } from '../../contract/messages.ts'
import type { Db } from '../db/client.ts'
import { preparedPerDb } from '../db/prepared.ts'
import { servicePauses, servicePausesTeams, users } from '../db/schema/index.ts'
import type { UserRow } from '../db/schema/index.ts'
import { agentStates, pauseReports } from '../db/schema/agent.ts'
import type { PauseReportRow } from '../db/schema/agent.ts'
import type { AppDeps } from '../deps.ts'
import { detailError } from '../http/errors.ts'
import { auditSupervisorAction } from './supervisor-audit.ts'
import { pushToUser } from '../bus/channels.ts'
import { findUser } from '../users/user-repo.ts'
import { chatAvailabilityChanged } from './chat-availability.ts'
import { isExceeded, pauseSeconds, toPause } from './pause-view.ts'

// Pauses (breaks) — spec 000 §3, §4 "Pause (break)", §6 (a supervisor can pause an agent), §7 "Agent channel and pause".
// Every change runs in one transaction that first locks the agent's user row, so two requests for one agent (two tabs,
// an agent and a supervisor) happen one after the other; a partial unique index keeps one open pause per agent anyway.
// The answer is committed before the agent's sockets hear about it.
//
// - start: the agent's own pause; the type must be active, startable by agents and (when it names teams) of the
//   agent's team. A running pause answers code 3, unless the start is a swap naming it as report_pause_id: then it is
//   stopped first (code 5 when it exceeded its maximum and no reason came).
// - stop: code 4 when nothing runs; code 5 when the pause exceeded its maximum and no reason was given; with a reason
//   it stops and keeps the justification.
// - supervisor pause/unpause: any active type of the site; a running pause is replaced. An agent on a call gets a
//   pending pause that starts when the agent reports an available status (status-service.ts).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export type PauseCaller = { user: UserRow; lang: Locale }

/** Webphone statuses in which a pending pause may start (spec 000 §4). */
export const AVAILABLE_FOR_PAUSE = ['not_inuse', 'do_not_disturb', 'paused'] as const
/** Statuses of an agent busy with a call: a supervisor's pause waits for the agent to be available. */
const BUSY_STATUSES = new Set(['busy', 'inuse', 'ringing', 'ringinuse', 'onhold', 'onmute', 'inconference', 'after_service', 'click_to_call', 'in_activity'])

function answer(lang: Locale, success: boolean, code: PauseCode, detail: MessageKey, row: PauseReportRow | null, now: number): PauseResponse {
  return { success, pause: row ? toPause(row, now) : null, detail: message(detail, lang), code }
}

/**
 * An after-service runs as a pause report of the agent (server/telephony/control/call-service.ts) for the reports, but
 * it is not the agent's pause: the console never shows it as one ('Em pausa' during a wrap-up), and a break may start
 * during it. Its step names it (call_records.after_service_pause_report_id, indexed where set).
 */
const NOT_AFTER_SERVICE = sql`not exists (select 1 from call_records c where c.after_service_pause_report_id = ${pauseReports.id})`

export async function findOpenPause(db: Db | Tx, siteId: number, userId: number): Promise<PauseReportRow | null> {
  const [row] = await db
    .select()
    .from(pauseReports)
    .where(and(eq(pauseReports.siteId, siteId), eq(pauseReports.userId, userId), isNull(pauseReports.endedAt), NOT_AFTER_SERVICE))
  return row ?? null
}

/**
 * An after-service's own pause report still open (the team's after-service pause): findOpenPause leaves it out, but
 * it holds the one open report an agent may have, so no other pause can start until the after-service ends.
 */
async function inAfterService(tx: Tx, siteId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: pauseReports.id })
    .from(pauseReports)
    .where(and(eq(pauseReports.siteId, siteId), eq(pauseReports.userId, userId), isNull(pauseReports.endedAt)))
  return row !== undefined
}

// The pause check runs on every agent's screen: a prepared statement (findOpenPause's query, also used inside
// transactions, stays as it is).
const openPauseQuery = preparedPerDb((db) =>
  db
    .select()
    .from(pauseReports)
    .where(
      and(
        eq(pauseReports.siteId, sql.placeholder('siteId')),
        eq(pauseReports.userId, sql.placeholder('userId')),
        isNull(pauseReports.endedAt),
        NOT_AFTER_SERVICE,
      ),
    )
    .prepare('agent_open_pause'),
)

export async function currentPause(db: Db, siteId: number, userId: number): Promise<Pause | null> {
  const [row] = await openPauseQuery(db).execute({ siteId, userId })
  return row ? toPause(row) : null
}

async function lockUser(tx: Tx, siteId: number, userId: number): Promise<void> {
  await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.siteId, siteId)))
    .for('update')
}

async function findPauseType(db: Db, siteId: number, pauseId: number, lang: Locale) {
  const [type] = await db
    .select()
    .from(servicePauses)
    .where(and(eq(servicePauses.id, pauseId), eq(servicePauses.siteId, siteId)))
  if (!type) throw detailError(404, 'notFound', lang)
  return type
}

async function teamAllows(db: Db | Tx, pauseId: number, teamId: number | null): Promise<boolean> {
  const teams = await db.select({ teamId: servicePausesTeams.teamId }).from(servicePausesTeams).where(eq(servicePausesTeams.pauseId, pauseId))
  return teams.length === 0 || (teamId !== null && teams.some((t) => t.teamId === teamId))
}

/**
 * The profile's `pauses` as one JSON column of the caller's query: active types agents may start, of every team or of
 * the team `teamId` names (a correlated column: the profile reads the pauses in the same round trip as the user).
 */
export function pauseOptionsJson(siteId: SQLWrapper, teamId: SQLWrapper): SQL<PauseOption[]> {
  const p = servicePauses
  const linked = sql`select 1 from ${servicePausesTeams} where ${servicePausesTeams.pauseId} = ${p.id}`
  return sql<PauseOption[]>`(select coalesce(json_agg(json_build_object(
      'id', ${p.id}, 'description', ${p.description}, 'maximum_duration', ${p.maximumDuration}, 'color', ${p.color},
      'productive', ${p.productive}, 'enable_webphone', ${p.enableWebphone}, 'allow_incoming_call', ${p.allowIncomingCall},
      'allow_outgoing_call', ${p.allowOutgoingCall}, 'enable_webchat', ${p.enableWebchat},
      'allow_incoming_chat', ${p.allowIncomingChat}, 'allow_outgoing_chat', ${p.allowOutgoingChat}, 'lock_screen', ${p.lockScreen}
    ) order by ${p.description}, ${p.id}), '[]'::json)
    from ${p}
    where ${p.siteId} = ${siteId} and ${p.isActive} and ${p.agentCanStart}
      and (not exists (${linked}) or exists (${linked} and ${servicePausesTeams.teamId} = ${teamId})))`
}

type PauseType = Awaited<ReturnType<typeof findPauseType>>

function newReport(type: PauseType, siteId: number, userId: number, startedBy: number, now: Date, pending: boolean) {
  return {
    siteId,
    userId,
    pauseId: type.id,
    description: type.description,
    maximumDuration: type.maximumDuration,
    enableWebphone: type.enableWebphone,
    enableWebchat: type.enableWebchat,
    allowIncomingCall: type.allowIncomingCall,
    allowOutgoingCall: type.allowOutgoingCall,
    allowIncomingChat: type.allowIncomingChat,
    allowOutgoingChat: type.allowOutgoingChat,
    lockScreen: type.lockScreen,
    pending,
    requestedAt: now,
    startedAt: pending ? null : now,
    startedBy,
  }
}

async function endPause(tx: Tx, row: PauseReportRow, stoppedBy: number, now: Date, justification: string): Promise<PauseReportRow> {
  const ended = { ...row, endedAt: now }
  const [updated] = await tx
    .update(pauseReports)
    .set({
      endedAt: now,
      duration: pauseSeconds(ended, now.getTime()),
      exceeded: isExceeded(ended, now.getTime()),
      justification,
      stoppedBy,
    })
    .where(eq(pauseReports.id, row.id))
    .returning()
  return updated!
}

/** POST /v1/agent/pause/start/ */
export async function startOwnPause(
  deps: AppDeps,
  caller: PauseCaller,
  input: { pause_id: number; reason?: string | undefined; report_pause_id?: number | undefined },
): Promise<PauseResponse> {
  const { user, lang } = caller
  const siteId = user.siteId
  const type = await findPauseType(deps.db, siteId, input.pause_id, lang)
  const reason = input.reason ?? ''
  const result = await deps.db.transaction(async (tx) => {
    const now = new Date()
    await lockUser(tx, siteId, user.id)
    let open = await findOpenPause(tx, siteId, user.id)
    let previous: number | null = null
    if (input.report_pause_id !== undefined) {
      const [reported] = await tx
        .select()
        .from(pauseReports)
        .where(and(eq(pauseReports.id, input.report_pause_id), eq(pauseReports.siteId, siteId), eq(pauseReports.userId, user.id)))
      if (!reported) throw detailError(404, 'notFound', lang)
      if (open && open.id !== reported.id) return answer(lang, false, PAUSE_CODES.reportMismatch, 'pauseReportMismatch', open, now.getTime())
      if (open) {
        if (isExceeded(open, now.getTime()) && !reason) return answer(lang, false, PAUSE_CODES.exceeded, 'pauseExceeded', open, now.getTime())
        await endPause(tx, open, user.id, now, reason)
        open = null
      }
      previous = reported.id
    }
    if (open) return answer(lang, false, PAUSE_CODES.alreadyPaused, 'alreadyPaused', open, now.getTime())
    // In after-service (its pause report open): refused, not a 500 from the one-open-report index.
    if (await inAfterService(tx, siteId, user.id)) return answer(lang, false, PAUSE_CODES.notAllowed, 'pauseNotAllowed', null, now.getTime())
    if (!type.isActive || !type.agentCanStart || !(await teamAllows(tx, type.id, user.teamId))) {
      return answer(lang, false, PAUSE_CODES.notAllowed, 'pauseNotAllowed', null, now.getTime())
    }
    const [row] = await tx
      .insert(pauseReports)
      .values({ ...newReport(type, siteId, user.id, user.id, now, false), previousReportId: previous })
      .returning()
    return answer(lang, true, PAUSE_CODES.ok, 'pauseStarted', row!, now.getTime())
  })
  if (result.success) await pushToUser(deps.bus, { siteId, userId: user.id }, { action: 'pause', pause: result.pause })
  if (result.success) await chatAvailabilityChanged(deps, { siteId, userId: user.id })
  return result
}

/** POST /v1/agent/pause/stop/ */
export async function stopOwnPause(deps: AppDeps, caller: PauseCaller, input: { reason?: string | undefined }): Promise<PauseResponse> {
  const { user, lang } = caller
  const siteId = user.siteId
  const reason = input.reason ?? ''
  const result = await deps.db.transaction(async (tx) => {
    const now = new Date()
    await lockUser(tx, siteId, user.id)
    const open = await findOpenPause(tx, siteId, user.id)
    if (!open) return answer(lang, false, PAUSE_CODES.notPaused, 'notPaused', null, now.getTime())
    if (isExceeded(open, now.getTime()) && !reason) return answer(lang, false, PAUSE_CODES.exceeded, 'pauseExceeded', open, now.getTime())
    const ended = await endPause(tx, open, user.id, now, reason)
    return answer(lang, true, PAUSE_CODES.ok, 'pauseStopped', ended, now.getTime())
  })
  if (result.success) await pushToUser(deps.bus, { siteId, userId: user.id }, { action: 'pause', pause: null })
  if (result.success) await chatAvailabilityChanged(deps, { siteId, userId: user.id })
  return result
}

/** POST /v1/agent/supervisor/pause/: the agent's sockets receive startPause (started_by: the supervisor). */
export async function supervisorPause(deps: AppDeps, caller: PauseCaller, input: { user_id: number; pause_id: number }): Promise<PauseResponse> {
  const { user: supervisor, lang } = caller
  const siteId = supervisor.siteId
  const agent = await findUser(deps.db, siteId, input.user_id)
  if (!agent) throw detailError(404, 'notFound', lang)
  const type = await findPauseType(deps.db, siteId, input.pause_id, lang)
  if (!type.isActive) return answer(lang, false, PAUSE_CODES.notAllowed, 'pauseNotAllowed', null, Date.now())
  const result = await deps.db.transaction(async (tx) => {
    const now = new Date()
    await lockUser(tx, siteId, agent.id)
    const open = await findOpenPause(tx, siteId, agent.id)
    // In after-service (its pause report open): refused, not a 500 from the one-open-report index.
    if (!open && (await inAfterService(tx, siteId, agent.id))) return answer(lang, false, PAUSE_CODES.notAllowed, 'pauseNotAllowed', null, now.getTime())
    const previous = open ? (await endPause(tx, open, supervisor.id, now, '')).id : null
    const [state] = await tx.select({ status: agentStates.telephonyStatus }).from(agentStates).where(eq(agentStates.userId, agent.id))
    const pending = BUSY_STATUSES.has(state?.status ?? '')
    const [row] = await tx
      .insert(pauseReports)
      .values({ ...newReport(type, siteId, agent.id, supervisor.id, now, pending), previousReportId: previous })
      .returning()
    await auditSupervisorAction(tx, {
      siteId,
      supervisorId: supervisor.id,
      agentId: agent.id,
      command: 'pause',
      detail: { pause_id: type.id, description: type.description, pending },
    })
    return answer(lang, true, PAUSE_CODES.ok, pending ? 'pausePending' : 'pauseStarted', row!, now.getTime())
  })
  if (!result.success) return result
  const pause = result.pause!
  await pushToUser(deps.bus, { siteId, userId: agent.id }, pause.pending ? { action: 'pause', pause } : { action: 'startPause', pause })
  await chatAvailabilityChanged(deps, { siteId, userId: agent.id })
  return result
}

/** POST /v1/agent/supervisor/unpause/: the agent's sockets receive stopPause (stopped_by: the supervisor). */
export async function supervisorUnpause(deps: AppDeps, caller: PauseCaller, input: { user_id: number }): Promise<PauseResponse> {
  const { user: supervisor, lang } = caller
  const siteId = supervisor.siteId
  const agent = await findUser(deps.db, siteId, input.user_id)
  if (!agent) throw detailError(404, 'notFound', lang)
  const result = await deps.db.transaction(async (tx) => {
    const now = new Date()
    await lockUser(tx, siteId, agent.id)
    const open = await findOpenPause(tx, siteId, agent.id)
    if (!open) return answer(lang, false, PAUSE_CODES.notPaused, 'notPaused', null, now.getTime())
    const ended = await endPause(tx, open, supervisor.id, now, '')
    await auditSupervisorAction(tx, { siteId, supervisorId: supervisor.id, agentId: agent.id, command: 'unpause', detail: { report_id: open.id } })
    return answer(lang, true, PAUSE_CODES.ok, 'pauseStopped', ended, now.getTime())
  })
  if (result.success) {
    await pushToUser(deps.bus, { siteId, userId: agent.id }, { action: 'stopPause', pause: result.pause, stopped_by: supervisor.id })
    await chatAvailabilityChanged(deps, { siteId, userId: agent.id })
  }
  return result
}

/** The agent became available: a pending (supervisor's) pause starts now and the agent's sockets hear startPause. */
export async function startPendingPause(deps: AppDeps, siteId: number, userId: number): Promise<void> {
  const started = await deps.db.transaction(async (tx) => {
    await lockUser(tx, siteId, userId)
    const open = await findOpenPause(tx, siteId, userId)
    if (!open?.pending) return null
    const [row] = await tx.update(pauseReports).set({ pending: false, startedAt: new Date() }).where(eq(pauseReports.id, open.id)).returning()
    return row!
  })
  if (started) await pushToUser(deps.bus, { siteId, userId }, { action: 'startPause', pause: toPause(started) })
  if (started) await chatAvailabilityChanged(deps, { siteId, userId })
}
