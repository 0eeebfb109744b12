import * as v from 'valibot'
import { message } from '../messages.ts'
import type { ChatMessage, ChatRoom } from './chat.ts'

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
export const ChatListQuery = v.object({ ...paging, search: v.optional(search) })
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

/** GET chats/{id}/forms/: classification and form are null until the forms issue brings them. */
export type ChatForms = {
  step_id: number
  classification: null | { uid: string; tabs: unknown[] }
  form: null | { uid: string; tabs: unknown[]; data: unknown }
}

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
  form: null
}

/** POST send-message/{stepId}/ and GET …/resend: the message in `data` (spec 001 §7 "data.data is the message"). */
export type ChatSendAnswer = { success: true; data: ChatMessage }
export type ChatDoneAnswer = { success: boolean; detail?: string }
