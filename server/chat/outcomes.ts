import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { ChatCloseRefusal, ChatFormTab, ChatForms, ChatNpsResult } from '../../contract/api/chat-calls.ts'
import type { CallFormDefinition, ClassificationBody, StepClassification, TabFormPostResponse } from '../../contract/api/service-actions.ts'
import { callTypeMatchesKinds } from '../../contract/codes/call-types.ts'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import type { Db } from '../db/client.ts'
import {
  chatChannels,
  chatNpsSurveys,
  chatQueues,
  chatRooms,
  serviceClassifications,
  serviceClassificationsChatQueues,
  serviceSubClassifications,
  teams,
  users,
} from '../db/schema/index.ts'
import type { UserRow } from '../db/schema/index.ts'
import { detailError } from '../http/errors.ts'
import type { CommentRule } from '../outcomes/chain.ts'
import { checkComment, closeReplacedActivity, loadFormDefinition, requireSiteForm, scheduleActivity, validateChain } from '../outcomes/chain.ts'
import type { RoomRow } from './serialize.ts'

// A chat's outcome (issue 15 item 4; spec 001 §2 Form and Classification tabs, §3 forms, §5 closing, §7 forms/ and
// tab-form step_type=chat): the form its queue names, the classification chain filtered by its queue with the
// comment's rules and the schedule → activity of calls (server/outcomes/chain.ts), stored on the room. Closing needs
// both unless forced: the answer names which one is missing with the spec's toast.

const nextRevision = sql`nextval('chat_revision_seq')`

type Rules = {
  form: CallFormDefinition | null
  classificationRequired: boolean
  /** A classification form exists: required, or the queue has classifications. */
  classificationOffered: boolean
  comment: CommentRule
  queue: { id: number; description: string } | null
}

/** What the room's outcome needs: its agent's team (classification kinds, comment) and its queue (form, comment, chain). */
async function rulesOf(db: Db, room: RoomRow): Promise<Rules> {
  const [[team], [queue]] = await Promise.all([
    room.userId !== null
      ? db
          .select({ kinds: teams.enableClassifications, enableComment: teams.enableComment, min: teams.minimumCommentSize, max: teams.maximumCommentSize })
          .from(users)
          .innerJoin(teams, eq(teams.id, users.teamId))
          .where(eq(users.id, room.userId))
      : Promise.resolve([]),
    room.queueId !== null
      ? db
          .select()
          .from(chatQueues)
          .where(and(eq(chatQueues.id, room.queueId), eq(chatQueues.siteId, room.siteId)))
      : Promise.resolve([]),
  ])
  const classificationRequired = callTypeMatchesKinds(room.chatType, team?.kinds ?? [])
  let offered = classificationRequired
  if (!offered && queue) {
    const [one] = await db
      .select({ id: serviceClassificationsChatQueues.classificationId })
      .from(serviceClassificationsChatQueues)
      .innerJoin(serviceClassifications, eq(serviceClassifications.id, serviceClassificationsChatQueues.classificationId))
      .where(and(eq(serviceClassificationsChatQueues.queueId, queue.id), eq(serviceClassifications.isActive, true)))
      .limit(1)
    offered = !!one
  }
  // The comment: the team's rule, made stricter by the queue's minimum and maximum (spec 001 §3 queues).
  const queueMin = queue?.minimumCommentSize ?? 0
  const maxes = [team?.enableComment ? team.max : 0, queue?.maximumCommentSize ?? 0].filter((n) => n > 0)
  const comment: CommentRule = {
    enabled: (team?.enableComment ?? false) || queueMin > 0,
    min: Math.max(team?.enableComment ? team.min : 0, queueMin),
    max: maxes.length ? Math.min(...maxes) : 0,
  }
  return {
    form: await loadFormDefinition(db, room.siteId, queue?.formId ?? null),
    classificationRequired,
    classificationOffered: offered,
    comment,
    queue: queue ? { id: queue.id, description: queue.description } : null,
  }
}

/** The form builder's fields grouped by their `tab`, in order of first appearance. */
export function formTabs(form: CallFormDefinition): ChatFormTab[] {
  const tabs = new Map<string, Record<string, unknown>[]>()
  for (const field of form.fields) {
    const name = typeof field.tab === 'string' ? field.tab : ''
    tabs.set(name, [...(tabs.get(name) ?? []), field])
  }
  return [...tabs].map(([name, fields]) => ({ name, fields }))
}

/** What pre-fills the room's form: the room's data under the names a form builder field would use. */
async function roomData(db: Db, room: RoomRow, queue: Rules['queue']): Promise<Record<string, unknown>> {
  const [channel] = await db.select({ description: chatChannels.description }).from(chatChannels).where(eq(chatChannels.id, room.channelId))
  return {
    protocol: room.id,
    step_id: room.id,
    uid: room.uid,
    name: room.title,
    phone: room.phone,
    email: room.email,
    channel: channel?.description ?? '',
    queue: queue?.description ?? '',
    chat_type: room.chatType,
  }
}

/** GET /v1/chat/chats/{id}/forms/ (spec 001 §7). */
export async function chatForms(db: Db, room: RoomRow): Promise<ChatForms> {
  const rules = await rulesOf(db, room)
  const data = rules.form ? await roomData(db, room, rules.queue) : {}
  return {
    step_id: room.id,
    classification: rules.classificationOffered
      ? {
          uid: room.uid,
          tabs: [],
          required: rules.classificationRequired,
          queue_id: room.queueId,
          comment: rules.comment,
          value: (room.classification as StepClassification | null) ?? null,
        }
      : null,
    form: rules.form
      ? {
          uid: room.uid,
          id: rules.form.id,
          description: rules.form.description,
          tabs: formTabs(rules.form),
          data: { ...data, ...(room.formValues ?? {}) },
          sent: room.formSentAt !== null,
          values: room.formValues ?? null,
        }
      : null,
  }
}

/**
 * The agent's room a tab-form names with step_type=chat (its uid, or its id): only the room's agent classifies it or
 * sends its form; anything else is 404, as for calls.
 */
export async function agentRoom(db: Db, user: Pick<UserRow, 'id' | 'siteId'>, uid: string, lang: Locale): Promise<RoomRow> {
  const byId = /^[1-9]\d{0,15}$/.test(uid) ? Number(uid) : null
  const [room] = await db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.siteId, user.siteId), byId !== null ? eq(chatRooms.id, byId) : eq(chatRooms.uid, uid), eq(chatRooms.userId, user.id)))
  if (!room) throw detailError(404, 'notFound', lang)
  return room
}

/** POST tab-form ?type=classification&step_type=chat. */
export async function classifyChat(db: Db, user: UserRow, room: RoomRow, body: ClassificationBody, lang: Locale): Promise<TabFormPostResponse> {
  const { classificationId, union } = await validateChain(db, user.siteId, body, lang)
  const rules = await rulesOf(db, room)
  const comment = body.comment ?? ''
  checkComment(rules.comment, comment, lang)
  const previous = (room.classification as StepClassification | null)?.activity_id ?? null
  const scheduled = { destination: room.phone, target: room.uid, queue: room.queueId !== null ? { kind: 'chat' as const, id: room.queueId } : null }
  const activity = union?.enableSchedule ? await scheduleActivity(db, user, scheduled, union, body, previous, lang) : null
  const value: StepClassification = {
    queue_id: room.queueId,
    classification_id: classificationId,
    sub_classification_id: body.sub_classification_id ?? null,
    comment,
    schedule_date: union?.enableSchedule ? (body.schedule_date ?? null) : null,
    classified_by: user.id,
    activity_id: activity?.id ?? null,
  }
  await db.update(chatRooms).set({ classification: value, classifiedAt: new Date(), revision: nextRevision }).where(eq(chatRooms.id, room.id))
  await closeReplacedActivity(db, previous, activity?.id ?? null)
  return { success: true, detail: message('callClassified', lang), activity: activity?.id ?? null }
}

/** POST tab-form ?type=form&form_id=&step_type=chat: stored once; a form already sent is not sent again. */
export async function sendChatForm(
  db: Db,
  user: UserRow,
  room: RoomRow,
  formId: number,
  values: Record<string, unknown>,
  lang: Locale,
): Promise<TabFormPostResponse> {
  const form = await requireSiteForm(db, user.siteId, formId, lang)
  const written = await db
    .update(chatRooms)
    .set({ formId: form, formValues: values, formSentAt: new Date(), revision: nextRevision })
    .where(and(eq(chatRooms.id, room.id), isNull(chatRooms.formSentAt)))
    .returning({ id: chatRooms.id })
  return { success: true, detail: message(written.length > 0 ? 'formSaved' : 'chatFormAlreadySent', lang) }
}

const empty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)

/** The form's required answers are missing (spec 001 §5: a required field, not read-only nor a file, is non-empty). */
function formIncomplete(form: CallFormDefinition, values: Record<string, unknown> | null): boolean {
  return form.fields.some((field) => field.required === true && field.readonly !== true && field.type !== 'file' && empty(values?.[String(field.name)]))
}

/** Why the room may not be closed yet (spec 001 §5), or null: the classification first, then the form. */
export async function closeRefusal(db: Db, room: RoomRow): Promise<ChatCloseRefusal | null> {
  const rules = await rulesOf(db, room)
  if (rules.classificationRequired && room.classifiedAt === null) return 'classification_required'
  if (rules.form && formIncomplete(rules.form, room.formSentAt !== null ? (room.formValues ?? {}) : null)) return 'form_required'
  return null
}

export const CLOSE_REFUSAL_MESSAGE = { classification_required: 'chatClassificationRequired', form_required: 'chatFormRequired' } as const

/** The outcome as the room detail shows it (spec 001 §3 "Chat room detail"): names, comment, form answers, NPS. */
export async function roomOutcome(db: Db, room: RoomRow) {
  const value = (room.classification as StepClassification | null) ?? null
  const [[classification], [sub], form, [nps]] = await Promise.all([
    value
      ? db
          .select({ description: serviceClassifications.description })
          .from(serviceClassifications)
          .where(and(eq(serviceClassifications.id, value.classification_id), eq(serviceClassifications.siteId, room.siteId)))
      : Promise.resolve([]),
    value?.sub_classification_id
      ? db
          .select({ description: serviceSubClassifications.description })
          .from(serviceSubClassifications)
          .where(and(eq(serviceSubClassifications.id, value.sub_classification_id), eq(serviceSubClassifications.siteId, room.siteId)))
      : Promise.resolve([]),
    room.formSentAt !== null ? loadFormDefinition(db, room.siteId, room.formId) : Promise.resolve(null),
    db.select().from(chatNpsSurveys).where(eq(chatNpsSurveys.roomId, room.id)).orderBy(desc(chatNpsSurveys.id)).limit(1),
  ])
  return {
    classification: classification?.description ?? null,
    sub_classification: sub?.description ?? null,
    comment: value?.comment ?? '',
    schedule_date: value?.schedule_date ?? null,
    activity: value?.activity_id ?? null,
    form:
      room.formSentAt !== null
        ? { id: room.formId ?? 0, description: form?.description ?? '', tabs: form ? formTabs(form) : [], data: room.formValues ?? {} }
        : null,
    nps: nps
      ? ({
          state: nps.state as ChatNpsResult['state'],
          scale: nps.scale,
          score: nps.score,
          comment: nps.comment,
          sent_as: nps.sentAs as ChatNpsResult['sent_as'],
          sent_at: nps.sentAt.toISOString(),
          answered_at: nps.answeredAt?.toISOString() ?? null,
        } satisfies ChatNpsResult)
      : null,
  }
}

/** Classification names of rooms (the history lists), one query. */
export async function classificationNames(db: Db, rooms: readonly RoomRow[]): Promise<Map<number, { classification: string; sub: string }>> {
  const ids = new Set<number>()
  for (const room of rooms) {
    const value = room.classification as StepClassification | null
    if (value) ids.add(value.classification_id)
  }
  const out = new Map<number, { classification: string; sub: string }>()
  if (!ids.size) return out
  const rows = (await db.execute(sql`
    select r.id, c.description as classification, coalesce(s.description, '') as sub
    from chat_rooms r
    join service_classifications c on c.id = (r.classification->>'classification_id')::int and c.site_id = r.site_id
    left join service_sub_classifications s on s.id = (r.classification->>'sub_classification_id')::int and s.site_id = r.site_id
    where r.id in (${sql.join(
      rooms.map((r) => sql`${r.id}`),
      sql`, `,
    )})`)) as unknown as { rows: { id: string | number; classification: string; sub: string }[] }
  for (const row of rows.rows) out.set(Number(row.id), { classification: row.classification, sub: row.sub })
  return out
}
