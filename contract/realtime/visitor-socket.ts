import * as v from 'valibot'
import { message } from '../messages.ts'
import type { FieldErrors } from '../api/errors.ts'

// The website chat (issue 13 item 3): the widget a site embeds (`/widget.js`), its public REST under `/widget/` and
// the visitor socket. Everything here is public: the visitor is not a user of Atende, only the holder of a visitor
// token that the server signed for one channel (server/channels/webchat/README.md).

export const WIDGET_PATHS = {
  script: '/widget.js',
  demo: '/widget-demo',
  config: '/widget/config/:token',
  sessions: '/widget/sessions/:token',
  attachments: '/widget/attachments/:token',
  file: '/widget/files/:channel/:visitor/:name',
  socket: '/widget/socket/:token',
  /** Signed in (chat.view_channel): the embed code of a webchat channel, for its settings. */
  embed: '/api/v1/chat/channels/:id/embed/',
} as const

/** The header that carries the visitor token on REST calls (a socket sends it in `hello`). */
export const VISITOR_TOKEN_HEADER = 'x-visitor-token'

/** A stored attachment's name: 128 random bits + the extension of the type its bytes showed. */
export const ATTACHMENT_NAME = /^[a-f0-9]{32}\.[a-z0-9]{2,4}$/

export const VISITOR_CLOSE_CODES = {
  /** No valid hello (forged, expired or other-channel token), or the channel is gone. */
  unauthorized: 4401,
  /** Too many frames. */
  policy: 1008,
  /** Silent too long (the widget pings every 20 s). */
  idle: 4408,
  goingAway: 1001,
} as const

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const MAX_CONTENT = 4096

/** Text a visitor may send: not blank, at most 4096 characters. */
const Content = v.pipe(
  v.string(invalid),
  v.maxLength(MAX_CONTENT, (issue) => message('maxLength', issue.lang, { n: MAX_CONTENT })),
)
/** The widget's own id for a message (a UUID): re-sent after a time-out it still leaves one message. */
const Uid = v.pipe(v.string(invalid), v.regex(/^[A-Za-z0-9-]{8,36}$/, invalid))
const MessageId = v.pipe(v.number(invalid), v.integer(invalid), v.minValue(0, invalid), v.maxValue(Number.MAX_SAFE_INTEGER, invalid))

// ---------------------------------------------------------------------------------------------------------------
// Visitor → server

export const VISITOR_CLIENT_MESSAGES = {
  /** First frame: the visitor token; `cursor` = the last message id the widget holds (resume after a reload). */
  hello: v.object({
    action: v.literal('hello'),
    token: v.pipe(v.string(invalid), v.maxLength(2048, invalid)),
    cursor: v.optional(v.nullable(MessageId), null),
  }),
  /** Asks again for what came after `cursor` (after a reconnect without reload). */
  resume: v.object({ action: v.literal('resume'), cursor: v.nullable(MessageId) }),
  /** A message: text, an attachment uploaded before (POST /widget/attachments/), or both. */
  message: v.pipe(
    v.object({
      action: v.literal('message'),
      uid: Uid,
      content: v.optional(Content, ''),
      attachment: v.optional(v.nullable(v.pipe(v.string(invalid), v.regex(ATTACHMENT_NAME, invalid))), null),
    }),
    v.forward(
      v.check(
        (frame) => frame.content.trim() !== '' || frame.attachment !== null,
        (issue) => message('required', issue.lang),
      ),
      ['content'],
    ),
  ),
  typing: v.object({ action: v.literal('typing'), typing: v.boolean(invalid) }),
  /** The visitor saw every agent message up to this id. */
  read: v.object({ action: v.literal('read'), up_to: MessageId }),
  ping: v.object({ action: v.literal('ping') }),
} as const

export type VisitorClientMessage = v.InferOutput<(typeof VISITOR_CLIENT_MESSAGES)[keyof typeof VISITOR_CLIENT_MESSAGES]>

// ---------------------------------------------------------------------------------------------------------------
// Server → visitor

export type VisitorMessageType = 'text' | 'photo' | 'video' | 'audio' | 'document'

/** A message as the visitor sees it (spec 001 §3 Message, what a visitor may know of it). */
export type VisitorMessage = {
  id: number
  uid: string
  sent_by: 'client' | 'agent' | 'system'
  type: VisitorMessageType
  content: string
  /** URL of the attachment (served with nosniff, as an attachment; absolute on the socket), or null. */
  attachment: string | null
  attachment_name: string | null
  /** The agent's name for agent messages. */
  name: string | null
  datetime: string
  /** The visitor's own messages: sent (the server has it) → read (an agent read it). */
  status: 'sent' | 'read'
}

export type VisitorServerMessage =
  | { action: 'ready'; visitor_id: string; online: boolean }
  /** The conversation after the hello's cursor (all of it with none), oldest first. */
  | { action: 'messages'; messages: VisitorMessage[] }
  | { action: 'message'; message: VisitorMessage }
  | { action: 'status'; ids: number[]; status: 'sent' | 'read' }
  | { action: 'agent'; name: string; avatar: string | null }
  | { action: 'typing'; typing: boolean }
  | { action: 'ended' }
  | { action: 'pong' }
  | { action: 'ping' }
  | { action: 'error'; detail: string; request: string | null; errors?: FieldErrors }

// ---------------------------------------------------------------------------------------------------------------
// REST

/** GET /widget/config/{token}. */
export type WidgetConfig = {
  title: string
  color: string
  logo: string | null
  welcome_message: string
  offline_message: string
  require_name: boolean
  require_email: boolean
  require_phone: boolean
  send_attachment: boolean
  /** Some agent is logged in to the channel (spec 000 §7 channel login). */
  online: boolean
}

/** POST /widget/sessions/{token}: the pre-chat form (what the channel requires), all optional otherwise. */
export const VisitorSessionInput = v.object({
  name: v.optional(
    v.pipe(
      v.string(invalid),
      v.trim(),
      v.maxLength(100, (issue) => message('maxLength', issue.lang, { n: 100 })),
    ),
    '',
  ),
  email: v.optional(
    v.union(
      [
        v.literal(''),
        v.pipe(
          v.string(invalid),
          v.trim(),
          v.maxLength(254, invalid),
          v.email((issue) => message('invalidEmail', issue.lang)),
        ),
      ],
      (issue) => message('invalidEmail', issue.lang),
    ),
    '',
  ),
  phone: v.optional(v.pipe(v.string(invalid), v.trim(), v.regex(/^$|^\+?[0-9 ().-]{8,20}$/, invalid)), ''),
})
export type VisitorSessionInput = v.InferOutput<typeof VisitorSessionInput>

/** The session answer: the signed visitor token (kept in the visitor's localStorage) and when it expires. */
export type VisitorSession = { token: string; visitor_id: string; expires_at: string }

/** POST /widget/attachments/{token}: the stored file, to name in a `message` frame. */
export type VisitorAttachment = { id: string; url: string; name: string; type: VisitorMessageType; mime: string; size: number }

/** GET /api/v1/chat/channels/{id}/embed/: what the channel's settings show to paste into a site. */
export type WidgetEmbed = { token: string; script: string; snippet: string }
