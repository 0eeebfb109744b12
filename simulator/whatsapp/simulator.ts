import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { customerPage } from './page.ts'
import type { Template } from './templates.ts'
import { demoTemplates, expectedParams, renderTemplate, sentParams } from './templates.ts'
import type { ChangeValue, Delivery, RetryOptions } from './webhooks.ts'
import { DEFAULT_RETRY, Dispatcher } from './webhooks.ts'

// A WhatsApp Business Cloud API simulator: the subset of Meta's Graph API the product's WhatsApp channel uses
// (messages, media, message templates), signed webhooks back to the product (inbound messages and statuses), a control
// API for tests and benches, and a page where a person plays the customer. Self-contained on purpose: it imitates
// Meta from the wire facts (../../shared/design/WHATSAPP.md), so a mismatch with the product shows up instead of being
// hidden by shared types.

export type NumberInput = {
  phone_number_id: string
  waba_id: string
  access_token: string
  app_secret: string
  verify_token?: string
  /** Where webhooks go (the product's /webhooks/whatsapp/<channel>/); empty: nowhere. */
  webhook_url?: string
  /** Digits, e.g. 5511999990000. */
  display_phone_number: string
  verified_name?: string
  /** Overrides the global chaos for this number. */
  chaos?: Partial<Chaos>
}

export type BusinessNumber = Required<Omit<NumberInput, 'chaos'>> & { chaos: Partial<Chaos> }

export type Chaos = {
  /** Probability (0..1) that a webhook is posted twice; 1 = every one. */
  duplicate: number
  /** Statuses out of order: read is posted before delivered. */
  reorder: boolean
  /** Extra wait before each webhook (ms). */
  delayMs: number
  /** Webhooks queued close together travel in one envelope with many entries. */
  multiEntry: boolean
}

export const NO_CHAOS: Chaos = { duplicate: 0, reorder: false, delayMs: 0, multiEntry: false }

export type SimulatorOptions = {
  host?: string
  port?: number
  /** Base of the media URLs handed out (default: the address listened on). */
  publicUrl?: string
  numbers?: NumberInput[]
  /** Templates every new WABA starts with (default: the demo set). */
  templates?: Template[]
  /** The customer-service window (default 24 h). */
  windowMs?: number
  /** Free-form outside the window: `reject` answers HTTP 400 131047; `fail` accepts and posts a failed status. */
  outsideWindow?: 'reject' | 'fail'
  /** Messages per second per business number (default 80). */
  throughputPerSecond?: number
  /** Messages to one customer per `pairWindowMs` (default 45 per 6 s). */
  pairLimit?: number
  pairWindowMs?: number
  /** Lifetime of a media download URL (default 5 min). */
  mediaUrlTtlMs?: number
  /** When the sent and delivered statuses go out after a send (ms). */
  sentDelayMs?: number
  deliveredDelayMs?: number
  /** Read this long after delivered, even with nobody on the page (default: only when the page has it open). */
  autoReadMs?: number | null
  /** Meta's rule: a message arriving while the chat is open is delivered and read at once, and no delivered is sent. */
  skipDeliveredWhenOpen?: boolean
  /**
   * Brazilian mobiles registered before the ninth digit: Meta's wa_id lacks it (55 11 9xxxx-xxxx → 55 11 xxxx-xxxx).
   * On, every Brazilian mobile's wa_id (webhook `from`, `contacts[].wa_id`, `recipient_id`, the send answer) drops it,
   * and a send to either form reaches the same customer.
   */
  brazilWaIdWithoutNinthDigit?: boolean
  chaos?: Partial<Chaos>
  webhook?: Partial<RetryOptions>
  logger?: boolean | { level: string }
  random?: () => number
  now?: () => number
}

export type MessageStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed'
const RANK: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 }

export type WebhookError = { code: number; title: string; message: string; error_data: { details: string }; href: string }

export type SimMessage = {
  id: string
  direction: 'in' | 'out'
  type: string
  /** Unix ms. */
  at: number
  /** The message object: inbound as posted in the webhook, outbound as the product sent it. */
  payload: Record<string, unknown>
  status: MessageStatus
  errors?: WebhookError[]
  /** Outbound templates as the customer sees them. */
  rendered?: ReturnType<typeof renderTemplate>
  /** Every status posted for it, in order. */
  history: { status: MessageStatus; at: number }[]
}

export type Conversation = {
  phone_number_id: string
  wa_id: string
  name: string
  /** Last customer message (Unix ms): the window runs from it. */
  last_inbound_at: number | null
  undeliverable: boolean
  messages: SimMessage[]
  conversation_id: string
}

export type StoredMedia = { id: string; phone_number_id: string; bytes: Buffer; mime_type: string; sha256: string; filename: string | null; created_at: number }

export type SimState = {
  numbers: Map<string, BusinessNumber>
  templates: Map<string, Template[]>
  conversations: Map<string, Conversation>
  media: Map<string, StoredMedia>
  chaos: Chaos
  dispatcher: Dispatcher
  options: ResolvedOptions
}

type ResolvedOptions = Required<Omit<SimulatorOptions, 'publicUrl' | 'numbers' | 'templates' | 'chaos' | 'webhook' | 'logger' | 'autoReadMs'>> & {
  publicUrl: string | undefined
  autoReadMs: number | null
  templates: Template[] | undefined
}

export type InboundInput = {
  phone_number_id: string
  from: string
  name?: string
  type: string
  context?: { id: string }
  /** Media bytes for image/audio/video/document/sticker (base64); a small sample of the right kind when absent. */
  file?: { data: string; mime_type: string; filename?: string }
  chaos?: Partial<Chaos>
  /** Resolve only after the webhook was delivered (or given up). */
  wait?: boolean
  [key: string]: unknown
}

export type Simulator = {
  app: FastifyInstance
  state: SimState
  readonly url: string
  listen(): Promise<string>
  close(): Promise<void>
  addNumber(input: NumberInput): BusinessNumber
  inbound(input: InboundInput): Promise<{ id: string; message: Record<string, unknown>; delivery: Delivery | null }>
  verifyWebhook(phoneNumberId: string): Promise<VerifyResult>
  /** Resolves when no status is scheduled and no webhook is queued or in flight. */
  idle(): Promise<void>
  reset(options?: { numbers?: boolean }): void
}

export type VerifyResult = { ok: boolean; status: number | null; body: string; error: string | null; url: string }

class GraphError extends Error {
  readonly status: number
  readonly body: Record<string, unknown>
  constructor(status: number, code: number, message: string, details?: string, extra: Record<string, unknown> = {}) {
    super(message)
    this.status = status
    this.body = {
      error: {
        message,
        type: extra.type ?? 'OAuthException',
        code,
        ...(details !== undefined ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        ...('error_subcode' in extra ? { error_subcode: extra.error_subcode } : {}),
        fbtrace_id: randomBytes(12).toString('base64url'),
      },
    }
  }
}

class ControlError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const ERRORS = {
  window: {
    code: 131047,
    title: 'Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  throughput: { code: 130429, title: 'Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  pair: {
    code: 131056,
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  undeliverable: { code: 131026, title: 'Message undeliverable', details: 'Unable to deliver message. The recipient may not be a WhatsApp user.' },
  media: { code: 131053, title: 'Media upload error', details: 'Unable to retrieve the media: the media id does not exist or belongs to another number.' },
} as const

function webhookError(kind: keyof typeof ERRORS): WebhookError {
  const e = ERRORS[kind]
  return {
    code: e.code,
    title: e.title,
    message: e.title,
    error_data: { details: e.details },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  }
}

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'] as const
const OUT_TYPES = new Set(['text', ...MEDIA_TYPES, 'location', 'contacts', 'template', 'interactive', 'reaction'])
const IN_TYPES = new Set(['text', ...MEDIA_TYPES, 'location', 'contacts', 'interactive', 'button', 'reaction', 'system'])

/** Meta's accepted upload types and their size caps (bytes). */
const MIME_LIMITS: [RegExp, number][] = [
  [/^image\/webp$/, 500 * 1024],
  [/^image\/(jpeg|png)$/, 5 * 1024 * 1024],
  [/^(audio\/(aac|amr|mpeg|mp4|ogg)|video\/(mp4|3gpp))(;.*)?$/, 16 * 1024 * 1024],
  [
    /^(text\/plain|application\/pdf|application\/vnd\.ms-powerpoint|application\/msword|application\/vnd\.ms-excel|application\/vnd\.openxmlformats-officedocument\.(wordprocessingml\.document|presentationml\.presentation|spreadsheetml\.sheet))$/,
    100 * 1024 * 1024,
  ],
]

/** Small real files for inbound media when a test gives no bytes. */
const SAMPLES: Record<string, { data: Buffer; mime_type: string; filename?: string }> = {
  image: {
    data: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64'),
    mime_type: 'image/png',
  },
  sticker: { data: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'), mime_type: 'image/webp' },
  audio: { data: Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]), mime_type: 'audio/ogg; codecs=opus' },
  video: { data: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(60, 2)]), mime_type: 'video/mp4' },
  document: { data: Buffer.from('%PDF-1.4\n%simulator\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), mime_type: 'application/pdf', filename: 'documento.pdf' },
}

const digits = (value: string) => value.replace(/\D/g, '')
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
const isLoopback = (address: string | undefined) => !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const resolved: ResolvedOptions = {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8091,
    publicUrl: options.publicUrl,
    templates: options.templates,
    windowMs: options.windowMs ?? 24 * 60 * 60 * 1000,
    outsideWindow: options.outsideWindow ?? 'reject',
    throughputPerSecond: options.throughputPerSecond ?? 80,
    pairLimit: options.pairLimit ?? 45,
    pairWindowMs: options.pairWindowMs ?? 6000,
    mediaUrlTtlMs: options.mediaUrlTtlMs ?? 5 * 60 * 1000,
    sentDelayMs: options.sentDelayMs ?? 50,
    deliveredDelayMs: options.deliveredDelayMs ?? 400,
    autoReadMs: options.autoReadMs ?? null,
    skipDeliveredWhenOpen: options.skipDeliveredWhenOpen ?? true,
    brazilWaIdWithoutNinthDigit: options.brazilWaIdWithoutNinthDigit ?? false,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  }
  const initialChaos: Chaos = { ...NO_CHAOS, ...options.chaos }
  const state: SimState = {
    numbers: new Map(),
    templates: new Map(),
    conversations: new Map(),
    media: new Map(),
    chaos: { ...initialChaos },
    dispatcher: new Dispatcher({ ...DEFAULT_RETRY, ...options.webhook }),
    options: resolved,
  }
  const urlSecret = randomBytes(32)
  const now = resolved.now
  const timers = new Set<NodeJS.Timeout>()
  const sent = new Map<string, number[]>()
  const streams = new Set<ServerResponse>()
  const listeners = new Set<(key: string) => void>()
  /** Open customer pages per conversation key. */
  const viewers = new Map<string, number>()
  let listenedUrl = ''

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true })
  void app.register(multipart, { limits: { fileSize: 100 * 1024 * 1024, files: 1 } })
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!
    if ((path === '/' || path.startsWith('/control')) && !isLoopback(request.socket.remoteAddress)) {
      return reply.code(403).send({ error: 'the control API and the customer page answer only on loopback' })
    }
  })

  // ---------------------------------------------------------------------------------------------------------- state

  function addNumber(input: NumberInput): BusinessNumber {
    for (const key of ['phone_number_id', 'waba_id', 'access_token', 'app_secret', 'display_phone_number'] as const) {
      if (typeof input[key] !== 'string' || input[key] === '') throw new ControlError(400, `${key} is required`)
    }
    const number: BusinessNumber = {
      phone_number_id: input.phone_number_id,
      waba_id: input.waba_id,
      access_token: input.access_token,
      app_secret: input.app_secret,
      verify_token: input.verify_token ?? '',
      webhook_url: input.webhook_url ?? '',
      display_phone_number: digits(input.display_phone_number),
      verified_name: input.verified_name ?? 'Atende Demo',
      chaos: input.chaos ?? {},
    }
    state.numbers.set(number.phone_number_id, number)
    if (!state.templates.has(number.waba_id)) state.templates.set(number.waba_id, structuredClone(resolved.templates ?? demoTemplates()))
    return number
  }
  for (const number of options.numbers ?? []) addNumber(number)

  const keyOf = (phoneNumberId: string, waId: string) => `${phoneNumberId}:${waId}`
  /** A customer's number as WhatsApp identifies it. */
  const waIdOf = (number: string) => {
    const plain = digits(number)
    const old = resolved.brazilWaIdWithoutNinthDigit ? /^55(\d{2})9(\d{8})$/.exec(plain) : null
    return old ? `55${old[1]}${old[2]}` : plain
  }

  function conversation(phoneNumberId: string, waId: string, name?: string): Conversation {
    const key = keyOf(phoneNumberId, waId)
    let found = state.conversations.get(key)
    if (!found) {
      found = {
        phone_number_id: phoneNumberId,
        wa_id: waId,
        name: name ?? '',
        last_inbound_at: null,
        undeliverable: false,
        messages: [],
        conversation_id: randomBytes(16).toString('hex'),
      }
      state.conversations.set(key, found)
    } else if (name) found.name = name
    return found
  }

  const changed = (conv: Conversation) => {
    const key = keyOf(conv.phone_number_id, conv.wa_id)
    for (const listener of listeners) listener(key)
  }

  const chaosFor = (number: BusinessNumber, call?: Partial<Chaos>): Chaos => ({ ...state.chaos, ...number.chaos, ...call })

  function later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  const wamid = () => `wamid.${randomBytes(30).toString('base64')}`
  const mediaId = () => String(1e15 + Math.floor(resolved.random() * 8e15))
  const seconds = (ms: number) => String(Math.floor(ms / 1000))

  function storeMedia(phoneNumberId: string, bytes: Buffer, mimeType: string, filename: string | null): StoredMedia {
    const media: StoredMedia = {
      id: mediaId(),
      phone_number_id: phoneNumberId,
      bytes,
      mime_type: mimeType,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      filename,
      created_at: now(),
    }
    state.media.set(media.id, media)
    return media
  }

  const baseUrl = () => resolved.publicUrl ?? listenedUrl
  function mediaUrl(media: StoredMedia): string {
    const expires = now() + resolved.mediaUrlTtlMs
    const sig = createHmac('sha256', urlSecret).update(`${media.id}.${expires}`).digest('base64url')
    return `${baseUrl()}/media/download/${media.id}?expires=${expires}&sig=${sig}`
  }

  // -------------------------------------------------------------------------------------------------------- webhooks

  function post(number: BusinessNumber, value: ChangeValue, chaos: Chaos): Promise<Delivery | null> {
    if (!number.webhook_url) return Promise.resolve(null)
    const copies = chaos.duplicate > 0 && resolved.random() < chaos.duplicate ? 2 : 1
    return state.dispatcher.send({ url: number.webhook_url, appSecret: number.app_secret }, [{ id: number.waba_id, changes: [{ value, field: 'messages' }] }], {
      copies,
      delayMs: chaos.delayMs,
      multiEntry: chaos.multiEntry,
    })
  }

  const metadata = (number: BusinessNumber) => ({ display_phone_number: number.display_phone_number, phone_number_id: number.phone_number_id })

  /** Moves an outbound message's status forward and posts the status webhook (a failed one carries its errors). */
  function emitStatus(conv: Conversation, message: SimMessage, status: MessageStatus, errors?: WebhookError[]): void {
    const number = state.numbers.get(conv.phone_number_id)
    if (!number) return
    if (RANK[status] > RANK[message.status] || (status === 'failed' && message.status !== 'failed')) {
      message.status = status
      if (errors) message.errors = errors
    }
    const at = now()
    message.history.push({ status, at })
    const category = message.type === 'template' ? String((message.payload.template as { category?: string })?.category ?? 'utility') : 'service'
    const item: Record<string, unknown> = { id: message.id, status, timestamp: seconds(at), recipient_id: conv.wa_id }
    if (status === 'sent' || status === 'delivered') {
      item.conversation = { id: conv.conversation_id, expiration_timestamp: seconds(at + 24 * 3600 * 1000), origin: { type: category } }
      item.pricing = { billable: category !== 'service', pricing_model: 'PMP', category, type: category === 'service' ? 'free_customer_service' : 'regular' }
    }
    if (errors) item.errors = errors
    const opaque = message.payload.biz_opaque_callback_data
    if (typeof opaque === 'string') item.biz_opaque_callback_data = opaque
    void post(number, { messaging_product: 'whatsapp', metadata: metadata(number), statuses: [item] }, chaosFor(number))
    changed(conv)
  }

  /** After a send: sent, delivered (or read at once when the page has it open), read later if so configured. */
  function scheduleStatuses(conv: Conversation, message: SimMessage, failure?: WebhookError[]): void {
    const number = state.numbers.get(conv.phone_number_id)!
    if (failure) return later(resolved.sentDelayMs, () => emitStatus(conv, message, 'failed', failure))
    const chaos = chaosFor(number)
    later(resolved.sentDelayMs, () => {
      emitStatus(conv, message, 'sent')
      later(Math.max(0, resolved.deliveredDelayMs - resolved.sentDelayMs), () => {
        if (message.status !== 'sent') return
        const open = (viewers.get(keyOf(conv.phone_number_id, conv.wa_id)) ?? 0) > 0
        if (chaos.reorder) {
          emitStatus(conv, message, 'read')
          emitStatus(conv, message, 'delivered')
          return
        }
        if (open && resolved.skipDeliveredWhenOpen) return emitStatus(conv, message, 'read')
        emitStatus(conv, message, 'delivered')
        if (open) emitStatus(conv, message, 'read')
        else if (resolved.autoReadMs !== null) later(resolved.autoReadMs, () => readAll(conv))
      })
    })
  }

  /** The customer saw the chat: every delivered outbound message is read. */
  function readAll(conv: Conversation): void {
    for (const message of conv.messages) if (message.direction === 'out' && message.status === 'delivered') emitStatus(conv, message, 'read')
  }

  // --------------------------------------------------------------------------------------------------------- inbound

  async function inbound(input: InboundInput): Promise<{ id: string; message: Record<string, unknown>; delivery: Delivery | null }> {
    if (!isObject(input)) throw new ControlError(400, 'a JSON object is required')
    const number = state.numbers.get(String(input.phone_number_id ?? ''))
    if (!number) throw new ControlError(404, `no business number ${String(input.phone_number_id)}`)
    const from = waIdOf(String(input.from ?? ''))
    if (from.length < 8 || from.length > 15) throw new ControlError(400, 'from must be the customer number (8 to 15 digits)')
    const type = String(input.type ?? '')
    if (!IN_TYPES.has(type)) throw new ControlError(400, `type must be one of ${[...IN_TYPES].join(', ')}`)
    const conv = conversation(number.phone_number_id, from, typeof input.name === 'string' ? input.name : undefined)
    const at = now()
    const message: Record<string, unknown> = { from, id: wamid(), timestamp: seconds(at), type }
    if (isObject(input.context) && typeof input.context.id === 'string') message.context = { from: number.display_phone_number, id: input.context.id }
    const body = isObject(input[type]) ? (input[type] as Record<string, unknown>) : {}
    const need = (cond: unknown, what: string) => {
      if (!cond) throw new ControlError(400, what)
    }
    switch (type) {
      case 'text':
        need(typeof body.body === 'string' && body.body.length > 0 && body.body.length <= 4096, 'text.body is required (up to 4096 characters)')
        message.text = { body: body.body }
        break
      case 'image':
      case 'video':
      case 'audio':
      case 'document':
      case 'sticker': {
        const sample = SAMPLES[type]!
        let bytes = sample.data
        let mimeType = sample.mime_type
        let filename = sample.filename ?? null
        if (input.file !== undefined) {
          need(
            isObject(input.file) && typeof input.file.data === 'string' && typeof input.file.mime_type === 'string',
            'file must be {data (base64), mime_type}',
          )
          bytes = Buffer.from(input.file.data, 'base64')
          mimeType = input.file.mime_type
          filename = typeof input.file.filename === 'string' ? input.file.filename : filename
          need(bytes.length > 0, 'file.data is empty')
        }
        const media = storeMedia(number.phone_number_id, bytes, mimeType, filename)
        const object: Record<string, unknown> = { mime_type: media.mime_type, sha256: media.sha256, id: media.id, url: mediaUrl(media) }
        if ((type === 'image' || type === 'video' || type === 'document') && typeof body.caption === 'string') object.caption = body.caption
        if (type === 'document') object.filename = typeof body.filename === 'string' ? body.filename : (filename ?? 'document')
        if (type === 'audio') object.voice = body.voice === true
        if (type === 'sticker') object.animated = false
        message[type] = object
        break
      }
      case 'location': {
        const latitude = Number(body.latitude)
        const longitude = Number(body.longitude)
        need(
          Number.isFinite(latitude) && Math.abs(latitude) <= 90 && Number.isFinite(longitude) && Math.abs(longitude) <= 180,
          'location.latitude/longitude are required',
        )
        message.location = {
          latitude,
          longitude,
          ...(typeof body.name === 'string' ? { name: body.name } : {}),
          ...(typeof body.address === 'string' ? { address: body.address } : {}),
          ...(typeof body.url === 'string' ? { url: body.url } : {}),
        }
        break
      }
      case 'contacts':
        need(Array.isArray(input.contacts) && input.contacts.length > 0, 'contacts must be a non-empty array')
        need(
          (input.contacts as unknown[]).every((c) => isObject(c) && isObject(c.name) && typeof c.name.formatted_name === 'string'),
          'each contact needs name.formatted_name',
        )
        message.contacts = input.contacts
        break
      case 'interactive': {
        const kind = body.type
        need(kind === 'button_reply' || kind === 'list_reply', 'interactive.type must be button_reply or list_reply')
        const reply = body[kind as string]
        need(isObject(reply) && typeof reply.id === 'string' && typeof reply.title === 'string', `interactive.${String(kind)} needs id and title`)
        message.interactive = { type: kind, [kind as string]: reply }
        break
      }
      case 'button':
        need(typeof body.text === 'string', 'button.text is required')
        message.button = { payload: typeof body.payload === 'string' ? body.payload : body.text, text: body.text }
        break
      case 'reaction':
        need(typeof body.message_id === 'string' && typeof body.emoji === 'string', 'reaction needs message_id and emoji')
        message.reaction = { message_id: body.message_id, emoji: body.emoji }
        break
      case 'system': {
        const newId = waIdOf(String(body.wa_id ?? body.new_wa_id ?? ''))
        need(newId.length >= 8, 'system.wa_id (the new number) is required')
        message.system = { body: `User ${conv.name || from} changed from ${from} to ${newId}`, wa_id: newId, type: 'user_changed_number' }
        break
      }
    }
    const stored: SimMessage = { id: message.id as string, direction: 'in', type, at, payload: message, status: 'sent', history: [{ status: 'sent', at }] }
    conv.messages.push(stored)
    if (type !== 'system') conv.last_inbound_at = at
    // Writing from an open chat: the customer has seen everything before it.
    if ((viewers.get(keyOf(conv.phone_number_id, conv.wa_id)) ?? 0) > 0) readAll(conv)
    changed(conv)
    const value: ChangeValue = { messaging_product: 'whatsapp', metadata: metadata(number) }
    if (type !== 'system') value.contacts = [{ profile: { name: conv.name }, wa_id: from }]
    value.messages = [message]
    const delivering = post(number, value, chaosFor(number, isObject(input.chaos) ? input.chaos : undefined)).then((delivery) => {
      if (delivery?.ok && stored.status === 'sent') {
        stored.status = 'delivered'
        stored.history.push({ status: 'delivered', at: now() })
        changed(conv)
      }
      return delivery
    })
    const delivery = input.wait ? await delivering : null
    return { id: stored.id, message, delivery }
  }

  // ----------------------------------------------------------------------------------------------------- graph: auth

  function bearer(request: FastifyRequest): string {
    const header = request.headers.authorization ?? ''
    const match = /^Bearer\s+(.+)$/i.exec(header)
    if (match) return match[1]!.trim()
    const query = request.query as Record<string, unknown>
    return typeof query.access_token === 'string' ? query.access_token : ''
  }

  const unauthorized = () => new GraphError(401, 190, 'Invalid OAuth access token - Cannot parse access token', undefined, { type: 'OAuthException' })
  const unknownObject = (id: string, verb: 'get' | 'post') =>
    new GraphError(
      400,
      100,
      `Unsupported ${verb} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      undefined,
      { type: 'GraphMethodException', error_subcode: 33 },
    )
  const invalid = (details: string) => new GraphError(400, 100, '(#100) Invalid parameter', details)

  function numberFor(request: FastifyRequest, phoneNumberId: string, verb: 'get' | 'post'): BusinessNumber {
    const token = bearer(request)
    if (!token) throw new GraphError(401, 190, 'An active access token must be used to query information about the current user.')
    const number = state.numbers.get(phoneNumberId)
    if (!number) {
      if (![...state.numbers.values()].some((n) => sameSecret(n.access_token, token))) throw unauthorized()
      throw unknownObject(phoneNumberId, verb)
    }
    if (!sameSecret(number.access_token, token)) throw unauthorized()
    return number
  }

  function checkVersion(version: string): void {
    if (!/^v\d+(\.\d+)?$/.test(version)) throw new GraphError(400, 2500, `Unknown path components: /${version}`)
  }

  // ------------------------------------------------------------------------------------------------- graph: messages

  function rate(key: string, windowMs: number, limit: number): boolean {
    const t = now()
    const list = (sent.get(key) ?? []).filter((at) => at > t - windowMs)
    if (list.length >= limit) {
      sent.set(key, list)
      return false
    }
    list.push(t)
    sent.set(key, list)
    return true
  }

  function validateOutbound(type: string, body: Record<string, unknown>): Record<string, unknown> {
    const object = body[type]
    if (type === 'contacts') {
      if (!Array.isArray(object) || object.length === 0) throw invalid('contacts must be a non-empty array')
      for (const contact of object) {
        if (!isObject(contact) || !isObject(contact.name) || typeof contact.name.formatted_name !== 'string' || contact.name.formatted_name === '')
          throw invalid('contacts[].name.formatted_name is required')
        const name = contact.name
        if (!['first_name', 'last_name', 'middle_name', 'suffix', 'prefix'].some((k) => typeof name[k] === 'string' && name[k] !== ''))
          throw invalid('contacts[].name needs at least one of first_name, last_name, middle_name, suffix, prefix')
      }
      return { contacts: object }
    }
    if (!isObject(object)) throw invalid(`Parameter ${type} is required for type ${type}`)
    switch (type) {
      case 'text':
        if (typeof object.body !== 'string' || object.body.trim() === '') throw invalid('text.body is required')
        if (object.body.length > 4096) throw invalid('text.body is too long (4096 characters at most)')
        break
      case 'image':
      case 'video':
      case 'audio':
      case 'document':
      case 'sticker': {
        const hasId = typeof object.id === 'string' && object.id !== ''
        const hasLink = typeof object.link === 'string' && object.link !== ''
        if (hasId === hasLink) throw invalid(`${type} needs exactly one of id or link`)
        if (hasLink && !/^https?:\/\/[^\s/]+/i.test(object.link as string)) throw invalid(`${type}.link must be an http(s) URL`)
        if ('caption' in object && (type === 'audio' || type === 'sticker')) throw invalid(`${type} does not take a caption`)
        if (type === 'audio' && 'voice' in object && typeof object.voice !== 'boolean') throw invalid('audio.voice must be a boolean')
        if (typeof object.caption === 'string' && object.caption.length > 1024) throw invalid('caption is too long (1024 characters at most)')
        break
      }
      case 'location': {
        const lat = Number(object.latitude)
        const lng = Number(object.longitude)
        if (
          object.latitude === undefined ||
          object.longitude === undefined ||
          !Number.isFinite(lat) ||
          !Number.isFinite(lng) ||
          Math.abs(lat) > 90 ||
          Math.abs(lng) > 180
        )
          throw invalid('location.latitude and location.longitude are required')
        break
      }
      case 'interactive':
        if (typeof object.type !== 'string' || !isObject(object.body) || typeof object.body.text !== 'string')
          throw invalid('interactive needs type and body.text')
        if (!isObject(object.action)) throw invalid('interactive.action is required')
        break
      case 'reaction':
        if (typeof object.message_id !== 'string' || typeof object.emoji !== 'string') throw invalid('reaction needs message_id and emoji')
        break
      case 'template':
        if (typeof object.name !== 'string' || object.name === '') throw invalid('template.name is required')
        if (!isObject(object.language) || typeof object.language.code !== 'string') throw invalid('template.language.code is required')
        if (object.components !== undefined && !Array.isArray(object.components)) throw invalid('template.components must be an array')
        break
    }
    return { [type]: object }
  }

  function checkTemplate(number: BusinessNumber, object: Record<string, unknown>): Template {
    const name = object.name as string
    const code = (object.language as { code: string }).code
    const list = state.templates.get(number.waba_id) ?? []
    const template = list.find((t) => t.name === name && t.language === code && t.status === 'APPROVED')
    if (!template)
      throw new GraphError(400, 132001, '(#132001) Template name does not exist in the translation', `template name (${name}) does not exist in ${code}`, {
        error_subcode: 2494073,
      })
    const expected = expectedParams(template)
    const given = sentParams(object.components)
    const mismatch = (what: string, got: number, want: number) =>
      new GraphError(
        400,
        132000,
        '(#132000) Number of parameters does not match the expected number of params',
        `${what}: number of localizable_params (${got}) does not match the expected number of params (${want})`,
      )
    if (given.body.length !== expected.body) throw mismatch('body', given.body.length, expected.body)
    if (given.header.length !== expected.header) throw mismatch('header', given.header.length, expected.header)
    if (expected.headerFormat && expected.headerFormat !== 'TEXT' && expected.header === 1) {
      const kind = expected.headerFormat.toLowerCase()
      const param = given.header[0]!
      if (param.type !== kind || !isObject(param[kind])) throw invalid(`header parameter must be of type ${kind}`)
    }
    for (const index of expected.urlButtons)
      if ((given.buttons.get(index)?.length ?? 0) !== 1) throw mismatch(`button ${index}`, given.buttons.get(index)?.length ?? 0, 1)
    return template
  }

  function sendMessage(number: BusinessNumber, body: Record<string, unknown>): Record<string, unknown> {
    if (body.messaging_product !== 'whatsapp') throw invalid('The parameter messaging_product is required and must be whatsapp.')
    // Mark as read (and optionally show typing): the customer sees blue ticks on their own messages.
    if (body.status === 'read') {
      if (typeof body.message_id !== 'string') throw invalid('message_id is required')
      for (const conv of state.conversations.values()) {
        if (conv.phone_number_id !== number.phone_number_id) continue
        const index = conv.messages.findIndex((m) => m.id === body.message_id && m.direction === 'in')
        if (index < 0) continue
        for (const message of conv.messages.slice(0, index + 1)) {
          if (message.direction === 'in' && message.status !== 'read') {
            message.status = 'read'
            message.history.push({ status: 'read', at: now() })
          }
        }
        changed(conv)
        return { success: true }
      }
      throw invalid(`Message ${body.message_id} does not exist for this number`)
    }
    if (body.recipient_type !== undefined && body.recipient_type !== 'individual') throw invalid('recipient_type must be individual')
    const input = typeof body.to === 'string' ? body.to : ''
    const to = waIdOf(input)
    if (to.length < 8 || to.length > 15) throw invalid('The parameter to is required and must be a phone number.')
    const type = typeof body.type === 'string' ? body.type : 'text'
    if (!OUT_TYPES.has(type)) throw invalid(`Param type must be one of {${[...OUT_TYPES].join(', ')}}`)
    const content = validateOutbound(type, body)
    if (body.context !== undefined && !(isObject(body.context) && typeof body.context.message_id === 'string'))
      throw invalid('context.message_id must be a string')
    const template = type === 'template' ? checkTemplate(number, body.template as Record<string, unknown>) : null
    if (!rate(`tp:${number.phone_number_id}`, 1000, resolved.throughputPerSecond))
      throw new GraphError(400, ERRORS.throughput.code, `(#${ERRORS.throughput.code}) ${ERRORS.throughput.title}`, ERRORS.throughput.details)
    if (!rate(`pair:${number.phone_number_id}:${to}`, resolved.pairWindowMs, resolved.pairLimit))
      throw new GraphError(400, ERRORS.pair.code, `(#${ERRORS.pair.code}) ${ERRORS.pair.title}`, ERRORS.pair.details)
    const conv = conversation(number.phone_number_id, to)
    const open = conv.last_inbound_at !== null && now() - conv.last_inbound_at < resolved.windowMs
    let failure: WebhookError[] | undefined
    if (!template && !open) {
      if (resolved.outsideWindow === 'reject')
        throw new GraphError(400, ERRORS.window.code, `(#${ERRORS.window.code}) ${ERRORS.window.title}`, ERRORS.window.details)
      failure = [webhookError('window')]
    }
    if (!failure && conv.undeliverable) failure = [webhookError('undeliverable')]
    const media = MEDIA_TYPES.includes(type as (typeof MEDIA_TYPES)[number]) ? (content[type] as Record<string, unknown>) : null
    if (!failure && media && typeof media.id === 'string') {
      const stored = state.media.get(media.id)
      if (!stored || stored.phone_number_id !== number.phone_number_id) failure = [webhookError('media')]
    }
    const at = now()
    const payload: Record<string, unknown> = { ...body, to }
    if (template) payload.template = { ...(body.template as object), category: template.category.toLowerCase() }
    const message: SimMessage = {
      id: wamid(),
      direction: 'out',
      type,
      at,
      payload,
      status: 'accepted',
      history: [],
      ...(template ? { rendered: renderTemplate(template, (body.template as { components?: unknown }).components) } : {}),
    }
    conv.messages.push(message)
    changed(conv)
    scheduleStatuses(conv, message, failure)
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input, wa_id: to }],
      messages: [{ id: message.id, ...(template ? { message_status: 'accepted' } : {}) }],
    }
  }

  // ---------------------------------------------------------------------------------------------------------- routes

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof GraphError) return reply.code(error.status).send(error.body)
    if (error instanceof ControlError) return reply.code(error.status).send({ error: error.message })
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
    if (status === 500) request.log.error({ err: error }, 'simulator error')
    if (request.url.startsWith('/control')) return reply.code(status).send({ error: error.message })
    return reply.code(status).send(new GraphError(status, 100, `(#100) ${error.message}`).body)
  })
  app.setNotFoundHandler((request, reply) => {
    reply.code(400).send(new GraphError(400, 2500, `Unknown path components: ${request.url.split('?')[0]}`).body)
  })

  app.post('/:version/:phoneNumberId/messages', async (request) => {
    const { version, phoneNumberId } = request.params as { version: string; phoneNumberId: string }
    checkVersion(version)
    const number = numberFor(request, phoneNumberId, 'post')
    if (!isObject(request.body)) throw invalid('A JSON body is required')
    return sendMessage(number, request.body)
  })

  app.post('/:version/:phoneNumberId/media', async (request) => {
    const { version, phoneNumberId } = request.params as { version: string; phoneNumberId: string }
    checkVersion(version)
    const number = numberFor(request, phoneNumberId, 'post')
    if (!request.isMultipart()) throw invalid('Upload the media as multipart/form-data with file, type and messaging_product')
    const fields: Record<string, string> = {}
    let file: { bytes: Buffer; mime: string; filename: string } | null = null
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer()
        if (part.fieldname === 'file') file = { bytes, mime: part.mimetype, filename: part.filename }
      } else fields[part.fieldname] = String(part.value)
    }
    if (fields.messaging_product !== 'whatsapp') throw invalid('The parameter messaging_product is required and must be whatsapp.')
    if (!file || file.bytes.length === 0) throw invalid('The parameter file is required.')
    const mime = (fields.type || file.mime || '').toLowerCase()
    const limit = MIME_LIMITS.find(([pattern]) => pattern.test(mime))?.[1]
    if (!limit) throw invalid(`Param file must be a file with one of the supported types; ${mime || 'no type'} is not supported`)
    if (file.bytes.length > limit) throw invalid(`The file is larger than the ${limit} bytes allowed for ${mime}`)
    return { id: storeMedia(number.phone_number_id, file.bytes, mime, file.filename || null).id }
  })

  function ownedMedia(request: FastifyRequest, id: string, verb: 'get' | 'post'): StoredMedia {
    const token = bearer(request)
    if (!token) throw new GraphError(401, 190, 'An active access token must be used to query information about the current user.')
    const media = state.media.get(id)
    const owner = media ? state.numbers.get(media.phone_number_id) : undefined
    if (!media || !owner) {
      if (![...state.numbers.values()].some((n) => sameSecret(n.access_token, token))) throw unauthorized()
      throw unknownObject(id, verb)
    }
    if (!sameSecret(owner.access_token, token)) throw unauthorized()
    const query = request.query as Record<string, unknown>
    if (typeof query.phone_number_id === 'string' && query.phone_number_id !== media.phone_number_id)
      throw invalid('The media does not belong to this phone number')
    return media
  }

  app.get('/:version/:mediaId', async (request) => {
    const { version, mediaId } = request.params as { version: string; mediaId: string }
    checkVersion(version)
    const media = ownedMedia(request, mediaId, 'get')
    return {
      messaging_product: 'whatsapp',
      url: mediaUrl(media),
      mime_type: media.mime_type,
      sha256: media.sha256,
      file_size: String(media.bytes.length),
      id: media.id,
    }
  })

  app.delete('/:version/:mediaId', async (request) => {
    const { version, mediaId } = request.params as { version: string; mediaId: string }
    checkVersion(version)
    const media = ownedMedia(request, mediaId, 'post')
    state.media.delete(media.id)
    return { success: true }
  })

  app.get('/media/download/:mediaId', async (request, reply) => {
    const { mediaId } = request.params as { mediaId: string }
    const { expires, sig } = request.query as { expires?: string; sig?: string }
    const expected = createHmac('sha256', urlSecret).update(`${mediaId}.${expires}`).digest('base64url')
    if (typeof sig !== 'string' || !sameSecret(sig, expected)) return reply.code(404).send({ error: 'not found' })
    const media = state.media.get(mediaId)
    if (!media || Number(expires) < now()) return reply.code(404).send({ error: 'not found' })
    const owner = state.numbers.get(media.phone_number_id)
    const token = bearer(request)
    if (!owner || !token || !sameSecret(owner.access_token, token)) return reply.code(401).send(unauthorized().body)
    return reply.header('content-type', media.mime_type).header('content-length', media.bytes.length).send(media.bytes)
  })

  app.get('/:version/:wabaId/message_templates', async (request) => {
    const { version, wabaId } = request.params as { version: string; wabaId: string }
    checkVersion(version)
    const token = bearer(request)
    const numbers = [...state.numbers.values()]
    if (!token || !numbers.some((n) => sameSecret(n.access_token, token))) throw unauthorized()
    if (!numbers.some((n) => n.waba_id === wabaId && sameSecret(n.access_token, token))) throw unknownObject(wabaId, 'get')
    const query = request.query as Record<string, string | undefined>
    const limit = query.limit === undefined ? 25 : Number(query.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit must be a whole number from 1 to 1000')
    let list = state.templates.get(wabaId) ?? []
    if (query.name) list = list.filter((t) => t.name.includes(query.name!))
    if (query.status) list = list.filter((t) => t.status === query.status!.toUpperCase())
    if (query.language) list = list.filter((t) => t.language === query.language)
    const cursor = (index: number) => Buffer.from(`sim:${index}`).toString('base64url')
    const decode = (value: string) => {
      const match = /^sim:(\d+)$/.exec(Buffer.from(value, 'base64url').toString())
      if (!match) throw invalid('Invalid cursor')
      return Number(match[1])
    }
    let start = 0
    if (query.after) start = decode(query.after) + 1
    else if (query.before) start = Math.max(0, decode(query.before) - limit)
    const page = list.slice(start, start + limit)
    const paging: Record<string, unknown> = { cursors: page.length ? { before: cursor(start), after: cursor(start + page.length - 1) } : {} }
    const link = (params: Record<string, string>) => {
      const url = new URL(`${baseUrl()}/${version}/${wabaId}/message_templates`)
      for (const [k, v] of Object.entries({ ...query, ...params }))
        if (v !== undefined && k !== 'after' && k !== 'before' && k !== 'access_token') url.searchParams.set(k, v)
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
      return url.toString()
    }
    if (start + page.length < list.length) paging.next = link({ limit: String(limit), after: cursor(start + page.length - 1) })
    if (start > 0 && page.length) paging.previous = link({ limit: String(limit), before: cursor(start) })
    return { data: page, paging }
  })

  // ---------------------------------------------------------------------------------------------------- control API

  const publicNumber = (n: BusinessNumber) => ({ ...n })
  const conversationView = (conv: Conversation) => ({
    phone_number_id: conv.phone_number_id,
    wa_id: conv.wa_id,
    name: conv.name,
    last_inbound_at: conv.last_inbound_at,
    window_open: conv.last_inbound_at !== null && now() - conv.last_inbound_at < resolved.windowMs,
    undeliverable: conv.undeliverable,
    messages: conv.messages.map((m) => ({
      id: m.id,
      direction: m.direction,
      type: m.type,
      at: m.at,
      status: m.status,
      payload: m.payload,
      ...(m.errors ? { errors: m.errors } : {}),
      ...(m.rendered ? { rendered: m.rendered } : {}),
      history: m.history,
    })),
  })

  function requireConversation(query: Record<string, unknown>): Conversation {
    const phoneNumberId = String(query.phone_number_id ?? '')
    if (!state.numbers.has(phoneNumberId)) throw new ControlError(404, `no business number ${phoneNumberId}`)
    const waId = waIdOf(String(query.wa_id ?? ''))
    if (waId.length < 8) throw new ControlError(400, 'wa_id (the customer number) is required')
    return conversation(phoneNumberId, waId, typeof query.name === 'string' && query.name ? query.name : undefined)
  }

  app.get('/', async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(customerPage()))

  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send())
  app.get('/control/health', async () => ({ ok: true, numbers: state.numbers.size }))

  app.get('/control/numbers', async () => [...state.numbers.values()].map(publicNumber))
  app.post('/control/numbers', async (request) => publicNumber(addNumber((request.body ?? {}) as NumberInput)))
  app.patch('/control/numbers/:id', async (request) => {
    const number = state.numbers.get((request.params as { id: string }).id)
    if (!number) throw new ControlError(404, 'no such business number')
    const body = (isObject(request.body) ? request.body : {}) as Partial<NumberInput>
    return publicNumber(addNumber({ ...number, ...body, phone_number_id: number.phone_number_id }))
  })
  app.delete('/control/numbers/:id', async (request) => {
    const id = (request.params as { id: string }).id
    if (!state.numbers.delete(id)) throw new ControlError(404, 'no such business number')
    return { ok: true }
  })
  app.post('/control/numbers/:id/verify', async (request) => verifyWebhook((request.params as { id: string }).id))

  app.post('/control/inbound', async (request) => {
    const result = await inbound((request.body ?? {}) as InboundInput)
    return { id: result.id, message: result.message, delivery: result.delivery && deliveryView(result.delivery) }
  })

  app.get('/control/conversations', async (request) => {
    const query = request.query as Record<string, string | undefined>
    if (query.wa_id) return conversationView(requireConversation(query))
    return [...state.conversations.values()]
      .filter((c) => !query.phone_number_id || c.phone_number_id === query.phone_number_id)
      .map((c) => ({ phone_number_id: c.phone_number_id, wa_id: c.wa_id, name: c.name, messages: c.messages.length, last_inbound_at: c.last_inbound_at }))
  })

  app.post('/control/customers', async (request) => {
    const body = (isObject(request.body) ? request.body : {}) as Record<string, unknown>
    const conv = requireConversation(body)
    if (typeof body.undeliverable === 'boolean') conv.undeliverable = body.undeliverable
    changed(conv)
    return conversationView(conv)
  })

  app.post('/control/window/expire', async (request) => {
    const conv = requireConversation((isObject(request.body) ? request.body : {}) as Record<string, unknown>)
    conv.last_inbound_at = conv.last_inbound_at === null ? null : now() - resolved.windowMs - 1
    changed(conv)
    return conversationView(conv)
  })

  app.post('/control/read', async (request) => {
    const conv = requireConversation((isObject(request.body) ? request.body : {}) as Record<string, unknown>)
    readAll(conv)
    return conversationView(conv)
  })

  app.post('/control/status', async (request) => {
    const body = (isObject(request.body) ? request.body : {}) as Record<string, unknown>
    const status = String(body.status ?? '') as MessageStatus
    if (!['sent', 'delivered', 'read', 'failed'].includes(status)) throw new ControlError(400, 'status must be sent, delivered, read or failed')
    for (const conv of state.conversations.values()) {
      const message = conv.messages.find((m) => m.id === body.id && m.direction === 'out')
      if (!message) continue
      const errors = status === 'failed' ? (Array.isArray(body.errors) ? (body.errors as WebhookError[]) : [webhookError('undeliverable')]) : undefined
      emitStatus(conv, message, status, errors)
      return { ok: true }
    }
    throw new ControlError(404, 'no outbound message with that id')
  })

  app.get('/control/chaos', async () => state.chaos)
  app.post('/control/chaos', async (request) => {
    const body = (isObject(request.body) ? request.body : {}) as Partial<Chaos>
    const next: Chaos = { ...state.chaos, ...body }
    if (typeof next.duplicate !== 'number' || next.duplicate < 0 || next.duplicate > 1) throw new ControlError(400, 'duplicate is a probability from 0 to 1')
    if (typeof next.delayMs !== 'number' || next.delayMs < 0) throw new ControlError(400, 'delayMs must be 0 or more')
    state.chaos = { duplicate: next.duplicate, reorder: !!next.reorder, delayMs: next.delayMs, multiEntry: !!next.multiEntry }
    return state.chaos
  })

  app.post('/control/templates', async (request) => {
    const body = (isObject(request.body) ? request.body : {}) as { waba_id?: string; templates?: Template[] }
    if (typeof body.waba_id !== 'string' || !Array.isArray(body.templates)) throw new ControlError(400, 'waba_id and templates are required')
    state.templates.set(body.waba_id, body.templates)
    return { ok: true, count: body.templates.length }
  })

  const deliveryView = (d: Delivery) => ({
    id: d.id,
    url: d.url,
    ok: d.ok,
    done: d.done,
    duplicate: d.duplicate,
    attempts: d.attempts,
    body: JSON.parse(d.body),
  })
  app.get('/control/webhooks', async () => state.dispatcher.log.map(deliveryView))

  app.post('/control/reset', async (request) => {
    reset({ numbers: isObject(request.body) && request.body.numbers === true })
    return { ok: true }
  })

  // The customer page's own views: media bytes without a token (loopback only) and live conversation updates.
  app.get('/control/media/:id', async (request, reply) => {
    const media = state.media.get((request.params as { id: string }).id)
    if (!media) return reply.code(404).send({ error: 'not found' })
    return reply.header('content-type', media.mime_type).header('cache-control', 'private, max-age=3600').send(media.bytes)
  })

  app.get('/control/events', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>
    const conv = requireConversation(query)
    const key = keyOf(conv.phone_number_id, conv.wa_id)
    const open = query.open === '1'
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' })
    streams.add(res)
    let pending = false
    const push = () => {
      if (pending) return
      pending = true
      setImmediate(() => {
        pending = false
        if (!res.writableEnded) res.write(`data: ${JSON.stringify(conversationView(conv))}\n\n`)
      })
    }
    const listener = (changedKey: string) => {
      if (changedKey === key) push()
    }
    listeners.add(listener)
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000)
    if (open) {
      viewers.set(key, (viewers.get(key) ?? 0) + 1)
      readAll(conv)
    }
    push()
    const done = () => {
      clearInterval(keepAlive)
      listeners.delete(listener)
      streams.delete(res)
      if (open) viewers.set(key, Math.max(0, (viewers.get(key) ?? 1) - 1))
    }
    request.raw.once('close', done)
  })

  // --------------------------------------------------------------------------------------------------- lifecycle

  async function verifyWebhook(phoneNumberId: string): Promise<VerifyResult> {
    const number = state.numbers.get(phoneNumberId)
    if (!number) throw new ControlError(404, 'no such business number')
    const challenge = String(Math.floor(resolved.random() * 1e9))
    const url = new URL(number.webhook_url)
    url.searchParams.set('hub.mode', 'subscribe')
    url.searchParams.set('hub.verify_token', number.verify_token)
    url.searchParams.set('hub.challenge', challenge)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(state.dispatcher.retry.timeoutMs) })
      const body = await response.text()
      return { ok: response.status === 200 && body === challenge, status: response.status, body: body.slice(0, 500), error: null, url: url.toString() }
    } catch (error) {
      return { ok: false, status: null, body: '', error: error instanceof Error ? error.message : String(error), url: url.toString() }
    }
  }

  function reset(opts: { numbers?: boolean } = {}): void {
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
    state.conversations.clear()
    state.media.clear()
    sent.clear()
    state.dispatcher.clear()
    state.chaos = { ...initialChaos }
    if (opts.numbers) {
      state.numbers.clear()
      state.templates.clear()
      for (const number of options.numbers ?? []) addNumber(number)
    }
  }

  return {
    app,
    state,
    get url() {
      return listenedUrl
    },
    async listen() {
      const address = await app.listen({ host: resolved.host, port: resolved.port })
      const parsed = new URL(address)
      if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = '127.0.0.1'
      listenedUrl = parsed.origin
      return listenedUrl
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      state.dispatcher.close()
      for (const res of streams) res.end()
      streams.clear()
      await app.close()
    },
    addNumber,
    inbound,
    verifyWebhook,
    async idle() {
      while (timers.size > 0) await new Promise((r) => setTimeout(r, 10))
      await state.dispatcher.idle()
      while (timers.size > 0) await new Promise((r) => setTimeout(r, 10))
    },
    reset,
  }
}

export type { Template } from './templates.ts'
export { signature } from './webhooks.ts'
