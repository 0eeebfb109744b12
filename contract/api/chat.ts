import * as v from 'valibot'

// Chat rooms and messages as the console sees them (spec 001 §3 "Chat room (step)", "Message", "Template",
// "Send-template payload"; §4 "Message delivery"; §7 the chat calls). One shape for REST answers, chat-socket frames
// and the visitor widget, so the server's serializer and the SPA agree by construction.

/** Message kinds of spec 001 §3; `system` carries notices (a transfer, a number change) shown in the room only. */
export const MESSAGE_TYPES = ['text', 'photo', 'video', 'audio', 'voice', 'document', 'location', 'contact', 'call', 'template', 'system'] as const
export type MessageType = (typeof MESSAGE_TYPES)[number]

export const SENT_BY = ['client', 'agent', 'system'] as const
export type SentBy = (typeof SENT_BY)[number]

/**
 * Delivery of an agent's message, in order; `consumed` is read (blue ticks). `failed` is terminal. A status never
 * moves back: a late `received` after `consumed` changes nothing (WHATSAPP.md §A1.5).
 */
export const DELIVERY_STATUSES = ['sending', 'accepted', 'dispatched', 'received', 'consumed', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** Where a room is in its life (server side). `archived` is a flag on top of `ended` (spec 001 §4). */
export const ROOM_STATES = ['new', 'queued', 'offered', 'active', 'ended'] as const
export type RoomState = (typeof ROOM_STATES)[number]

/** Chat types (call-type codes): 20 inbound, 10 outgoing to a new contact from a template, 11 outgoing to a mailing, 31 internal. */
export const CHAT_TYPES = { inbound: 20, outgoing: 10, outgoingMailing: 11, internal: 31 } as const
export const OUTGOING_CHAT_TYPES: readonly number[] = [10, 11, 31]

export type ChatLocation = { name: string; address: string; latitude: number; longitude: number }
export type ChatContact = { client_id: number | null; full_name: string; phone: string; avatar: string | null }

export type ChatMessageError = { code: number | null; reason: string; external_error: boolean }

export type ChatMessage = {
  id: number
  uid: string
  /** The room (step) id. */
  step: number
  sent_by: SentBy
  type: MessageType
  content: string
  /** Authenticated URL of the attachment (path + query), null without one or while it downloads. */
  attachment: string | null
  attachment_name: string
  /** The name shown on the bubble: the agent's, the customer's or ''. */
  name: string
  avatar: string | null
  /** ISO 8601. */
  datetime: string
  status: DeliveryStatus | null
  /** Visible to the customer (false: 'Não visível para o cliente'). */
  visible: boolean
  visible_agent: boolean
  /** Read by the agent. */
  read: boolean
  is_reply: boolean
  replied_message: { id: number; content: string; type: MessageType; sent_by: SentBy } | null
  can_reply: boolean
  error: ChatMessageError | null
  location: ChatLocation | null
  contacts: ChatContact[]
  template_type: 'IMAGE' | 'VIDEO' | null
  template: string | null
  /** The agent who sent it. */
  user: number | null
  /** Revision of the row (chat socket re-sync cursor). */
  revision: number
}

export type ChatCompatibility = {
  btn_template: boolean
  btn_dial: boolean
  send_attachment: boolean
  emoji: boolean
  send_voice: boolean
  show_message_status: boolean
}

export type ChatRoom = {
  id: number
  uid: string
  title: string
  phone: string
  avatar: string | null
  /** ISO 8601: when the room opened. */
  datetime: string
  end: string | null
  finished_at: string | null
  status: RoomState
  archived: boolean
  channel: { id: number; description: string; type: 'whatsapp' | 'webchat' }
  queue: { id: number; description: string } | null
  subtitle: string
  badge_color: string
  badge_icon: string
  unread_messages: number[]
  last_message: ChatMessage | null
  last_client_message_content: string
  last_client_response_ts: string | null
  has_expired: boolean
  can_agent_send_message: boolean
  chat_type: number
  /** The agent serving (or offered) the room. */
  user: { id: number; name: string } | null
  compatibility: ChatCompatibility
  /** Place in the queue while queued (1 = next), and the estimated wait in seconds. */
  queue_position: number | null
  estimated_wait: number | null
  revision: number
}

const uid = v.pipe(v.string(), v.uuid())
const content = v.pipe(v.string(), v.maxLength(4096))

/** POST /v1/chat/send-message/{stepId}/ (spec 001 §7): `uid` makes a resend after a time-out idempotent. */
export const SendMessageBody = v.object({
  uid: v.optional(uid),
  content: v.optional(content, ''),
  reply: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER)))),
  /** An attachment the agent uploaded first (its upload id), with the kind to send it as. */
  attachment: v.optional(v.pipe(v.string(), v.maxLength(128))),
  type: v.optional(v.picklist(MESSAGE_TYPES)),
  location: v.optional(
    v.object({
      name: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
      address: v.optional(v.pipe(v.string(), v.maxLength(255)), ''),
      latitude: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
      longitude: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
    }),
  ),
})
export type SendMessageBody = v.InferOutput<typeof SendMessageBody>

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647))
const param = v.object({ name: v.pipe(v.string(), v.maxLength(50)), value: v.pipe(v.string(), v.maxLength(1024)) })

/** POST /v1/chat/send-template-whatsapp/ (spec 001 §3 "Send-template payload"). */
export const SendTemplateBody = v.object({
  phone: v.optional(v.pipe(v.string(), v.maxLength(32))),
  step_id: v.optional(v.nullable(id)),
  mailing_client_id: v.optional(v.nullable(id)),
  client_id: v.optional(v.nullable(id)),
  channel_id: id,
  template_id: id,
  params: v.optional(v.array(param), []),
})
export type SendTemplateBody = v.InferOutput<typeof SendTemplateBody>

/** POST /v1/chat/transfer/{id}/: to an agent or to a queue. */
export const TransferBody = v.union([v.object({ user_id: id }), v.object({ queue_id: id })])
export type TransferBody = v.InferOutput<typeof TransferBody>

export const CHAT_PATHS = {
  templates: '/v1/chat/templates',
  template: (id: number | string) => `/v1/chat/templates/${id}/`,
  sendTemplate: '/v1/chat/send-template-whatsapp/',
  room: (stepId: number | string) => `/v1/chat/room/${stepId}/`,
  exportPdf: (stepId: number | string) => `/v1/chat/export-pdf/${stepId}/`,
  historic: '/v1/chat/historic/',
  archives: '/v1/chat/archives/',
  /** Ours: the rooms not ended (queued, ringing, being served), newest first; a supervisor's are the site's (the viewer's list). */
  live: '/v1/chat/live/',
  unarchive: (id: number | string) => `/v1/chat/archives/${id}/unarchive/`,
  sendMessage: (stepId: number | string) => `/v1/chat/send-message/${stepId}/`,
  transfer: (id: number | string) => `/v1/chat/transfer/${id}/`,
  close: (uid: string) => `/v1/chat/close/${uid}/`,
  resend: (id: number | string) => `/v1/chat/chats/${id}/resend`,
  messages: (id: number | string) => `/v1/chat/chats/${id}/messages/`,
  forms: (id: number | string) => `/v1/chat/chats/${id}/forms/`,
  searchMessages: (chatId: number | string) => `/v1/chat/search/${chatId}/messages`,
  searchRooms: (chatId: number | string) => `/v1/chat/search/${chatId}/rooms`,
} as const
