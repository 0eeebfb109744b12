import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { callTypeMatchesKinds, CALL_TYPE } from '../../../contract/codes/call-types.ts'
import type {
  AfterServiceStartResponse,
  CallFormDefinition,
  CallSessionData,
  StepClassification,
  ClassificationBody,
  PendingCall,
  TabFormPostResponse,
  TabFormResponse,
  TransferCancelBody,
  TransferCancelResponse,
} from '../../../contract/api/service-actions.ts'
import type { Locale } from '../../../contract/locales.ts'
import { message } from '../../../contract/messages.ts'
import type { Db } from '../../db/client.ts'
import { callRecords, crmLeads, pabxInboundRoutes, pabxQueues, servicePauses, serviceShipmentsCampaigns, teams, users } from '../../db/schema/index.ts'
import { dialerLeadStates } from '../../db/schema/dialer.ts'
import type { CallRecordRow, TeamRow, UserRow } from '../../db/schema/index.ts'
import { pauseReports } from '../../db/schema/agent.ts'
import { detailError } from '../../http/errors.ts'
import { findOpenPause } from '../../agent/pause-service.ts'
import { finishStepAfterService } from './after-service.ts'
import { AFTER_SERVICE_EARLY_TOLERANCE_SECONDS, afterServiceEndRefusal, afterServiceMode } from '../../../contract/codes/after-service.ts'
import { checkComment, closeReplacedActivity, loadFormDefinition, requireSiteForm, scheduleActivity, validateChain } from '../../outcomes/chain.ts'

// The agent's side of a call step (spec 000 §3 "Call session", §4 webphone lifecycle and after-service, §7 service
// actions): the metadata the webphone polls, the classification and form the agent sends, the after-service (a pause
// report, as server/agent/pause-service.ts records pauses), the answer time the service socket reports, transfer
// cancels and the pendencies. An agent reaches only the steps they took part in (offered, answered or placed); any
// other uid — another agent's, another site's, or one not recorded yet — is 404.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Steps of an agent: offered to them, answered by them, placed by them (SQL over call_records). */
function partOf(user: Pick<UserRow, 'id'>): SQL {
  return sql`(${callRecords.userId} = ${user.id} or ${callRecords.callerUserId} = ${user.id} or ${callRecords.offeredUserIds} @> ${JSON.stringify([user.id])}::jsonb)`
}

/**
 * The step a uid names for this agent: the step with that uid, or — a SIP Call-ID — the latest step of that call the
 * agent took part in. Null when there is none (yet).
 */
export async function findAgentStep(db: Db | Tx, user: Pick<UserRow, 'id' | 'siteId'>, uid: string): Promise<CallRecordRow | null> {
  const [row] = await db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.siteId, user.siteId), or(eq(callRecords.uid, uid), eq(callRecords.callId, uid)), partOf(user)))
    .orderBy(sql`${callRecords.uid} = ${uid} desc`, sql`${callRecords.step} desc`)
    .limit(1)
  return row ?? null
}

async function requireStep(db: Db | Tx, user: UserRow, uid: string, lang: Locale): Promise<CallRecordRow> {
  const step = await findAgentStep(db, user, uid)
  if (!step) throw detailError(404, 'notFound', lang)
  return step
}

async function teamOf(db: Db, user: UserRow): Promise<TeamRow | null> {
  if (user.teamId === null) return null
  const [team] = await db
    .select()
    .from(teams)
    .where(and(eq(teams.id, user.teamId), eq(teams.siteId, user.siteId)))
  return team ?? null
}

/** The call type as this agent lives it: the callee of an internal call receives it (30), the caller placed it (31). */
function callTypeFor(step: CallRecordRow, user: Pick<UserRow, 'id'>): number {
  if (step.direction === 'internal' && step.callerUserId !== user.id) return CALL_TYPE.internalInbound
  return step.callType
}

const headerOf = (step: CallRecordRow, name: string) =>
  new RegExp(`${name}: ([^\\r\\n]*)`).exec((step.decision as { headers?: string }).headers ?? '')?.[1] ?? ''

/**
 * The dialer campaign of a call: the X-Atende-Campaign header the dialer sends with it (spec 000 §7), else the campaign
 * that last held its lead; only the step's own site's.
 */
async function campaignOf(db: Db, step: CallRecordRow): Promise<{ id: number; formId: number | null } | null> {
  const header = Number(headerOf(step, 'X-Atende-Campaign'))
  let id = Number.isSafeInteger(header) && header > 0 ? header : null
  if (id === null && step.leadId) {
    const [state] = await db.select({ campaignId: dialerLeadStates.campaignId }).from(dialerLeadStates).where(eq(dialerLeadStates.leadId, step.leadId))
    id = state?.campaignId ?? null
  }
  if (id === null) return null
  const [campaign] = await db
    .select({ id: serviceShipmentsCampaigns.id, formId: serviceShipmentsCampaigns.formId })
    .from(serviceShipmentsCampaigns)
    .where(and(eq(serviceShipmentsCampaigns.id, id), eq(serviceShipmentsCampaigns.siteId, step.siteId)))
  return campaign ?? null
}

/**
 * The call's form (item 1 of issue 15): its dialer campaign's, else the one its queue names, else its inbound route's;
 * active forms only.
 */
async function formOf(db: Db, step: CallRecordRow, campaign: { formId: number | null } | null): Promise<CallFormDefinition | null> {
  if (campaign?.formId) return loadFormDefinition(db, step.siteId, campaign.formId)
  const [queue] = step.queueId ? await db.select({ formId: pabxQueues.formId }).from(pabxQueues).where(eq(pabxQueues.id, step.queueId)) : []
  const [route] =
    !queue?.formId && step.inboundRouteId
      ? await db.select({ formId: pabxInboundRoutes.formId }).from(pabxInboundRoutes).where(eq(pabxInboundRoutes.id, step.inboundRouteId))
      : []
  return loadFormDefinition(db, step.siteId, queue?.formId ?? route?.formId ?? null)
}

/** GET /v1/service/action/tab-form/{uid}/ */
export async function tabForm(db: Db, user: UserRow, uid: string, lang: Locale): Promise<TabFormResponse> {
  const step = await requireStep(db, user, uid, lang)
  const team = await teamOf(db, user)
  const [queue] = step.queueId ? await db.select({ description: pabxQueues.description }).from(pabxQueues).where(eq(pabxQueues.id, step.queueId)) : []
  // A lead's call (the dialer's, or one dialled from /leads): its mailing names the classifications (?mailing_id=).
  const [lead] = step.leadId
    ? await db
        .select({ mailingId: crmLeads.mailingId })
        .from(crmLeads)
        .where(and(eq(crmLeads.id, step.leadId), eq(crmLeads.siteId, step.siteId)))
    : []
  const campaign = await campaignOf(db, step)
  const data: CallSessionData = {
    id: step.id,
    uid: step.uid,
    call_id: step.callId,
    direction: step.direction,
    call_type: callTypeFor(step, user),
    phone: step.phone || (step.callerUserId === user.id ? step.callee : step.caller),
    client: step.clientId,
    client_name: headerOf(step, 'X-Atende-Client-Name'),
    mailing_client: lead ? step.leadId : null,
    queue: step.queueId,
    queue_name: queue?.description ?? '',
    // One dialer per campaign (server/dialer/README.md): the dialer is the campaign.
    dialer: campaign?.id ?? null,
    campaign: campaign?.id ?? null,
    mailing: lead?.mailingId ?? null,
    transfer_type: step.transferType,
  }
  const form = await formOf(db, step, campaign)
  return {
    success: true,
    form: form?.id ?? null,
    form_definition: form,
    form_values: step.formValues ?? null,
    classification: (step.classification as StepClassification | null) ?? null,
    classification_required: callTypeMatchesKinds(callTypeFor(step, user), team?.enableClassifications ?? []),
    activity: step.activityId,
    data,
    afterService: { active: team?.enableAfterService ?? false, seconds: team?.durationOfAfterService ?? 0 },
    classified: step.classifiedAt !== null,
    form_sent: step.formSentAt !== null,
  }
}

/** POST tab-form ?type=classification: the chain must be the site's (and a union of it when a sub is named). */
export async function classify(db: Db, user: UserRow, uid: string, body: ClassificationBody, lang: Locale): Promise<TabFormPostResponse> {
  const step = await requireStep(db, user, uid, lang)
  const { classificationId, union } = await validateChain(db, user.siteId, body, lang)
  const team = await teamOf(db, user)
  const comment = body.comment ?? ''
  checkComment({ enabled: team?.enableComment ?? false, min: team?.minimumCommentSize ?? 0, max: team?.maximumCommentSize ?? 0 }, comment, lang)
  const previous = (step.classification as StepClassification | null)?.activity_id ?? null
  const destination = step.phone || (step.callerUserId === user.id ? step.callee : step.caller)
  const scheduled = { destination, target: step.uid, queue: step.queueId ? { kind: 'pabx' as const, id: step.queueId } : null }
  const activity = union?.enableSchedule ? await scheduleActivity(db, user, scheduled, union, body, previous, lang) : null
  const value: StepClassification = {
    queue_id: body.queue_id ?? step.queueId,
    classification_id: classificationId,
    sub_classification_id: body.sub_classification_id ?? null,
    comment,
    schedule_date: union?.enableSchedule ? (body.schedule_date ?? null) : null,
    classified_by: user.id,
    activity_id: activity?.id ?? null,
  }
  // A later classification of the same step replaces the earlier one (the agent corrects it); an activity it had
  // created and no longer needs is closed.
  await db.update(callRecords).set({ classification: value, classifiedAt: new Date() }).where(eq(callRecords.id, step.id))
  await closeReplacedActivity(db, previous, activity?.id ?? null)
  return { success: true, detail: message('callClassified', lang), activity: activity?.id ?? null }
}

/** POST tab-form ?type=form&form_id=: stored once; a form already sent is not sent again. */
export async function sendForm(
  db: Db,
  user: UserRow,
  uid: string,
  formId: number,
  values: Record<string, unknown>,
  lang: Locale,
): Promise<TabFormPostResponse> {
  const step = await requireStep(db, user, uid, lang)
  const form = await requireSiteForm(db, user.siteId, formId, lang)
  const written = await db
    .update(callRecords)
    .set({ formId: form, formValues: values, formSentAt: new Date() })
    .where(and(eq(callRecords.id, step.id), isNull(callRecords.formSentAt)))
    .returning({ id: callRecords.id })
  return { success: true, detail: message(written.length > 0 ? 'formSaved' : 'formAlreadySent', lang) }
}

/**
 * The team's wrap-up mode on the server (issue 15 item 3, Genesys' modes): why the agent may not end this step's
 * after-service now, or null. The browser's guard says the same (machines/webphone.machine.ts afterServiceEndable); this
 * one holds for any client. The time runs from the call's end (or the webphone's start, the later), as
 * openAfterServices counts it, less a small tolerance for the browser's own clock.
 */
export function afterServiceEndBlocked(team: TeamRow | null, step: CallRecordRow, now: Date) {
  if (!team?.enableAfterService) return null
  const mode = afterServiceMode(team.afterServiceMode)
  const from = Math.max(step.endedAt?.getTime() ?? 0, step.afterServiceStartedAt?.getTime() ?? 0)
  const timeOver = from > 0 && now.getTime() >= from + (team.durationOfAfterService - AFTER_SERVICE_EARLY_TOLERANCE_SECONDS) * 1000
  return afterServiceEndRefusal(mode, step.classifiedAt !== null, timeOver)
}

/** POST tab-form ?type=hangup&after_service_type=&after_service_duration=: the after-service is over. */
export async function hangupAfterService(
  db: Db,
  user: UserRow,
  uid: string,
  input: { after_service_type?: number | undefined; after_service_duration?: number | undefined },
  lang: Locale,
): Promise<TabFormPostResponse> {
  const step = await requireStep(db, user, uid, lang)
  const now = new Date()
  if (step.afterServiceFinishedAt === null) {
    const blocked = afterServiceEndBlocked(await teamOf(db, user), step, now)
    if (blocked) throw detailError(400, blocked, lang)
  }
  await db.transaction((tx) =>
    finishStepAfterService(tx, step, now, { afterServiceType: input.after_service_type, afterServiceDuration: input.after_service_duration }),
  )
  return { success: true, detail: message('afterServiceFinished', lang) }
}

/**
 * POST /v1/service/action/after-service/start/{uid}/: the after-service runs as a pause report of the agent (the team's
 * after-service pause type when it names one, else a report titled 'Pós-atendimento'), ended by ?type=hangup or the
 * socket's after_service_finished. Asking again for the same step answers the same report.
 */
export async function startAfterService(db: Db, user: UserRow, uid: string, lang: Locale): Promise<AfterServiceStartResponse> {
  const step = await requireStep(db, user, uid, lang)
  const team = await teamOf(db, user)
  if (!team?.enableAfterService) throw detailError(400, 'noAfterService', lang)
  const ignore = team.ignoreAfterServiceUnaccepted && step.answeredAt === null && step.agentAnsweredAt === null
  if (ignore) return { id: null, ignore_after_service_dial_status: true }
  const [type] = team.afterServicePauseId
    ? await db
        .select()
        .from(servicePauses)
        .where(and(eq(servicePauses.id, team.afterServicePauseId), eq(servicePauses.siteId, user.siteId)))
    : []
  return db.transaction(async (tx) => {
    const now = new Date()
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update')
    const [fresh] = await tx.select().from(callRecords).where(eq(callRecords.id, step.id))
    if (fresh!.afterServicePauseReportId !== null) return { id: fresh!.afterServicePauseReportId, ignore_after_service_dial_status: false }
    if (await findOpenPause(tx, user.siteId, user.id)) throw detailError(400, 'alreadyPaused', lang)
    const [report] = await tx
      .insert(pauseReports)
      .values({
        siteId: user.siteId,
        userId: user.id,
        pauseId: type?.id ?? null,
        description: type?.description || message('afterService', lang),
        maximumDuration: team.durationOfAfterService,
        enableWebphone: true,
        enableWebchat: type?.enableWebchat ?? true,
        allowIncomingCall: false,
        allowOutgoingCall: false,
        allowIncomingChat: type?.allowIncomingChat ?? false,
        allowOutgoingChat: type?.allowOutgoingChat ?? false,
        lockScreen: false,
        pending: false,
        requestedAt: now,
        startedAt: now,
        startedBy: user.id,
      })
      .returning({ id: pauseReports.id })
    await tx.update(callRecords).set({ afterServiceStartedAt: now, afterServicePauseReportId: report!.id }).where(eq(callRecords.id, step.id))
    return { id: report!.id, ignore_after_service_dial_status: false }
  })
}

/** The service socket's after_service_finished {session_id}: the after-service whose pause report that is ends. */
export async function afterServiceFinished(db: Db, who: { siteId: number; userId: number }, reportId: number): Promise<boolean> {
  const [step] = await db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.siteId, who.siteId), eq(callRecords.afterServicePauseReportId, reportId), partOf({ id: who.userId })))
  if (!step) return false
  const now = new Date()
  const [user] = await db.select().from(users).where(eq(users.id, who.userId))
  if (step.afterServiceFinishedAt === null && user && afterServiceEndBlocked(await teamOf(db, user), step, now)) return false
  await db.transaction((tx) => finishStepAfterService(tx, step, now))
  return true
}

/**
 * The service socket's after_service_timer {step_uid}: the webphone counts the step's after-service down; the step
 * notes when it started (after-service/start notes it too — the first one wins).
 */
export async function afterServiceTimer(db: Db, who: { siteId: number; userId: number }, uid: string): Promise<boolean> {
  const step = await findAgentStep(db, { id: who.userId, siteId: who.siteId }, uid)
  if (!step) return false
  await db
    .update(callRecords)
    .set({ afterServiceStartedAt: sql`coalesce(${callRecords.afterServiceStartedAt}, now())` })
    .where(and(eq(callRecords.id, step.id), isNull(callRecords.afterServiceFinishedAt)))
  return true
}

/** The service socket's webphone_answer {uid, call_id}: when the agent's webphone took the call (first one wins). */
export async function recordWebphoneAnswer(db: Db, who: { siteId: number; userId: number }, uid: string, callId: string): Promise<boolean> {
  const user = { id: who.userId, siteId: who.siteId }
  const step = (await findAgentStep(db, user, uid)) ?? (callId ? await findAgentStep(db, user, callId) : null)
  if (!step) return false
  await db
    .update(callRecords)
    .set({ agentAnsweredAt: sql`coalesce(${callRecords.agentAnsweredAt}, now())` })
    .where(eq(callRecords.id, step.id))
  return true
}

/**
 * POST /v1/agent/transfer/cancel/: the origin step records the cancelled transfer (type, destination) and every call
 * transferred from it that is not cancelled yet is marked cancelled too.
 */
export async function cancelTransfer(db: Db, user: UserRow, body: TransferCancelBody, lang: Locale): Promise<TransferCancelResponse> {
  const origin = await requireStep(db, user, body.step_id, lang)
  const now = new Date()
  const cancelled = await db.transaction(async (tx) => {
    await tx
      .update(callRecords)
      .set({ transferType: body.type, transferApp: body.app || null, transferAppdata: body.appdata || null, transferCancelledAt: now })
      .where(eq(callRecords.id, origin.id))
    const children = await tx
      .update(callRecords)
      .set({ transferCancelledAt: now })
      .where(and(eq(callRecords.siteId, user.siteId), eq(callRecords.transferOfUid, origin.uid), isNull(callRecords.transferCancelledAt)))
      .returning({ id: callRecords.id })
    return children.length
  })
  return { success: true, detail: message('transferCancelled', lang), cancelled }
}

/** How far back pendencies look: an agent's unfinished calls of the last day. */
const PENDENCY_HOURS = 24
const PENDENCY_LIMIT = 100

/**
 * GET /v1/agent/pendencies/: calls the agent took (answered) that still need the agent: not classified while the team
 * requires a classification for that call type, or an after-service started and not finished. Newest first.
 */
export async function pendencies(db: Db, user: UserRow, now = new Date()): Promise<PendingCall[]> {
  const team = await teamOf(db, user)
  const kinds = team?.enableClassifications ?? []
  const rows = await db
    .select()
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, user.siteId),
        or(eq(callRecords.userId, user.id), eq(callRecords.callerUserId, user.id)),
        sql`${callRecords.startedAt} > ${new Date(now.getTime() - PENDENCY_HOURS * 3600_000)}`,
        sql`(${callRecords.answeredAt} is not null or ${callRecords.agentAnsweredAt} is not null)`,
        or(isNull(callRecords.classifiedAt), sql`(${callRecords.afterServiceStartedAt} is not null and ${callRecords.afterServiceFinishedAt} is null)`),
      ),
    )
    .orderBy(sql`${callRecords.startedAt} desc`, sql`${callRecords.id} desc`)
    .limit(PENDENCY_LIMIT * 4)
  const calls: PendingCall[] = []
  for (const step of rows) {
    const callType = callTypeFor(step, user)
    const needsClassification = step.classifiedAt === null && callTypeMatchesKinds(callType, kinds)
    const afterServiceOpen = step.afterServiceStartedAt !== null && step.afterServiceFinishedAt === null
    if (!needsClassification && !afterServiceOpen) continue
    calls.push({
      uid: step.uid,
      call_id: step.callId,
      phone: step.phone || (step.callerUserId === user.id ? step.callee : step.caller),
      call_type: callType,
      direction: step.direction,
      queue: step.queueId,
      started_at: step.startedAt.toISOString(),
      ended_at: step.endedAt?.toISOString() ?? null,
      classified: step.classifiedAt !== null,
      after_service_finished: !afterServiceOpen,
    })
    if (calls.length >= PENDENCY_LIMIT) break
  }
  return calls
}
