import type { FastifyBaseLogger } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import * as v from 'valibot'
import { issuesToFieldErrors } from '../../../contract/api/errors.ts'
import type { Locale } from '../../../contract/locales.ts'
import { message } from '../../../contract/messages.ts'
import { VISITOR_CLIENT_MESSAGES, VISITOR_CLOSE_CODES } from '../../../contract/realtime/visitor-socket.ts'
import type { VisitorClientMessage, VisitorMessage, VisitorServerMessage } from '../../../contract/realtime/visitor-socket.ts'
import type { Bus } from '../../bus/bus.ts'
import type { VisitorEnvelope, VisitorProfile, VisitorRef, WebchatConversations } from './conversations.ts'
import { VISITOR_CHANNEL } from './conversations.ts'
import type { TokenCheck } from './visitor-token.ts'
import type { TokenBuckets } from './rate-limit.ts'
import { visitorDir, visitorFile } from './attachments.ts'

// The visitor socket (GET /widget/socket/{channel token}, upgraded): anonymous, so it lives beside the host of the
// signed-in sockets (server/realtime/host.ts) rather than in it, with the same rules: Origin decided on the upgrade
// (the channel's allowed domains), frames of at most 64 KB (the shared ws limit), at most 20 a second, every frame
// validated by its schema (contract/realtime/visitor-socket.ts; unknown actions ignored), a `ping` every 25 s and a
// close after 60 s of silence. The first frame must be `hello` with a visitor token of this channel (4401 otherwise);
// frames for a visitor arrive on the bus (`webchat:visitor`), so an agent on instance A reaches a widget on B.

const MAX_FRAMES_PER_SECOND = 20
const HELLO_WITHIN_MS = 10_000

type Visitor = {
  socket: WebSocket
  channelId: number
  siteId: number
  /** Scheme and host the widget reached us on: attachment URLs are absolute (the widget runs on another site). */
  origin: string
  address: string
  lang: Locale
  ref: VisitorRef | null
  profile: VisitorProfile
  lastFrameAt: number
  windowStart: number
  windowFrames: number
  queue: Promise<void>
  closed: boolean
}

export type VisitorSocketOptions = {
  bus: Bus
  log: FastifyBaseLogger
  conversations: WebchatConversations
  mediaDir: string
  checkToken(channelId: number, token: string): TokenCheck
  online(siteId: number, channelId: number): Promise<boolean>
  messagesPerVisitor: TokenBuckets
  messagesPerAddress: TokenBuckets
  timings: { pingMs: number; idleMs: number }
  track<T>(work: Promise<T>): Promise<T>
}

export type VisitorSockets = {
  accept(socket: WebSocket, at: { channelId: number; siteId: number; origin: string; address: string; lang: Locale }): void
  /** A frame for this instance's widgets of one visitor (the core's events, which every instance hears). */
  local(channelId: number, visitorId: string, frame: VisitorServerMessage): void
  /** Open widgets of this instance (tests). */
  count(): number
  close(): Promise<void>
}

export async function visitorSockets(options: VisitorSocketOptions): Promise<VisitorSockets> {
  const { bus, log, conversations } = options
  const byVisitor = new Map<string, Set<Visitor>>()
  const all = new Set<Visitor>()
  const keyOf = (channelId: number, visitorId: string) => `${channelId}:${visitorId}`

  const send = (visitor: Visitor, frame: VisitorServerMessage) => {
    if (visitor.closed || visitor.socket.readyState !== visitor.socket.OPEN) return
    // Attachment URLs are the server's; the widget runs on the customer's site, so they go out absolute.
    const absolute = (m: VisitorMessage): VisitorMessage => (m.attachment?.startsWith('/') ? { ...m, attachment: `${visitor.origin}${m.attachment}` } : m)
    if (frame.action === 'message') frame = { ...frame, message: absolute(frame.message) }
    else if (frame.action === 'messages') frame = { ...frame, messages: frame.messages.map(absolute) }
    visitor.socket.send(JSON.stringify(frame))
  }
  const close = (visitor: Visitor, code: number, reason: string) => {
    if (visitor.closed) return
    visitor.closed = true
    visitor.socket.close(code, reason)
  }

  const off = await bus.subscribe(VISITOR_CHANNEL, (payload) => {
    const envelope = payload as VisitorEnvelope
    const targets = byVisitor.get(keyOf(envelope.channel_id, envelope.visitor_id))
    if (!targets?.size) return
    for (const visitor of targets) send(visitor, envelope.frame)
    // An agent's message reached an open widget: received (spec 001 §4 message delivery).
    const first = [...targets][0]!
    if (envelope.frame.action === 'message' && first.ref) received(first.ref, [envelope.frame.message])
  })

  function received(ref: VisitorRef, messages: VisitorMessage[]): void {
    const agents = messages.filter((m) => m.sent_by === 'agent').map((m) => ({ id: m.id, uid: m.uid }))
    if (!agents.length) return
    options.track(conversations.visitorReceived(ref, agents)).catch((err: unknown) => log.warn({ err }, 'webchat: received status failed'))
  }

  const pingTimer = setInterval(() => {
    const now = Date.now()
    for (const visitor of all) {
      if (now - visitor.lastFrameAt > options.timings.idleMs) close(visitor, VISITOR_CLOSE_CODES.idle, 'idle')
      else send(visitor, { action: 'ping' })
    }
  }, options.timings.pingMs)
  pingTimer.unref()

  function accept(socket: WebSocket, at: { channelId: number; siteId: number; origin: string; address: string; lang: Locale }): void {
    const now = Date.now()
    const visitor: Visitor = {
      socket,
      ...at,
      ref: null,
      profile: { name: '', email: '', phone: '' },
      lastFrameAt: now,
      windowStart: now,
      windowFrames: 0,
      queue: Promise.resolve(),
      closed: false,
    }
    all.add(visitor)
    const helloTimer = setTimeout(() => {
      if (!visitor.ref) close(visitor, VISITOR_CLOSE_CODES.unauthorized, 'no hello')
    }, HELLO_WITHIN_MS)
    socket.on('message', (data, isBinary) => receive(visitor, data, isBinary))
    socket.on('close', () => {
      clearTimeout(helloTimer)
      visitor.closed = true
      all.delete(visitor)
      if (visitor.ref) {
        const key = keyOf(visitor.ref.channelId, visitor.ref.visitorId)
        byVisitor.get(key)?.delete(visitor)
        if (byVisitor.get(key)?.size === 0) byVisitor.delete(key)
      }
    })
  }

  function receive(visitor: Visitor, data: RawData, isBinary: boolean): void {
    const now = Date.now()
    visitor.lastFrameAt = now
    if (now - visitor.windowStart >= 1000) {
      visitor.windowStart = now
      visitor.windowFrames = 0
    }
    if (++visitor.windowFrames > MAX_FRAMES_PER_SECOND) {
      close(visitor, VISITOR_CLOSE_CODES.policy, 'too many frames')
      return
    }
    let frame: unknown
    try {
      if (isBinary) throw new Error('binary frame')
      frame = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8'))
    } catch {
      send(visitor, { action: 'error', detail: message('malformedRequest', visitor.lang), request: null })
      return
    }
    visitor.queue = visitor.queue
      .then(() => options.track(handle(visitor, frame)))
      .catch((err: unknown) => {
        log.error({ err }, 'webchat: visitor frame failed')
        send(visitor, { action: 'error', detail: message('serverError', visitor.lang), request: actionOf(frame) })
      })
  }

  async function handle(visitor: Visitor, frame: unknown): Promise<void> {
    if (visitor.closed) return
    const action = actionOf(frame)
    if (action === null) {
      send(visitor, { action: 'error', detail: message('malformedRequest', visitor.lang), request: null })
      return
    }
    const schema = Object.hasOwn(VISITOR_CLIENT_MESSAGES, action) ? VISITOR_CLIENT_MESSAGES[action as keyof typeof VISITOR_CLIENT_MESSAGES] : undefined
    if (!schema) return
    const parsed = v.safeParse(schema, frame, { lang: visitor.lang, abortPipeEarly: true })
    if (!parsed.success) {
      send(visitor, { action: 'error', detail: message('invalidValue', visitor.lang), request: action, errors: issuesToFieldErrors(parsed.issues) })
      return
    }
    await dispatch(visitor, parsed.output as VisitorClientMessage)
  }

  async function dispatch(visitor: Visitor, frame: VisitorClientMessage): Promise<void> {
    if (frame.action === 'ping') return send(visitor, { action: 'pong' })
    if (frame.action === 'hello') {
      const check = options.checkToken(visitor.channelId, frame.token)
      if (!check.ok) {
        const key = check.status === 403 ? 'visitorSessionOtherChannel' : 'visitorSessionInvalid'
        send(visitor, { action: 'error', detail: message(key, visitor.lang), request: 'hello' })
        return close(visitor, VISITOR_CLOSE_CODES.unauthorized, 'bad visitor token')
      }
      if (visitor.ref) return
      visitor.ref = { siteId: visitor.siteId, channelId: visitor.channelId, visitorId: check.claims.visitorId }
      visitor.profile = check.claims.profile
      const key = keyOf(visitor.channelId, check.claims.visitorId)
      let set = byVisitor.get(key)
      if (!set) byVisitor.set(key, (set = new Set()))
      set.add(visitor)
      send(visitor, { action: 'ready', visitor_id: check.claims.visitorId, online: await options.online(visitor.siteId, visitor.channelId) })
      const agent = await conversations.currentAgent(visitor.ref)
      if (agent) send(visitor, { action: 'agent', ...agent })
      return sendHistory(visitor, frame.cursor)
    }
    if (!visitor.ref) {
      send(visitor, { action: 'error', detail: message('visitorSessionInvalid', visitor.lang), request: frame.action })
      return
    }
    const ref = visitor.ref
    switch (frame.action) {
      case 'resume':
        return sendHistory(visitor, frame.cursor)
      case 'message': {
        const wait = Math.max(options.messagesPerVisitor.take(ref.visitorId), options.messagesPerAddress.take(visitor.address))
        if (wait > 0) {
          send(visitor, { action: 'error', detail: message('tooManyRequests', visitor.lang, { n: wait }), request: 'message' })
          return
        }
        const dir = visitorDir(options.mediaDir, ref.channelId, ref.visitorId)
        const file = frame.attachment ? await visitorFile(dir, ref.channelId, ref.visitorId, frame.attachment) : null
        if (frame.attachment && !file) {
          send(visitor, {
            action: 'error',
            detail: message('invalidValue', visitor.lang),
            request: 'message',
            errors: { attachment: [message('invalidValue', visitor.lang)] },
          })
          return
        }
        const stored = await conversations.deliverVisitorMessage(ref, { uid: frame.uid, content: frame.content.trim(), file, profile: visitor.profile })
        // Every widget of this visitor (other tabs too) shows it; the sender replaces its pending bubble by uid.
        return pushFrame(ref, { action: 'message', message: stored })
      }
      case 'typing':
        return conversations.visitorTyping(ref, frame.typing)
      case 'read':
        return conversations.visitorRead(ref, frame.up_to)
    }
  }

  async function sendHistory(visitor: Visitor, cursor: number | null): Promise<void> {
    const messages = await conversations.history(visitor.ref!, cursor)
    send(visitor, { action: 'messages', messages })
    received(visitor.ref!, messages)
  }

  async function pushFrame(ref: VisitorRef, frame: VisitorServerMessage): Promise<void> {
    const envelope: VisitorEnvelope = { channel_id: ref.channelId, visitor_id: ref.visitorId, frame }
    await bus.publish(VISITOR_CHANNEL, envelope)
  }

  return {
    accept,
    local(channelId, visitorId, frame) {
      for (const visitor of byVisitor.get(keyOf(channelId, visitorId)) ?? []) send(visitor, frame)
    },
    count: () => all.size,
    async close() {
      clearInterval(pingTimer)
      for (const visitor of all) close(visitor, VISITOR_CLOSE_CODES.goingAway, 'server shutting down')
      await off()
    },
  }
}

function actionOf(frame: unknown): string | null {
  if (!frame || typeof frame !== 'object' || Array.isArray(frame)) return null
  const action = (frame as { action?: unknown }).action
  return typeof action === 'string' ? action : null
}
