import * as v from 'valibot'
import { message } from '../messages.ts'
import type { ChatMessage, ChatRoom } from './chat.ts'
import type { StepClassification } from './service-actions.ts'

// Query strings and answers of the chat calls of spec 001 §7 (the bodies are in chat.ts: SendMessageBody,
// TransferBody). Query values arrive as strings; each schema turns them into numbers, dates and flags.

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

const digits = (max: number) =>
  v.pipe(
    v.union([v.pipe(v.string(invalid), v.regex(/^\d{1,15}$/, invalid), v.transform(Number)), v.number(invalid)], invalid),
    v.integer(invalid),
    v.minValue(0, invalid),
    v.maxValue(max, invalid),
  )
const positive = v.pipe(digits(Number.MAX_SAFE_INTEGER), v.minValue(1, invalid))
const flag = v.pipe(
  v.picklist(['true', 'false', '1', '0'], invalid),
  v.transform((s) => s === 'true' || s === '1'),
)
const dateTime = v.pipe(
  v.string(invalid),
  v.maxLength(40, invalid),
  v.check((s) => !Number.isNaN(Date.parse(s)), invalid),
  v.transform((s) => new Date(s)),
)
const search = v.pipe(v.string(invalid), v.trim(), v.maxLength(200, invalid))

/** Page sizes of the chat lists (spec 001 §9: options 5–25; 99999 unpaged is capped). */
export const CHAT_LIST_LIMIT = { default: 10, max: 500 } as const

const paging = {
  limit: v.optional(v.pipe(digits(99999), v.minValue(1, invalid)), CHAT_LIST_LIMIT.default),
  offset: v.optional(digits(10_000_000), 0),
}

/** GET historic/ and archives/: paging and a search over title and phone. */
export const ChatListQuery = v.object({
  ...paging,
  search: v.optional(search),
  /** Supervisors' outcome filters (issue 15 item 7): the agent's classification and sub-classification. */
  classification: v.optional(positive),
  sub_classification: v.optional(positive),
})
export type ChatListQuery = v.InferOutput<typeof ChatListQuery>

/** GET search/{chatId}/messages and …/rooms (spec 001 §7). */
export const ChatSearchQuery = v.object({
  ...paging,
  search: v.optional(search),
  sort: v.optional(v.picklist(['datetime', '-datetime'], invalid), '-datetime'),
  datetime__gte: v.optional(dateTime),
  datetime__lte: v.optional(dateTime),
  attachment: v.optional(flag),
})
export type ChatSearchQuery = v.InferOutput<typeof ChatSearchQuery>

/** GET chats/{id}/messages/: the latest page, or older than `before` (a message id). */
export const ChatMessagesQuery = v.object({
  before: v.optional(positive),
  limit: v.optional(v.pipe(digits(200), v.minValue(1, invalid)), 50),
})
export type ChatMessagesQuery = v.InferOutput<typeof ChatMessagesQuery>

/** GET chats/{id}/resend?message_id= */
export const ChatResendQuery = v.object({ message_id: positive })

/** A row of the History and Archived dialogs (spec 001 §2): the last message cut at 100 characters. */
export type ChatHistoryRow = {
  id: number
  uid: string
  datetime: string
  title: string
  last_message: string
  phone: string
  archived: boolean
  status: ChatRoom['status']
  /** The agent's classification and sub-classification, by name ('' when not classified). */
  classification: string
  sub_classification: string
}
export const LAST_MESSAGE_CUT = 100

export type ChatList<T> = { count: number; results: T[] }

/** A row of the Conversations tab (spec 001 §3 "Chat search rows"): classification arrives with forms (issue 15). */
export type ChatSearchRoomRow = {
  id: number
  uid: string
  datetime: string
  end: string | null
  title: string
  user: { id: number; description: string } | null
  classification: { id: number; description: string } | null
  sub_classification: { id: number; description: string } | null
}

/** GET chats/{id}/messages/: oldest first; `has_more` when older ones exist (ask with before = results[0].id). */
export type ChatMessagesPage = { results: ChatMessage[]; has_more: boolean; count: number }

/** One tab of a chat form: the form builder's fields whose `tab` is `name` ('' for the fields without one). */
export type ChatFormTab = { name: string; fields: Record<string, unknown>[] }

/**
 * The classification of a chat (spec 001 §2 Classification tab): null when no classification form exists (the team
 * requires none for the room's chat type and its queue has no classification). `value` is what the agent sent.
 */
export type ChatClassificationForm = {
  uid: string
  tabs: ChatFormTab[]
  required: boolean
  /** The room's queue: the chain is filtered by it (/v1/service/classifications/?chat_queues=). */
  queue_id: number | null
  /** The comment: asked (team enable_comment, or a queue minimum), its minimum and maximum (0: none). */
  comment: { enabled: boolean; min: number; max: number }
  value: StepClassification | null
}

/** The form of a chat (spec 001 §3): the one its queue names, grouped in tabs; `data` pre-fills it from the room. */
export type ChatFormForm = {
  uid: string
  id: number
  description: string
  tabs: ChatFormTab[]
  /** The room's data by field name (name, phone, email, channel, queue, protocol...) and, once sent, the answers. */
  data: Record<string, unknown>
  /** The form was sent (tab-form ?type=form&step_type=chat): never resent. */
  sent: boolean
  values: Record<string, unknown> | null
}

/** GET chats/{id}/forms/ (spec 001 §7: step_id, classification (uid, tabs), form (uid, tabs, data)). */
export type ChatForms = {
  step_id: number
  classification: ChatClassificationForm | null
  form: ChatFormForm | null
}

/** POST close/{uid}/: `force` closes without the classification and form (a supervisor's close only). */
export const ChatCloseBody = v.object({ force: v.optional(v.boolean(invalid), false) })

/** The close refused (400): the spec's toast in `detail`. */
export const CHAT_CLOSE_REFUSALS = ['classification_required', 'form_required'] as const
export type ChatCloseRefusal = (typeof CHAT_CLOSE_REFUSALS)[number]

/** GET room/{stepId}/ (spec 001 §3 "Chat room detail", read-only). Durations in seconds. */
export type ChatRoomDetail = {
  id: number
  uid: string
  started: string
  name: string
  document: string
  phone: string
  email: string
  total_duration: number
  total_answer_duration: number
  queue: string
  classification: string | null
  sub_classification: string | null
  comment: string
  queue_started_datetime: string | null
  queue_answered_datetime: string | null
  channel: string
  inbound_route_id: number | null
  user: string
  status: ChatRoom['status']
  /** The chat form's answers (its definition, grouped in tabs, and the values sent), null without one. */
  form: null | { id: number; description: string; tabs: ChatFormTab[]; data: Record<string, unknown> }
  /** The sub-classification's schedule and the activity it created. */
  schedule_date: string | null
  activity: number | null
  /** The NPS survey sent after the close, and its answer. */
  nps: ChatNpsResult | null
}

/** A chat's NPS survey as the detail shows it. */
export type ChatNpsResult = {
  state: 'pending' | 'comment' | 'answered' | 'failed' | 'expired' | 'unsent'
  scale: string
  score: number | null
  comment: string
  sent_as: 'text' | 'template'
  sent_at: string
  answered_at: string | null
}

/** POST send-message/{stepId}/ and GET …/resend: the message in `data` (spec 001 §7 "data.data is the message"). */
export type ChatSendAnswer = { success: true; data: ChatMessage }
export type ChatDoneAnswer = { success: boolean; detail?: string; code?: ChatCloseRefusal }
