import { createHash } from 'node:crypto'
import * as v from 'valibot'
import {
  GraphErrorEnvelope,
  WaMediaInfo,
  WaSendResult,
  WaTemplateDef,
  WaTemplatePage,
  WaUploadResult,
  type WaMediaRef,
  type WaSendContactCard,
  type WaSendRequest,
  type WaTemplateComponent,
} from '../../../contract/whatsapp/graph.ts'
import { isRetryable } from './errors.ts'

// The Graph API client of one WhatsApp channel (WHATSAPP.md §A1.6–A1.8) over global fetch: sends, mark-as-read,
// media upload and the two-step download (checked against Meta's sha256 and size), and the WABA's templates, page by
// page. Its base URL is the channel's graph_url + api_version: Meta's in production, the simulator's in tests and
// the demo. Every failure is a GraphError saying whether trying again later can help.

export type GraphConfig = {
  /** e.g. https://graph.facebook.com (the channel's graph_url). */
  graphUrl: string
  /** e.g. v23.0. */
  apiVersion: string
  accessToken: string
  phoneNumberId: string
  wabaId?: string | null
  /** Per request (default 15 s); a media download gets `downloadTimeoutMs` (default 60 s). */
  timeoutMs?: number
  downloadTimeoutMs?: number
}

export class GraphError extends Error {
  readonly httpStatus: number
  readonly code: number | null
  readonly subcode: number | null
  readonly title: string
  readonly details: string | null
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  constructor(e: {
    httpStatus: number
    code: number | null
    subcode?: number | null
    title: string
    details?: string | null
    retryable?: boolean
    retryAfterMs?: number
  }) {
    super(e.code != null ? `(#${e.code}) ${e.title}` : e.title)
    this.name = 'GraphError'
    this.httpStatus = e.httpStatus
    this.code = e.code
    this.subcode = e.subcode ?? null
    this.title = e.title
    this.details = e.details ?? null
    this.retryable = e.retryable ?? isRetryable(e.httpStatus, e.code)
    this.retryAfterMs = e.retryAfterMs
  }
}

export type SendResult = { wamid: string; waId: string | null; messageStatus: string | null }
export type SendOptions = { replyTo?: string; opaque?: string }
export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker'
export type TemplateSend = {
  name: string
  /** e.g. pt_BR. */
  language: string
  header?: { type: 'image' | 'video' | 'document'; media: WaMediaRef } | { type: 'text'; text: string }
  /** The body's {{1}}, {{2}}, ... in order; a named parameter ({{first_name}}) carries its name. */
  body?: (string | { name: string; text: string })[]
  /** Quick-reply payloads or URL suffixes, by button index. */
  buttons?: { index: number; subType: 'quick_reply' | 'url'; value: string }[]
}
export type DownloadedMedia = { bytes: Buffer; mime: string | null; sha256: string; size: number }

export const DEFAULT_MAX_MEDIA_BYTES = 100 * 1024 * 1024

/** Parses Retry-After (seconds or an HTTP date) into ms. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/** A failed answer as a GraphError, from Meta's `{error: {...}}` envelope when there is one. */
export async function graphErrorFrom(res: Response): Promise<GraphError> {
  const text = await res.text().catch(() => '')
  let body: unknown = null
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (a proxy's HTML page): the status says enough.
  }
  const parsed = v.safeParse(GraphErrorEnvelope, body)
  const retryAfterMs = retryAfter(res.headers.get('retry-after'))
  if (!parsed.success) return new GraphError({ httpStatus: res.status, code: null, title: res.statusText || `HTTP ${res.status}`, retryAfterMs })
  const e = parsed.output.error
  const details = typeof e.error_data === 'string' ? e.error_data : (e.error_data?.details ?? e.error_user_msg ?? null)
  const title = e.error_user_title ?? (e.message ?? '').replace(/^\(#\d+\)\s*/, '') ?? `HTTP ${res.status}`
  return new GraphError({
    httpStatus: res.status,
    code: e.code ?? null,
    subcode: e.error_subcode ?? null,
    title: title || `HTTP ${res.status}`,
    details,
    retryAfterMs,
  })
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

/** Whether `given` (hex, as the media API answers, or base64, as webhooks carry it) is the SHA-256 of these bytes. */
export function sha256Matches(given: string, digest: Buffer): boolean {
  const g = given.trim()
  return /^[0-9a-f]{64}$/i.test(g) ? g.toLowerCase() === digest.toString('hex') : g.replace(/=+$/, '') === digest.toString('base64').replace(/=+$/, '')
}

export class GraphClient {
  readonly base: string
  private readonly config: GraphConfig

  constructor(config: GraphConfig) {
    if (!/^v\d{1,3}(\.\d{1,3})?$/.test(config.apiVersion)) throw new Error(`invalid Graph API version ${config.apiVersion}`)
    this.config = config
    this.base = `${config.graphUrl.replace(/\/+$/, '')}/${config.apiVersion}`
  }

  /** One request with the Bearer token and a time-out; a network failure or time-out is a retryable GraphError. */
  private async request(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${this.config.accessToken}`)
    try {
      return await fetch(url, { ...init, headers, redirect: 'follow', signal: AbortSignal.timeout(init.timeoutMs ?? this.config.timeoutMs ?? 15_000) })
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
      throw new GraphError({ httpStatus: 0, code: null, title: timedOut ? 'timed out' : `network error: ${(err as Error).message}`, retryable: true })
    }
  }

  private async json<T extends v.GenericSchema>(schema: T, url: string, init: RequestInit = {}): Promise<v.InferOutput<T>> {
    const res = await this.request(url, init)
    if (!res.ok) throw await graphErrorFrom(res)
    const body = await res.json().catch(() => null)
    const parsed = v.safeParse(schema, body)
    if (!parsed.success)
      throw new GraphError({ httpStatus: res.status, code: null, title: 'unexpected answer', details: parsed.issues[0]?.message, retryable: false })
    return parsed.output
  }

  /** POST /{phone_number_id}/messages with any send body. */
  async send(body: WaSendRequest): Promise<SendResult> {
    const out = await this.json(WaSendResult, `${this.base}/${encodeURIComponent(this.config.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { wamid: out.messages[0].id, waId: out.contacts?.[0]?.wa_id ?? null, messageStatus: out.messages[0].message_status ?? null }
  }

  private envelope(to: string, o: SendOptions = {}) {
    return {
      messaging_product: 'whatsapp' as const,
      recipient_type: 'individual' as const,
      to,
      ...(o.replyTo ? { context: { message_id: o.replyTo } } : {}),
      ...(o.opaque ? { biz_opaque_callback_data: o.opaque } : {}),
    }
  }

  sendText(to: string, body: string, o: SendOptions & { previewUrl?: boolean } = {}): Promise<SendResult> {
    return this.send({ ...this.envelope(to, o), type: 'text', text: { body, ...(o.previewUrl ? { preview_url: true } : {}) } })
  }

  /** Media by uploaded id or by link; a caption (not for audio or sticker), a document's file name, an audio's voice flag. */
  sendMedia(to: string, kind: MediaKind, media: WaMediaRef, o: SendOptions = {}): Promise<SendResult> {
    const ref: WaMediaRef = { ...(media.id ? { id: media.id } : { link: media.link }) }
    if (media.caption && kind !== 'audio' && kind !== 'sticker') ref.caption = media.caption
    if (media.filename && kind === 'document') ref.filename = media.filename
    if (media.voice && kind === 'audio') ref.voice = true
    return this.send({ ...this.envelope(to, o), type: kind, [kind]: ref } as WaSendRequest)
  }

  sendLocation(to: string, location: { latitude: number; longitude: number; name?: string; address?: string }, o: SendOptions = {}): Promise<SendResult> {
    return this.send({ ...this.envelope(to, o), type: 'location', location })
  }

  sendContacts(to: string, contacts: WaSendContactCard[], o: SendOptions = {}): Promise<SendResult> {
    return this.send({ ...this.envelope(to, o), type: 'contacts', contacts })
  }

  sendTemplate(to: string, t: TemplateSend, o: SendOptions = {}): Promise<SendResult> {
    const components: WaTemplateComponent[] = []
    if (t.header?.type === 'text') components.push({ type: 'header', parameters: [{ type: 'text', text: t.header.text }] })
    else if (t.header) {
      const h = t.header
      const param =
        h.type === 'image'
          ? { type: 'image' as const, image: h.media }
          : h.type === 'video'
            ? { type: 'video' as const, video: h.media }
            : { type: 'document' as const, document: h.media }
      components.push({ type: 'header', parameters: [param] })
    }
    if (t.body?.length) {
      const parameters = t.body.map((p) =>
        typeof p === 'string' ? { type: 'text' as const, text: p } : { type: 'text' as const, text: p.text, parameter_name: p.name },
      )
      components.push({ type: 'body', parameters })
    }
    for (const b of t.buttons ?? []) {
      components.push({
        type: 'button',
        sub_type: b.subType,
        index: String(b.index),
        parameters: [b.subType === 'quick_reply' ? { type: 'payload', payload: b.value } : { type: 'text', text: b.value }],
      })
    }
    return this.send({
      ...this.envelope(to, o),
      type: 'template',
      template: { name: t.name, language: { code: t.language }, ...(components.length ? { components } : {}) },
    })
  }

  /** Blue ticks on the customer's phone for this inbound message. */
  async markRead(wamid: string): Promise<void> {
    const res = await this.request(`${this.base}/${encodeURIComponent(this.config.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: wamid }),
    })
    if (!res.ok) throw await graphErrorFrom(res)
    await res.body?.cancel()
  }

  /** POST /{phone_number_id}/media (multipart): the media id to send. */
  async uploadMedia(bytes: Uint8Array, mime: string, filename: string): Promise<string> {
    const form = new FormData()
    form.set('messaging_product', 'whatsapp')
    form.set('type', mime)
    form.set('file', new Blob([new Uint8Array(bytes)], { type: mime }), filename)
    const out = await this.json(WaUploadResult, `${this.base}/${encodeURIComponent(this.config.phoneNumberId)}/media`, {
      method: 'POST',
      body: form,
      timeoutMs: this.config.downloadTimeoutMs ?? 60_000,
    } as RequestInit)
    return out.id
  }

  /** GET /{media_id}: where the bytes are for the next 5 minutes, and what they must hash to. */
  mediaInfo(mediaId: string) {
    const q = new URLSearchParams({ phone_number_id: this.config.phoneNumberId })
    return this.json(WaMediaInfo, `${this.base}/${encodeURIComponent(mediaId)}?${q}`)
  }

  /**
   * The two-step download: the media's URL, then its bytes with the same Bearer token, refused past `maxBytes` (by
   * Content-Length before reading, and while reading) and checked against Meta's file_size and sha256.
   */
  async downloadMedia(mediaId: string, maxBytes = DEFAULT_MAX_MEDIA_BYTES): Promise<DownloadedMedia> {
    const info = await this.mediaInfo(mediaId)
    if (info.file_size != null && info.file_size > maxBytes) throw tooLarge(info.file_size, maxBytes)
    const res = await this.request(info.url, { timeoutMs: this.config.downloadTimeoutMs ?? 60_000 } as RequestInit)
    if (!res.ok) throw await graphErrorFrom(res)
    const declared = Number(res.headers.get('content-length') ?? NaN)
    if (declared > maxBytes) {
      await res.body?.cancel()
      throw tooLarge(declared, maxBytes)
    }
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = res.body?.getReader()
    try {
      for (;;) {
        const chunk = await reader?.read()
        if (!chunk || chunk.done) break
        size += chunk.value.byteLength
        if (size > maxBytes) {
          await reader?.cancel()
          throw tooLarge(size, maxBytes)
        }
        chunks.push(chunk.value)
      }
    } catch (err) {
      if (err instanceof GraphError) throw err
      throw new GraphError({ httpStatus: 0, code: null, title: `download interrupted: ${(err as Error).message}`, retryable: true })
    }
    const bytes = Buffer.concat(chunks)
    const digest = createHash('sha256').update(bytes).digest()
    if (info.file_size != null && info.file_size !== bytes.length) {
      throw new GraphError({
        httpStatus: 0,
        code: null,
        title: 'media size mismatch',
        details: `expected ${info.file_size} bytes, got ${bytes.length}`,
        retryable: true,
      })
    }
    if (info.sha256 && !sha256Matches(info.sha256, digest)) {
      throw new GraphError({ httpStatus: 0, code: null, title: 'media sha256 mismatch', retryable: true })
    }
    return { bytes, mime: info.mime_type ?? res.headers.get('content-type'), sha256: digest.toString('hex'), size: bytes.length }
  }

  /**
   * Every message template of the WABA, following `paging.next` (only on the Graph host itself, never elsewhere with
   * our token) up to `maxPages`. Templates that do not parse are counted, not thrown.
   */
  async listTemplates(o: { pageSize?: number; maxPages?: number } = {}): Promise<{ templates: WaTemplateDef[]; skipped: number }> {
    if (!this.config.wabaId) throw new GraphError({ httpStatus: 0, code: null, title: 'the channel has no WABA id', retryable: false })
    const q = new URLSearchParams({ limit: String(o.pageSize ?? 100), fields: 'id,name,language,status,category,components' })
    let url: string | null = `${this.base}/${encodeURIComponent(this.config.wabaId)}/message_templates?${q}`
    const templates: WaTemplateDef[] = []
    let skipped = 0
    const seen = new Set<string>()
    for (let page = 0; url && page < (o.maxPages ?? 50); page++) {
      seen.add(url)
      const body: v.InferOutput<typeof WaTemplatePage> = await this.json(WaTemplatePage, url)
      for (const item of body.data) {
        const t = v.safeParse(WaTemplateDef, item)
        if (t.success) templates.push(t.output)
        else skipped++
      }
      const next: string | undefined = body.paging?.next
      url = next && body.data.length > 0 && sameOrigin(next, this.base) && !seen.has(next) ? next : null
    }
    return { templates, skipped }
  }
}

function tooLarge(size: number, max: number): GraphError {
  return new GraphError({ httpStatus: 0, code: null, title: 'media too large', details: `${size} bytes, limit ${max}`, retryable: false })
}
