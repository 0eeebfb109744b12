import { readFile } from 'node:fs/promises'
import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { chatTemplates } from '../../db/schema/index.ts'
import type { ChannelDriver, DeliverResult, OutboxJob } from '../../chat/types.ts'
import { storedPath } from '../../entities/media-store.ts'
import { cachedWhatsAppChannel, graphClientFor, loadWhatsAppChannel, type WhatsAppChannel } from './channel.ts'
import { NUMBER_RATE_LIMIT, PAIR_RATE_LIMIT } from './errors.ts'
import { DEFAULT_MAX_MEDIA_BYTES, GraphError, type GraphClient, type MediaKind, type SendResult } from './graph.ts'
import { BUTTON_PARAM, HEADER_PARAM, templateParams } from './templates.ts'
import { DEFAULT_SEND_LIMITS, type SendLimiter } from '../../chat/send-limiter.ts'

// The WhatsApp channel's driver for the chat core's outbox (server/chat/outbox.ts): one outbox job → one Graph send,
// paced by the deployment's send limiter (deps.sendLimiter: per number at the channel's messages_per_second and per
// customer, shared by every instance through Redis when configured), with Meta's refusals sorted into "retry later" (rate limits,
// Meta's temporary failures, no answer) and "failed" (shown on the message with Meta's code and reason). It never
// throws for a provider error: the outbox keeps the message until it is sent or failed, so nothing is dropped.

/**
 * How long a send may wait in the dispatcher for its slot (the number's next slot at its rate) rather than go back to
 * the outbox; well inside the outbox's 30 s claim.
 */
export const MAX_SLOT_WAIT_MS = 1000

/** Back-off for Meta's temporary failures by attempt: 2 s, 4 s, … up to 5 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5 * 60_000, 2000 * 2 ** Math.max(0, attempts))
}

const MEDIA: Partial<Record<OutboxJob['message']['type'], MediaKind>> = { photo: 'image', video: 'video', audio: 'audio', voice: 'audio', document: 'document' }
/** Templates' header media uploaded once per channel and file (Meta keeps an uploaded id for 30 days). */
const uploadedHeaders = new Map<string, { id: string; at: number }>()
const HEADER_ID_TTL_MS = 7 * 24 * 60 * 60 * 1000

async function send(deps: AppDeps, channel: WhatsAppChannel, graph: GraphClient, job: OutboxJob): Promise<SendResult> {
  const m = job.message
  const o = { ...(m.replyToExternalId ? { replyTo: m.replyToExternalId } : {}), opaque: m.uid }
  if (m.template) return sendTemplate(deps, channel, graph, job)
  const kind = MEDIA[m.type]
  if (kind && m.attachmentPath) {
    const bytes = await readFile(m.attachmentPath)
    const id = await graph.uploadMedia(bytes, m.attachmentMime || 'application/octet-stream', m.attachmentName || 'file')
    return graph.sendMedia(
      job.recipient,
      kind,
      {
        id,
        ...(m.content ? { caption: m.content } : {}),
        ...(kind === 'document' ? { filename: m.attachmentName } : {}),
        // A voice note goes as one (WhatsApp's voice icon, auto-download, transcript) when it is Ogg Opus, as Meta requires.
        ...(m.type === 'voice' && m.attachmentMime === 'audio/ogg' ? { voice: true } : {}),
      },
      o,
    )
  }
  if (m.type === 'location' && m.location) {
    const l = m.location
    return graph.sendLocation(
      job.recipient,
      { latitude: l.latitude, longitude: l.longitude, ...(l.name ? { name: l.name } : {}), ...(l.address ? { address: l.address } : {}) },
      o,
    )
  }
  if (m.type === 'contact' && m.contacts.length) {
    const cards = m.contacts.map((c) => {
      const [first, ...rest] = c.full_name.trim().split(/\s+/)
      return {
        name: { formatted_name: c.full_name || c.phone, first_name: first || c.phone, ...(rest.length ? { last_name: rest.join(' ') } : {}) },
        ...(c.phone ? { phones: [{ phone: c.phone, type: 'CELL' }] } : {}),
      }
    })
    return graph.sendContacts(job.recipient, cards, o)
  }
  return graph.sendText(job.recipient, m.content, o)
}

async function sendTemplate(deps: AppDeps, channel: WhatsAppChannel, graph: GraphClient, job: OutboxJob): Promise<SendResult> {
  const ref = job.message.template!
  const [t] = await deps.db
    .select()
    .from(chatTemplates)
    .where(and(eq(chatTemplates.siteId, job.siteId), eq(chatTemplates.id, ref.id)))
  if (!t) throw new GraphError({ httpStatus: 0, code: null, title: 'template not found', retryable: false })
  const defined = (await templateParams(deps, [t.id])).get(t.id) ?? []
  const given = new Map(ref.params.map((p) => [p.name, p.value]))
  // Body parameters in the template's order; the agent's value, else the default. Named ones ({{first_name}}) say
  // their name, as Meta requires for templates created with named parameters.
  const value = (p: { name: string; value: string }) => given.get(p.name) || p.value || '-'
  const buttons = defined.flatMap((p) => {
    const index = BUTTON_PARAM.exec(p.name)?.[1]
    return index === undefined ? [] : [{ index: Number(index), subType: 'url' as const, value: value(p) }]
  })
  const body = defined
    .filter((p) => p.name !== HEADER_PARAM && !BUTTON_PARAM.test(p.name))
    .map((p) => (/^\d+$/.test(p.name) ? value(p) : { name: p.name, text: value(p) }))
  const headerParam = defined.find((p) => p.name === HEADER_PARAM)
  let header: Parameters<GraphClient['sendTemplate']>[1]['header'] = headerParam ? { type: 'text', text: value(headerParam) } : undefined
  if ((t.templateType === 'IMAGE' || t.templateType === 'VIDEO') && t.media) {
    const key = `${channel.id}:${t.media}`
    let cached = uploadedHeaders.get(key)
    if (!cached || Date.now() - cached.at > HEADER_ID_TTL_MS) {
      const name = t.media.replace(/^\/media\/chat-templates\//, '')
      const file = storedPath(deps.config.mediaDir, 'chat-templates', name)
      if (!file) throw new GraphError({ httpStatus: 0, code: null, title: 'template media missing', retryable: false })
      const mime = t.templateType === 'VIDEO' ? 'video/mp4' : name.endsWith('.png') ? 'image/png' : 'image/jpeg'
      cached = { id: await graph.uploadMedia(await readFile(file), mime, name), at: Date.now() }
      uploadedHeaders.set(key, cached)
    }
    header = { type: t.templateType === 'VIDEO' ? 'video' : 'image', media: { id: cached.id } }
  }
  return graph.sendTemplate(
    job.recipient,
    { name: t.description, language: t.language, ...(header ? { header } : {}), ...(body.length ? { body } : {}), ...(buttons.length ? { buttons } : {}) },
    { opaque: job.message.uid },
  )
}

/** A Graph failure as the outbox's answer. */
export async function outcomeOf(limiter: SendLimiter, err: unknown, job: OutboxJob, phoneNumberId: string): Promise<DeliverResult> {
  if (!(err instanceof GraphError)) {
    const reason = err instanceof Error ? err.message : String(err)
    // Our own side (a stored file gone): nothing a retry would fix.
    return { outcome: 'failed', error: { code: null, reason, external_error: false } }
  }
  const label = err.code != null ? `${err.code}: ${err.title}` : err.title
  const reason = err.details && err.details !== err.title ? `${label} — ${err.details}` : label
  if (err.code === NUMBER_RATE_LIMIT || err.code === PAIR_RATE_LIMIT) {
    const afterMs = await limiter.backOff(phoneNumberId, job.recipient, err.code === NUMBER_RATE_LIMIT ? 'sender' : 'pair', err.retryAfterMs)
    return { outcome: 'retry', afterMs, reason }
  }
  if (err.retryable) return { outcome: 'retry', afterMs: Math.max(err.retryAfterMs ?? 0, retryDelayMs(job.attempts)), reason }
  // 131047 included: the window closed between the core's check and Meta's; the message shows why.
  return { outcome: 'failed', error: { code: err.code, reason, external_error: true } }
}

export const whatsappDriver: ChannelDriver = {
  type: 'whatsapp',

  async deliver(deps, job) {
    const channel = await cachedWhatsAppChannel(deps.db, job.channelId)
    if (!channel || channel.siteId !== job.siteId || !channel.isActive) {
      return { outcome: 'failed', error: { code: null, reason: 'channel unavailable', external_error: false } }
    }
    if (job.markRead) {
      // A read receipt: not a message, so neither throttle bucket is spent (Meta's number back-off still applies).
      try {
        await graphClientFor(channel).markRead(job.markRead)
        return { outcome: 'sent', externalId: job.markRead }
      } catch (err) {
        return outcomeOf(deps.sendLimiter, err, job, channel.phoneNumberId)
      }
    }
    const limiter = deps.sendLimiter
    const limits = { ...DEFAULT_SEND_LIMITS, perSecond: channel.messagesPerSecond || DEFAULT_SEND_LIMITS.perSecond }
    const slot = await limiter.reserve(channel.phoneNumberId, job.recipient, limits, MAX_SLOT_WAIT_MS)
    if (!slot.ok) return { outcome: 'retry', afterMs: slot.retryInMs, reason: 'throttled' }
    if (slot.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, slot.waitMs))
    try {
      const result = await send(deps, channel, graphClientFor(channel), job)
      limiter.succeeded(channel.phoneNumberId, job.recipient).catch(() => {})
      const status = result.messageStatus === 'accepted' || !result.messageStatus ? 'accepted' : undefined
      return { outcome: 'sent', externalId: result.wamid, ...(status ? { status } : {}) }
    } catch (err) {
      return outcomeOf(limiter, err, job, channel.phoneNumberId)
    }
  },

  async download(deps, channelId, source) {
    const channel = await loadWhatsAppChannel(deps.db, channelId)
    const id = typeof source.id === 'string' ? source.id : null
    if (!channel || !id) throw new Error('nothing to download')
    const media = await graphClientFor(channel).downloadMedia(id, DEFAULT_MAX_MEDIA_BYTES)
    return { bytes: media.bytes, mime: media.mime?.split(';')[0].trim() || 'application/octet-stream' }
  },
}
