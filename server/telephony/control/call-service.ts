import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
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
import {
  activities,
  callRecords,
  pabxInboundRoutes,
  pabxQueues,
  pabxQueuesMembers,
  serviceFormsFields,
  serviceClassifications,
  serviceForms,
  servicePauses,
  serviceSubClassifications,
  serviceUnions,
  teams,
  users,
} from '../../db/schema/index.ts'
import type { CallRecordRow, TeamRow, UserRow } from '../../db/schema/index.ts'
import { pauseReports } from '../../db/schema/agent.ts'
import { detailError, fieldErrors } from '../../http/errors.ts'
import { findOpenPause } from '../../agent/pause-service.ts'
import { finishStepAfterService } from './after-service.ts'

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

/** The API names of a form field definition row (spec 001 §3), as the form builder's entity sends them. */
function fieldDefinition(row: typeof serviceFormsFields.$inferSelect): Record<string, unknown> {
  return {
    name: row.name,
    label: row.label,
    type: row.type,
    tab: row.tab,
    cols: row.cols,
    required: row.required,
    readonly: row.readonly,
    multiple: row.multiple,
    min: row.min,
    max: row.max,
    value: row.value,
    options: row.options,
    mask: row.mask,
    validation: row.validation,
    delimiters: row.delimiters,
    api: row.api,
    return_object: row.returnObject,
    return_to_string: row.returnToString,
    date_format: row.dateFormat,
    cryptography: row.cryptography,
    btn_phone: row.btnPhone,
    btn_chat: row.btnChat,
  }
}

/** The call's form (item 1 of issue 15): the one its queue names, else its inbound route's; active forms only. */
async function formOf(db: Db, step: CallRecordRow): Promise<CallFormDefinition | null> {
  const [queue] = step.queueId ? await db.select({ formId: pabxQueues.formId }).from(pabxQueues).where(eq(pabxQueues.id, step.queueId)) : []
  const [route] =
    !queue?.formId && step.inboundRouteId
      ? await db.select({ formId: pabxInboundRoutes.formId }).from(pabxInboundRoutes).where(eq(pabxInboundRoutes.id, step.inboundRouteId))
      : []
  const formId = queue?.formId ?? route?.formId ?? null
  if (formId === null) return null
  const [form] = await db
    .select()
    .from(serviceForms)
    .where(and(eq(serviceForms.id, formId), eq(serviceForms.siteId, step.siteId), eq(serviceForms.isActive, true)))
  if (!form) return null
  const rows = await db
    .select()
    .from(serviceFormsFields)
    .where(eq(serviceFormsFields.formId, form.id))
    .orderBy(asc(serviceFormsFields.position), asc(serviceFormsFields.id))
  return { id: form.id, description: form.description, fields: rows.map(fieldDefinition) }
}

/** GET /v1/service/action/tab-form/{uid}/ */
export async function tabForm(db: Db, user: UserRow, uid: string, lang: Locale): Promise<TabFormResponse> {
  const step = await requireStep(db, user, uid, lang)
  const team = await teamOf(db, user)
  const [queue] = step.queueId ? await db.select({ description: pabxQueues.description }).from(pabxQueues).where(eq(pabxQueues.id, step.queueId)) : []
  const data: CallSessionData = {
    id: step.id,
    uid: step.uid,
    call_id: step.callId,
    direction: step.direction,
    call_type: callTypeFor(step, user),
    phone: step.phone || (step.callerUserId === user.id ? step.callee : step.caller),
    client: null,
    client_name: headerOf(step, 'X-Atende-Client-Name'),
    mailing_client: null,
    queue: step.queueId,
    queue_name: queue?.description ?? '',
    dialer: null,
    campaign: null,
    mailing: null,
    transfer_type: step.transferType,
  }
  const form = await formOf(db, step)
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
  const siteId = user.siteId
  const [classification] = await db
    .select({ id: serviceClassifications.id })
    .from(serviceClassifications)
    .where(and(eq(serviceClassifications.id, body.classification_id), eq(serviceClassifications.siteId, siteId), eq(serviceClassifications.isActive, true)))
  if (!classification) throw fieldErrors({ classification_id: [message('invalidValue', lang)] })
  let union: typeof serviceUnions.$inferSelect | null = null
  if (body.sub_classification_id != null) {
    const [row] = await db
      .select({ union: serviceUnions })
      .from(serviceUnions)
      .innerJoin(serviceSubClassifications, eq(serviceSubClassifications.id, serviceUnions.subClassificationId))
      .where(
        and(
          eq(serviceUnions.siteId, siteId),
          eq(serviceUnions.classificationId, classification.id),
          eq(serviceUnions.subClassificationId, body.sub_classification_id),
          eq(serviceUnions.isActive, true),
          eq(serviceSubClassifications.isActive, true),
        ),
      )
    if (!row) throw fieldErrors({ sub_classification_id: [message('invalidValue', lang)] })
    union = row.union
  }
  // Spec 000 §5: a sub-classification that enables scheduling requires the schedule.
  if (union?.enableSchedule && !body.schedule_date) throw fieldErrors({ schedule_date: [message('required', lang)] })
  const team = await teamOf(db, user)
  const comment = body.comment ?? ''
  if (team?.enableComment) {
    if (comment.length < team.minimumCommentSize) throw fieldErrors({ comment: [message('minLength', lang, { n: team.minimumCommentSize })] })
    if (team.maximumCommentSize > 0 && comment.length > team.maximumCommentSize)
      throw fieldErrors({ comment: [message('maxLength', lang, { n: team.maximumCommentSize })] })
  }
  const previous = (step.classification as StepClassification | null)?.activity_id ?? null
  const activity = union?.enableSchedule ? await scheduleActivity(db, user, step, union, body, previous, lang) : null
  const value: StepClassification = {
    queue_id: body.queue_id ?? step.queueId,
    classification_id: classification.id,
    sub_classification_id: body.sub_classification_id ?? null,
    comment,
    schedule_date: union?.enableSchedule ? (body.schedule_date ?? null) : null,
    classified_by: user.id,
    activity_id: activity?.id ?? null,
  }
  // A later classification of the same step replaces the earlier one (the agent corrects it); an activity it had
  // created and no longer needs is closed.
  await db.update(callRecords).set({ classification: value, classifiedAt: new Date() }).where(eq(callRecords.id, step.id))
  if (previous !== null && previous !== activity?.id) await db.update(activities).set({ active: false, done: true }).where(eq(activities.id, previous))
  return { success: true, detail: message('callClassified', lang), activity: activity?.id ?? null }
}

/**
 * The callback a scheduling sub-classification creates (spec 000 §3 classification chain): at `schedule_date`, for the
 * agent (schedule_send_to 1), the queue member with the fewest pending activities (2), the agent with the union's
 * mailing (3) or the user the agent chose (4); dialled automatically as auto_run_schedule says (1 always, 2 never,
 * 3 the agent's choice, automatic unless unticked). A correction of the classification updates the same activity.
 */
async function scheduleActivity(
  db: Db,
  user: UserRow,
  step: CallRecordRow,
  union: typeof serviceUnions.$inferSelect,
  body: ClassificationBody,
  previous: number | null,
  lang: Locale,
): Promise<{ id: number; userId: number }> {
  const start = new Date(body.schedule_date as string)
  let owner = user.id
  if (union.scheduleSendTo === 2 && step.queueId) {
    const [pick] = await db
      .select({ userId: pabxQueuesMembers.userId })
      .from(pabxQueuesMembers)
      .innerJoin(users, and(eq(users.id, pabxQueuesMembers.userId), eq(users.isActive, true)))
      .where(and(eq(pabxQueuesMembers.siteId, user.siteId), eq(pabxQueuesMembers.queueId, step.queueId)))
      .orderBy(
        sql`(select count(*) from activities a where a.user_id = ${pabxQueuesMembers.userId} and a.done = false)`,
        asc(pabxQueuesMembers.position),
        asc(pabxQueuesMembers.id),
      )
      .limit(1)
    owner = pick?.userId ?? user.id
  }
  if (union.scheduleSendTo === 4) {
    if (body.schedule_user_id == null) throw fieldErrors({ schedule_user_id: [message('required', lang)] })
    const [chosen] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, body.schedule_user_id), eq(users.siteId, user.siteId), eq(users.isActive, true)))
    if (!chosen) throw fieldErrors({ schedule_user_id: [message('invalidValue', lang)] })
    owner = chosen.id
  }
  const automatic = union.autoRunSchedule === 1 ? true : union.autoRunSchedule === 2 ? false : (body.schedule_auto_run ?? true)
  const values = {
    siteId: user.siteId,
    userId: owner,
    destination: step.phone || (step.callerUserId === user.id ? step.callee : step.caller),
    mailingId: union.scheduleSendTo === 3 ? union.mailing : null,
    start,
    subject: message('scheduledCallback', lang),
    type: 'call',
    target: step.uid,
    active: true,
    done: false,
    automaticExecution: automatic,
    createdBy: user.id,
    updated: new Date(),
  }
  if (previous !== null) {
    const [updated] = await db
      .update(activities)
      .set(values)
      .where(and(eq(activities.id, previous), eq(activities.siteId, user.siteId), eq(activities.done, false)))
      .returning({ id: activities.id, userId: activities.userId })
    if (updated) return updated
  }
  const [created] = await db.insert(activities).values(values).returning({ id: activities.id, userId: activities.userId })
  return created!
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
  const [form] = await db
    .select({ id: serviceForms.id })
    .from(serviceForms)
    .where(and(eq(serviceForms.id, formId), eq(serviceForms.siteId, user.siteId)))
  if (!form) throw fieldErrors({ form_id: [message('invalidValue', lang)] })
  const written = await db
    .update(callRecords)
    .set({ formId: form.id, formValues: values, formSentAt: new Date() })
    .where(and(eq(callRecords.id, step.id), isNull(callRecords.formSentAt)))
    .returning({ id: callRecords.id })
  return { success: true, detail: message(written.length > 0 ? 'formSaved' : 'formAlreadySent', lang) }
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
  await db.transaction((tx) =>
    finishStepAfterService(tx, step, new Date(), { afterServiceType: input.after_service_type, afterServiceDuration: input.after_service_duration }),
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
  await db.transaction((tx) => finishStepAfterService(tx, step, new Date()))
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
