import * as v from 'valibot'
import { message } from '../messages.ts'
import { DELIVERY_STATUSES, MESSAGE_TYPES, ROOM_STATES, SENT_BY } from '../api/chat.ts'
import type { ChatMessage, ChatRoom } from '../api/chat.ts'
import type { FieldErrors } from '../api/errors.ts'

// The chat socket /ws/chat/ (spec 001 §7 "Chat socket"): the agent's rooms and their messages as they change. Every
// frame is one JSON object `{ action, ...fields }`, like the service socket (service-socket.ts): the same host, the same
// token subprotocol (`new WebSocket(url, ['token', key])`, TOKEN_SUBPROTOCOL), the same Origin check, close codes,
// frame limits, `serverPing` and `logout`. The spec names the actions but not their fields: the fields are ours.
//
// What an agent hears: only the rooms offered to them or served by them (server/realtime/sockets/chat.ts); a
// supervisor (sites.view_dashboard_supervisor) also hears the rooms they `watch` (the room viewer of spec 001 §2).
//
// Re-sync: every room and message carries `revision` (one increasing sequence for every change of either, migration
// 0012). A client keeps the highest revision it saw (the `cursor`); after a reconnect it sends `sync` with it and gets
// every room and message of its rooms changed since, plus the ids of all its rooms now (`room_ids`: a room missing
// from it left the agent's console while the socket was down). Applying `syncMessages` (upsert by id, drop the rooms
// not in `room_ids`) leaves the client with exactly the server's set. `has_more`: send `sync` again with the new cursor.

export const CHAT_SOCKET_PATH = '/ws/chat/'

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

/** A room or message id: a positive integer (rooms and messages are bigserial; JSON numbers stay exact to 2^53). */
const RowId = v.pipe(v.number(invalid), v.integer(invalid), v.minValue(1, invalid), v.maxValue(Number.MAX_SAFE_INTEGER, invalid))
const StepId = RowId

/** Most ids one frame may name (read_message, get_message_status). */
export const MAX_IDS_PER_FRAME = 500
/** Page size of get_messages (default and most). */
export const MESSAGES_PAGE = { default: 50, max: 200 } as const
/** Most messages one `syncMessages` carries; more → has_more and the client asks again. */
export const SYNC_PAGE = 1000
/**
 * Revisions a sync reaches back below the client's cursor. A revision is taken when a row is written, not when its
 * transaction commits: a slow transaction can commit revision N after the client saw N + 1. Reaching back this far
 * (a few hundred milliseconds of the busiest server) sends such a late row again; the client upserts by id, so a row
 * heard twice changes nothing. Smaller than SYNC_PAGE, so paging always moves forward.
 */
export const SYNC_OVERLAP = 200

const Ids = v.pipe(v.array(RowId, invalid), v.minLength(1, invalid), v.maxLength(MAX_IDS_PER_FRAME, invalid))

// ---------------------------------------------------------------------------------------------------------------
// Sent by the browser

export const CHAT_CLIENT_MESSAGES = {
  /** Every 5 s; answered `pong`. */
  ping: v.object({ action: v.literal('ping') }),
  /** The answer to the host's `serverPing` (no answer). */
  server_pong: v.object({ action: v.literal('server_pong') }),
  /** The agent's rooms not finished (offered to them or theirs); answered `chats`. */
  check_rooms: v.object({ action: v.literal('check_rooms') }),
  /** Answer the room offered to the agent: `chat` (the room, theirs now) or an `error` with the spec's text. */
  answer: v.object({ action: v.literal('answer'), step_id: StepId }),
  /**
   * 'Desligar' (spec 001 §4): a room still ringing for the agent is declined (offered to the next agent); answered
   * `removeChat`. A room already theirs is not closed by hangup (closing asks a confirmation and a classification: POST
   * close/{uid}/); answered `error`.
   */
  hangup: v.object({ action: v.literal('hangup'), step_id: StepId }),
  /** Mark the customer's messages read: `ids`, or every one up to and including `up_to`, or all without either. Answered `chat`. */
  read_message: v.object({ action: v.literal('read_message'), step_id: StepId, ids: v.optional(Ids), up_to: v.optional(RowId) }),
  /** Answered `messageStatus` with those of `ids` the caller may see. */
  get_message_status: v.object({ action: v.literal('get_message_status'), ids: Ids }),
  /** A page of a room's messages, oldest first: before `before` (older), after `after` (newer) or the latest. Answered `messages`. */
  get_messages: v.object({
    action: v.literal('get_messages'),
    step_id: StepId,
    before: v.optional(RowId),
    after: v.optional(RowId),
    limit: v.optional(v.pipe(v.number(invalid), v.integer(invalid), v.minValue(1, invalid), v.maxValue(MESSAGES_PAGE.max, invalid))),
  }),
  /** Answered `unreadAllMessages`: the customer's unread messages over all the agent's rooms. */
  count_unread_all_messages: v.object({ action: v.literal('count_unread_all_messages') }),
  /** After a reconnect: everything past `cursor` (0: everything). Answered `syncMessages`. */
  sync: v.object({
    action: v.literal('sync'),
    cursor: v.pipe(v.number(invalid), v.integer(invalid), v.minValue(0, invalid), v.maxValue(Number.MAX_SAFE_INTEGER, invalid)),
  }),
  /** The agent is typing in a room of theirs (ours): the website visitor sees it; no answer. At most every few seconds. */
  typing: v.object({ action: v.literal('typing'), step_id: StepId }),
  /** A supervisor opens the room viewer: answered `chat` and `messages`, then hears the room's changes. */
  watch: v.object({ action: v.literal('watch'), step_id: StepId }),
  /** The viewer closed: answered `removeChat` (reason `unwatched`). */
  unwatch: v.object({ action: v.literal('unwatch'), step_id: StepId }),
} as const

export type ChatClientAction = keyof typeof CHAT_CLIENT_MESSAGES
export type ChatClientMessage = { [A in ChatClientAction]: v.InferOutput<(typeof CHAT_CLIENT_MESSAGES)[A]> }[ChatClientAction]

export function isChatClientAction(action: unknown): action is ChatClientAction {
  return typeof action === 'string' && Object.hasOwn(CHAT_CLIENT_MESSAGES, action)
}

// ---------------------------------------------------------------------------------------------------------------
// Sent by the server

/** Why a room left the console (or the viewer). */
export const REMOVE_REASONS = ['taken', 'ended', 'transferred', 'removed', 'declined', 'unwatched'] as const
export type RemoveReason = (typeof REMOVE_REASONS)[number]

export type ChatServerMessage =
  | { action: 'pong' }
  | { action: 'serverPing' }
  /** The session ended (the host closes the socket after it). */
  | { action: 'logout'; reason?: string }
  /** The agent's rooms (answer to check_rooms); `cursor` is the highest revision among them and their messages. */
  | { action: 'chats'; rooms: ChatRoom[]; cursor: number }
  /** A room new or changed; `ringing` while it is offered to this agent (Atender / Desligar), for `ring_seconds`. */
  | { action: 'chat'; room: ChatRoom; ringing: boolean; ring_seconds: number | null }
  /** A page of a room's messages, oldest first; `has_more`: older (or newer, with `after`) ones exist. */
  | { action: 'messages'; step_id: number; messages: ChatMessage[]; has_more: boolean }
  /** A new message in a room. */
  | { action: 'message'; step_id: number; message: ChatMessage }
  /** Messages whose delivery status changed (or asked for with get_message_status). */
  | { action: 'messageStatus'; messages: ChatMessage[] }
  /** The answer to sync. */
  | { action: 'syncMessages'; rooms: ChatRoom[]; messages: ChatMessage[]; room_ids: number[]; cursor: number; has_more: boolean }
  /** The room ended (the console starts its removal countdown). */
  | { action: 'end'; step_id: number; room: ChatRoom }
  /** The offer rang out without an answer: the console stops ringing and drops the room. */
  | { action: 'noAnswer'; step_id: number }
  /** The room left this console (taken by another agent, transferred, finished, declined, unwatched). Ours. */
  | { action: 'removeChat'; step_id: number; reason: RemoveReason }
  /** The customer (widget) or an agent is typing. Ours. */
  | { action: 'typing'; step_id: number; from: 'client' | 'agent' }
  /** The customer's unread messages over all the agent's rooms. */
  | { action: 'unreadAllMessages'; count: number }
  /** A frame the server could not act on; `request` is the action it answered (when it had one). */
  | { action: 'error'; detail: string; request: string | null; step_id?: number; errors?: FieldErrors }

export type ChatServerAction = ChatServerMessage['action']

export const CHAT_SERVER_ACTIONS = [
  'pong',
  'serverPing',
  'logout',
  'chats',
  'chat',
  'messages',
  'message',
  'messageStatus',
  'syncMessages',
  'end',
  'noAnswer',
  'removeChat',
  'typing',
  'unreadAllMessages',
  'error',
] as const satisfies readonly ChatServerAction[]

const Iso = v.string()
const nullableNumber = v.nullable(v.number())

/** A message as the serializer writes it (contract/api/chat.ts ChatMessage); extra fields are tolerated. */
export const ChatMessageShape = v.looseObject({
  id: v.number(),
  uid: v.string(),
  step: v.number(),
  sent_by: v.picklist(SENT_BY),
  type: v.picklist(MESSAGE_TYPES),
  content: v.string(),
  attachment: v.nullable(v.string()),
  datetime: Iso,
  status: v.nullable(v.picklist(DELIVERY_STATUSES)),
  visible: v.boolean(),
  read: v.boolean(),
  user: nullableNumber,
  revision: v.number(),
})

/** A room as the serializer writes it (contract/api/chat.ts ChatRoom); extra fields are tolerated. */
export const ChatRoomShape = v.looseObject({
  id: v.number(),
  uid: v.string(),
  title: v.string(),
  phone: v.string(),
  datetime: Iso,
  end: v.nullable(Iso),
  status: v.picklist(ROOM_STATES),
  archived: v.boolean(),
  unread_messages: v.array(v.number()),
  last_message: v.nullable(ChatMessageShape),
  has_expired: v.boolean(),
  can_agent_send_message: v.boolean(),
  chat_type: v.number(),
  user: v.nullable(v.looseObject({ id: v.number(), name: v.string() })),
  revision: v.number(),
})

export const CHAT_SERVER_MESSAGES = {
  pong: v.strictObject({ action: v.literal('pong') }),
  serverPing: v.strictObject({ action: v.literal('serverPing') }),
  logout: v.strictObject({ action: v.literal('logout'), reason: v.optional(v.string()) }),
  chats: v.strictObject({ action: v.literal('chats'), rooms: v.array(ChatRoomShape), cursor: v.number() }),
  chat: v.strictObject({ action: v.literal('chat'), room: ChatRoomShape, ringing: v.boolean(), ring_seconds: nullableNumber }),
  messages: v.strictObject({ action: v.literal('messages'), step_id: v.number(), messages: v.array(ChatMessageShape), has_more: v.boolean() }),
  message: v.strictObject({ action: v.literal('message'), step_id: v.number(), message: ChatMessageShape }),
  messageStatus: v.strictObject({ action: v.literal('messageStatus'), messages: v.array(ChatMessageShape) }),
  syncMessages: v.strictObject({
    action: v.literal('syncMessages'),
    rooms: v.array(ChatRoomShape),
    messages: v.array(ChatMessageShape),
    room_ids: v.array(v.number()),
    cursor: v.number(),
    has_more: v.boolean(),
  }),
  end: v.strictObject({ action: v.literal('end'), step_id: v.number(), room: ChatRoomShape }),
  noAnswer: v.strictObject({ action: v.literal('noAnswer'), step_id: v.number() }),
  removeChat: v.strictObject({ action: v.literal('removeChat'), step_id: v.number(), reason: v.picklist(REMOVE_REASONS) }),
  typing: v.strictObject({ action: v.literal('typing'), step_id: v.number(), from: v.picklist(['client', 'agent']) }),
  unreadAllMessages: v.strictObject({ action: v.literal('unreadAllMessages'), count: v.number() }),
  error: v.strictObject({
    action: v.literal('error'),
    detail: v.string(),
    request: v.nullable(v.string()),
    step_id: v.optional(v.number()),
    errors: v.optional(v.record(v.string(), v.array(v.string()))),
  }),
} as const satisfies Record<ChatServerAction, v.GenericSchema>

export type ParsedChatServerMessage<A extends ChatServerAction = ChatServerAction> = v.InferOutput<(typeof CHAT_SERVER_MESSAGES)[A]>

/** A received frame read against the contract: the message, an action nobody knows (only logged), or a malformed known one. */
export type ChatServerFrame =
  | { kind: 'message'; message: ParsedChatServerMessage }
  | { kind: 'unknown'; action: string | null }
  | { kind: 'invalid'; action: ChatServerAction; issues: string[] }

/** Reads one received frame (already JSON-parsed) against its action's schema. */
export function readChatServerFrame(value: unknown): ChatServerFrame {
  const action = value && typeof value === 'object' ? (value as { action?: unknown }).action : undefined
  if (typeof action !== 'string' || !Object.hasOwn(CHAT_SERVER_MESSAGES, action)) return { kind: 'unknown', action: typeof action === 'string' ? action : null }
  const known = action as ChatServerAction
  const result = v.safeParse(CHAT_SERVER_MESSAGES[known], value)
  if (result.success) return { kind: 'message', message: result.output as ParsedChatServerMessage }
  return { kind: 'invalid', action: known, issues: result.issues.map((issue) => `${v.getDotPath(issue) ?? '(frame)'}: ${issue.message}`) }
}
