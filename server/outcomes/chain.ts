import { and, asc, eq, sql } from 'drizzle-orm'
import type { CallFormDefinition, ClassificationBody } from '../../contract/api/service-actions.ts'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import type { Db } from '../db/client.ts'
import {
  activities,
  chatQueuesMembers,
  pabxQueuesMembers,
  serviceClassifications,
  serviceForms,
  serviceFormsFields,
  serviceSubClassifications,
  serviceUnions,
  users,
} from '../db/schema/index.ts'
import type { UserRow } from '../db/schema/index.ts'
import { fieldErrors } from '../http/errors.ts'
import { foreignCrmRefs } from '../agent/activity-service.ts'

// What a call and a chat share at their end (issue 15 items 1, 2): the form a queue names (its form-builder
// definition), the classification chain checked against the site's settings, the comment's limits, and the callback
// activity a scheduling sub-classification creates. server/telephony/control/call-service.ts (calls) and
// server/chat/outcomes.ts (chats) call these; each keeps only where its step lives.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Union = typeof serviceUnions.$inferSelect

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

/** A form of the form builder with its fields, for the renderer; null when it is not the site's or not active. */
export async function loadFormDefinition(db: Db | Tx, siteId: number, formId: number | null | undefined): Promise<CallFormDefinition | null> {
  if (formId == null) return null
  const [form] = await db
    .select()
    .from(serviceForms)
    .where(and(eq(serviceForms.id, formId), eq(serviceForms.siteId, siteId), eq(serviceForms.isActive, true)))
  if (!form) return null
  const rows = await db
    .select()
    .from(serviceFormsFields)
    .where(eq(serviceFormsFields.formId, form.id))
    .orderBy(asc(serviceFormsFields.position), asc(serviceFormsFields.id))
  return { id: form.id, description: form.description, fields: rows.map(fieldDefinition) }
}

/** The site's form named by a tab-form ?type=form&form_id= (any state: a form sent is kept even if deactivated later). */
export async function requireSiteForm(db: Db | Tx, siteId: number, formId: number, lang: Locale): Promise<number> {
  const [form] = await db
    .select({ id: serviceForms.id })
    .from(serviceForms)
    .where(and(eq(serviceForms.id, formId), eq(serviceForms.siteId, siteId)))
  if (!form) throw fieldErrors({ form_id: [message('invalidValue', lang)] })
  return form.id
}

/**
 * The chain of a classification body: the classification must be the site's and active, the sub-classification a
 * union of it; a union that enables scheduling requires the schedule (spec 000 §5). Answers the union, if any.
 */
export async function validateChain(
  db: Db | Tx,
  siteId: number,
  body: ClassificationBody,
  lang: Locale,
): Promise<{ classificationId: number; union: Union | null }> {
  const [classification] = await db
    .select({ id: serviceClassifications.id })
    .from(serviceClassifications)
    .where(and(eq(serviceClassifications.id, body.classification_id), eq(serviceClassifications.siteId, siteId), eq(serviceClassifications.isActive, true)))
  if (!classification) throw fieldErrors({ classification_id: [message('invalidValue', lang)] })
  let union: Union | null = null
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
  if (union?.enableSchedule && !body.schedule_date) throw fieldErrors({ schedule_date: [message('required', lang)] })
  return { classificationId: classification.id, union }
}

/** The comment's limits: whether it is asked, its minimum (0: optional) and maximum (0: only COMMENT_MAX). */
export type CommentRule = { enabled: boolean; min: number; max: number }

export function checkComment(rule: CommentRule, comment: string, lang: Locale): void {
  if (!rule.enabled) return
  if (comment.length < rule.min) throw fieldErrors({ comment: [message('minLength', lang, { n: rule.min })] })
  if (rule.max > 0 && comment.length > rule.max) throw fieldErrors({ comment: [message('maxLength', lang, { n: rule.max })] })
}

/** What the callback of a step dials and which queue's members may take it (schedule_send_to 2). */
export type ScheduleStep = { destination: string; target: string; queue: { kind: 'pabx' | 'chat'; id: number } | null }

/**
 * The callback a scheduling sub-classification creates (spec 000 §3 classification chain): at `schedule_date`, for the
 * agent (schedule_send_to 1), the queue member with the fewest pending activities (2), the agent with the union's
 * mailing (3) or the user the agent chose (4); dialled automatically as auto_run_schedule says (1 always, 2 never,
 * 3 the agent's choice, automatic unless unticked). A correction of the classification updates the same activity.
 */
export async function scheduleActivity(
  db: Db,
  user: UserRow,
  step: ScheduleStep,
  union: Union,
  body: ClassificationBody,
  previous: number | null,
  lang: Locale,
): Promise<{ id: number; userId: number }> {
  const start = new Date(body.schedule_date as string)
  let owner = user.id
  if (union.scheduleSendTo === 2 && step.queue) {
    const members = step.queue.kind === 'pabx' ? pabxQueuesMembers : chatQueuesMembers
    const [pick] = await db
      .select({ userId: members.userId })
      .from(members)
      .innerJoin(users, and(eq(users.id, members.userId), eq(users.isActive, true)))
      .where(and(eq(members.siteId, user.siteId), eq(members.queueId, step.queue.id)))
      .orderBy(sql`(select count(*) from activities a where a.user_id = ${members.userId} and a.done = false)`, asc(members.position), asc(members.id))
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
  // The union's mailing is kept only while it is the site's (a deleted mailing leaves the callback without one).
  const mailing = union.scheduleSendTo === 3 && union.mailing != null && !(await foreignCrmRefs(db, user.siteId, { mailing: union.mailing })).length ? union.mailing : null
  const automatic = union.autoRunSchedule === 1 ? true : union.autoRunSchedule === 2 ? false : (body.schedule_auto_run ?? true)
  const values = {
    siteId: user.siteId,
    userId: owner,
    destination: step.destination,
    mailingId: mailing,
    start,
    subject: message('scheduledCallback', lang),
    type: 'call',
    target: step.target,
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

/** A re-classification that no longer needs the activity an earlier one created closes it. */
export async function closeReplacedActivity(db: Db, previous: number | null, current: number | null): Promise<void> {
  if (previous !== null && previous !== current) await db.update(activities).set({ active: false, done: true }).where(eq(activities.id, previous))
}
