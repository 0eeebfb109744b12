import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../deps.ts'
import { chatChannels } from '../../db/schema/index.ts'
import { applyDelivery } from '../../chat/delivery.ts'
import { receiveInbound } from '../../chat/inbound.ts'
import type { InboundMessage } from '../../chat/types.ts'
import type { DeliveryError, InboundMessageEvent, WaEvent } from './parse.ts'
import { parseWebhook } from './parse.ts'
import { scheduleTemplateSync } from './templates.ts'
import { whatsappLog, type ChannelLog } from './log.ts'

// A stored webhook delivery (server/chat/webhook-events.ts) turned into the chat core's calls: every message to
// receiveInbound (the core's unique wamid leaves one message however often Meta redelivers), every status to
// applyDelivery (only forward). Processing twice is harmless, which is what lets the raw event be stored and
// acknowledged first and processed (or reprocessed after a crash) later.

export type StoredEvent = { id: number; siteId: number; channelId: number; body: Buffer }

type Log = ChannelLog

const DEFAULT_NAMES: Record<string, string> = {
  photo: 'imagem',
  video: 'video',
  audio: 'audio',
  voice: 'audio',
  document: 'documento',
}

/** Meta's failure as the core's message error: code, a readable reason, flagged as coming from outside. */
export function coreError(e: DeliveryError): { code: number | null; reason: string; external_error: boolean } {
  const reason = e.reason && !e.external_error.endsWith(e.reason) ? `${e.external_error} — ${e.reason}` : e.external_error
  return { code: e.code, reason, external_error: true }
}

/** One inbound WhatsApp message as the core's InboundMessage. */
export function inboundMessage(siteId: number, channelId: number, e: InboundMessageEvent): InboundMessage {
  const mime = e.media?.mime?.split(';')[0].trim() || 'application/octet-stream'
  return {
    siteId,
    channelId,
    customer: { contact: e.from, phone: e.from, ...(e.profileName ? { name: e.profileName } : {}) },
    externalId: e.externalId,
    type: e.type,
    content: e.content,
    ...(e.media
      ? {
          attachment: {
            pending: { id: e.media.id, sha256: e.media.sha256, mime: e.media.mime },
            name: e.media.filename || DEFAULT_NAMES[e.type] || 'arquivo',
            mime,
          },
        }
      : {}),
    ...(e.location
      ? { location: { name: e.location.name ?? '', address: e.location.address ?? '', latitude: e.location.latitude, longitude: e.location.longitude } }
      : {}),
    ...(e.contacts ? { contacts: e.contacts.map((c) => ({ client_id: null, full_name: c.full_name, phone: c.phone ?? c.wa_id ?? '', avatar: null })) } : {}),
    ...(e.replyTo ? { replyToExternalId: e.replyTo } : {}),
    sentAt: e.timestamp,
  }
}

/**
 * The channel an event belongs to. Meta posts every number of an app to the same callback, so an event may name
 * another number of the same site than the channel whose URL received it (same app, same secret): that channel
 * takes it. A number no channel of the site has is skipped.
 */
async function channelFor(deps: AppDeps, event: StoredEvent, phoneNumberId: string, cache: Map<string, number | null>): Promise<number | null> {
  if (cache.has(phoneNumberId)) return cache.get(phoneNumberId)!
  const key = `${event.siteId}:${phoneNumberId}`
  const hit = numbers.get(key)
  let id: number | null
  if (hit && hit.db === deps.db && Date.now() - hit.at < NUMBER_CACHE_MS) id = hit.id
  else {
    const [row] = await deps.db
      .select({ id: chatChannels.id })
      .from(chatChannels)
      .where(and(eq(chatChannels.siteId, event.siteId), eq(chatChannels.type, 'whatsapp'), eq(chatChannels.phoneNumberId, phoneNumberId)))
    id = row?.id ?? null
    if (numbers.size > 1000) numbers.clear()
    numbers.set(key, { db: deps.db, at: Date.now(), id })
  }
  cache.set(phoneNumberId, id)
  return id
}

/** Site + phone number id → its channel, kept a short while (every event names its number: one statement less each). */
const NUMBER_CACHE_MS = 2000
const numbers = new Map<string, { db: AppDeps['db']; at: number; id: number | null }>()

/** Processes one stored delivery; throws (so it is retried) only when the core could not take something. */
export async function processWhatsAppEvent(deps: AppDeps, event: StoredEvent, log: Log = whatsappLog()): Promise<{ marked: boolean }> {
  let body: unknown = null
  try {
    body = JSON.parse(event.body.toString('utf8'))
  } catch {
    log.warn({ webhookEvent: event.id }, 'whatsapp webhook: body is not JSON')
    return { marked: false }
  }
  const events = parseWebhook(body)
  // Meta does not keep order within or across deliveries: customers' messages go in by their own timestamps.
  const ordered = events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => ('timestamp' in a.e && 'timestamp' in b.e ? a.e.timestamp.getTime() - b.e.timestamp.getTime() : 0) || a.i - b.i)
    .map((x) => x.e)
  const channels = new Map<string, number | null>()
  // A delivery of one message (the usual case): the statement that stores it marks the event processed too.
  const lone = ordered.length === 1 && ordered[0]!.kind === 'message'
  let marked = false
  for (const e of ordered) marked = (await processOne(deps, event, e, channels, log, lone)) || marked
  return { marked }
}

/** Answers whether the event was marked processed along with its message. */
async function processOne(deps: AppDeps, event: StoredEvent, e: WaEvent, channels: Map<string, number | null>, log: Log, lone = false): Promise<boolean> {
  switch (e.kind) {
    case 'message':
    case 'status': {
      const channelId = await channelFor(deps, event, e.phoneNumberId, channels)
      if (channelId == null) {
        log.warn({ webhookEvent: event.id, phoneNumberId: e.phoneNumberId }, 'whatsapp webhook: no channel has this number')
        return false
      }
      if (e.kind === 'message') {
        const result = await receiveInbound(deps, { ...inboundMessage(event.siteId, channelId, e), ...(lone ? { webhookEventId: event.id } : {}) })
        return result.eventMarked === true
      }
      await applyDelivery(deps, {
        siteId: event.siteId,
        channelId,
        externalId: e.externalId,
        status: e.status === 'sending' ? 'accepted' : e.status,
        at: e.timestamp,
        ...(e.error ? { error: coreError(e.error) } : {}),
      })
      return false
    }
    case 'template':
      scheduleTemplateSync(deps, event.channelId)
      return false
    case 'error':
      log.warn({ webhookEvent: event.id, phoneNumberId: e.phoneNumberId, errors: e.errors }, 'whatsapp webhook: errors reported')
      return false
    case 'invalid':
      log.warn({ webhookEvent: event.id, part: e.part, reason: e.reason }, 'whatsapp webhook: unreadable item')
      return false
    default:
      // Reactions, number changes and unsupported types: no place in the chat yet; kept in the raw event.
      log.info?.({ webhookEvent: event.id, kind: e.kind }, 'whatsapp webhook: event not shown')
      return false
  }
}
