import * as v from 'valibot'
import {
  WaChangeValue,
  WaEnvelope,
  WaError,
  WaMessage,
  WaSender,
  WaStatus,
  WaTemplateStatusValue,
  type WaContactCard,
  type WaError as WaErrorT,
  type WaKnownMessage,
  type WaMessage as WaMessageT,
  isKnownWaMessage,
} from '../../../contract/whatsapp/webhook.ts'
import { WA_STATUS_TO_DELIVERY, type DeliveryStatus } from './status-order.ts'

// A webhook delivery → a flat list of events in our terms (spec 001 §3 Message). Every entry, change, message, status
// and error is visited (Chatwoot reads only the first of each); an item that does not parse becomes an `invalid`
// event beside the others instead of failing the whole delivery, since Meta would retry a refused delivery for days.

/** Our message types (spec 001 §3); `call` never comes from WhatsApp. */
export type ChatMessageType = 'text' | 'photo' | 'video' | 'audio' | 'voice' | 'document' | 'location' | 'contact'

/** A failure as a message row keeps it: `external_error` is Meta's "code: title". */
export type DeliveryError = { code: number; reason: string; external_error: string }

export type WaMediaPart = { id: string; mime: string | null; sha256: string | null; caption: string | null; filename: string | null }
export type WaLocationPart = { latitude: number; longitude: number; name: string | null; address: string | null; url: string | null }
/** A shared contact in the spec's shape (full_name, phone) plus the WhatsApp id when the card has one. */
export type WaContactPart = { full_name: string; phone: string | null; wa_id: string | null }
/** What a tapped button or list row said, besides its title (which is the message content). */
export type WaReplyPart = { kind: 'button_reply' | 'list_reply' | 'button'; id: string | null; title: string; description: string | null }

type Where = { phoneNumberId: string; wabaId: string | null }
type From = Where & { from: string; profileName: string | null; externalId: string; timestamp: Date }

export type InboundMessageEvent = From & {
  kind: 'message'
  type: ChatMessageType
  /** Meta's own type (image, sticker, interactive, ...). */
  waType: string
  content: string
  media?: WaMediaPart
  location?: WaLocationPart
  contacts?: WaContactPart[]
  reply?: WaReplyPart
  /** The wamid this message answers (context.id). */
  replyTo?: string
  forwarded?: boolean
  referral?: Record<string, unknown>
}
/** A reaction to `messageId`; `emoji` null when the customer removed it. */
export type ReactionEvent = From & { kind: 'reaction'; messageId: string; emoji: string | null }
/** E.g. `user_changed_number`, with the customer's new WhatsApp id. */
export type SystemEvent = From & { kind: 'system'; systemType: string | null; body: string; newWaId: string | null }
/** A message type we do not show (unsupported, ephemeral, order, a Flow answer...): kept with Meta's errors. */
export type UnsupportedEvent = From & { kind: 'unsupported'; waType: string; errors: DeliveryError[] }
export type StatusEvent = Where & {
  kind: 'status'
  externalId: string
  status: DeliveryStatus
  waStatus: string
  timestamp: Date
  recipient: string | null
  error?: DeliveryError
  /** biz_opaque_callback_data echoed from the send (our outbox id). */
  opaque: string | null
}
/** Errors about a whole change value (e.g. 130429 rate limit hit), not tied to one message. */
export type ValueErrorEvent = Where & { kind: 'error'; errors: DeliveryError[] }
/** A template's review result (`message_template_status_update`). */
export type TemplateStatusEvent = {
  kind: 'template'
  wabaId: string | null
  templateId: string
  event: string
  name: string | null
  language: string | null
  reason: string | null
}
/** Something signed but unreadable, kept so a person can look at it: which part and why. */
export type InvalidEvent = { kind: 'invalid'; wabaId: string | null; phoneNumberId: string | null; field: string | null; part: string; reason: string }

export type WaEvent = InboundMessageEvent | ReactionEvent | SystemEvent | UnsupportedEvent | StatusEvent | ValueErrorEvent | TemplateStatusEvent | InvalidEvent

export const WHATSAPP_OBJECT = 'whatsapp_business_account'

/** Meta's error in our three fields. */
export function deliveryError(e: WaErrorT): DeliveryError {
  const title = e.title ?? e.message ?? ''
  return { code: e.code, reason: e.error_data?.details ?? e.message ?? title, external_error: title ? `${e.code}: ${title}` : String(e.code) }
}

function reason(issues: v.BaseIssue<unknown>[]): string {
  const first = issues[0]
  const path = first?.path?.map((p) => String(p.key)).join('.')
  return path ? `${path}: ${first.message}` : (first?.message ?? 'invalid')
}

/**
 * The events of one delivery. A body that is not a WhatsApp envelope at all is a single invalid event (signed, so it
 * is kept and acknowledged, never retried by Meta).
 */
export function parseWebhook(body: unknown): WaEvent[] {
  const envelope = v.safeParse(WaEnvelope, body)
  if (!envelope.success) return [{ kind: 'invalid', wabaId: null, phoneNumberId: null, field: null, part: 'envelope', reason: reason(envelope.issues) }]
  if (envelope.output.object !== WHATSAPP_OBJECT) {
    return [{ kind: 'invalid', wabaId: null, phoneNumberId: null, field: null, part: 'object', reason: `object ${envelope.output.object}` }]
  }
  const events: WaEvent[] = []
  for (const entry of envelope.output.entry) {
    const wabaId = entry.id ?? null
    for (const change of entry.changes ?? []) events.push(...parseChange(wabaId, change.field, change.value))
  }
  return events
}

function parseChange(wabaId: string | null, field: string, raw: unknown): WaEvent[] {
  if (field === 'message_template_status_update') {
    const t = v.safeParse(WaTemplateStatusValue, raw)
    if (!t.success) return [{ kind: 'invalid', wabaId, phoneNumberId: null, field, part: 'value', reason: reason(t.issues) }]
    const o = t.output
    return [
      {
        kind: 'template',
        wabaId,
        templateId: String(o.message_template_id),
        event: o.event,
        name: o.message_template_name ?? null,
        language: o.message_template_language ?? null,
        reason: o.reason ?? null,
      },
    ]
  }
  // Account, quality and other fields the channel has no use for.
  if (field !== 'messages') return []
  const value = v.safeParse(WaChangeValue, raw)
  if (!value.success) return [{ kind: 'invalid', wabaId, phoneNumberId: null, field, part: 'value', reason: reason(value.issues) }]
  const phoneNumberId = value.output.metadata?.phone_number_id
  if (!phoneNumberId) return [{ kind: 'invalid', wabaId, phoneNumberId: null, field, part: 'metadata', reason: 'metadata.phone_number_id missing' }]
  const where: Where = { phoneNumberId, wabaId }
  const invalid = (part: string, issues: v.BaseIssue<unknown>[]): InvalidEvent => ({
    kind: 'invalid',
    wabaId,
    phoneNumberId,
    field,
    part,
    reason: reason(issues),
  })

  const names = new Map<string, string>()
  for (const c of value.output.contacts ?? []) {
    const sender = v.safeParse(WaSender, c)
    if (sender.success && sender.output.wa_id && sender.output.profile?.name) names.set(sender.output.wa_id, sender.output.profile.name)
  }

  const events: WaEvent[] = []
  value.output.messages?.forEach((m, i) => {
    const parsed = v.safeParse(WaMessage, m)
    events.push(parsed.success ? messageEvent(where, parsed.output, names) : invalid(`messages.${i}`, parsed.issues))
  })
  value.output.statuses?.forEach((s, i) => {
    const parsed = v.safeParse(WaStatus, s)
    if (!parsed.success) return void events.push(invalid(`statuses.${i}`, parsed.issues))
    const st = parsed.output
    const failure = st.errors?.[0]
    events.push({
      kind: 'status',
      ...where,
      externalId: st.id,
      status: WA_STATUS_TO_DELIVERY[st.status],
      waStatus: st.status,
      timestamp: st.timestamp,
      recipient: st.recipient_id ?? null,
      ...(failure ? { error: deliveryError(failure) } : {}),
      opaque: st.biz_opaque_callback_data ?? null,
    })
  })
  if (value.output.errors?.length) {
    const errors: DeliveryError[] = []
    value.output.errors.forEach((e, i) => {
      const parsed = v.safeParse(WaError, e)
      if (parsed.success) errors.push(deliveryError(parsed.output))
      else events.push(invalid(`errors.${i}`, parsed.issues))
    })
    if (errors.length) events.push({ kind: 'error', ...where, errors })
  }
  return events
}

function messageEvent(where: Where, m: WaMessageT, names: Map<string, string>): WaEvent {
  const from: From = { ...where, from: m.from, profileName: names.get(m.from) ?? null, externalId: m.id, timestamp: m.timestamp }
  const extras = {
    ...(m.context?.id ? { replyTo: m.context.id } : {}),
    ...(m.context?.forwarded || m.context?.frequently_forwarded ? { forwarded: true } : {}),
    ...(m.referral ? { referral: m.referral as Record<string, unknown> } : {}),
  }
  const message = (type: ChatMessageType, content: string, parts: Partial<InboundMessageEvent> = {}): InboundMessageEvent => ({
    kind: 'message',
    ...from,
    type,
    waType: m.type,
    content,
    ...parts,
    ...extras,
  })
  if (!isKnownWaMessage(m)) return { kind: 'unsupported', ...from, waType: m.type, errors: (m.errors ?? []).map(deliveryError) }
  return knownMessage(m, from, message)
}

function knownMessage(
  m: WaKnownMessage,
  from: From,
  message: (type: ChatMessageType, content: string, parts?: Partial<InboundMessageEvent>) => InboundMessageEvent,
): WaEvent {
  switch (m.type) {
    case 'text':
      return message('text', m.text.body)
    case 'image':
      return message('photo', m.image.caption ?? '', { media: media(m.image) })
    case 'sticker':
      return message('photo', '', { media: media(m.sticker) })
    case 'video':
      return message('video', m.video.caption ?? '', { media: media(m.video) })
    case 'audio':
      return message(m.audio.voice ? 'voice' : 'audio', '', { media: media(m.audio) })
    case 'document':
      return message('document', m.document.caption ?? '', { media: media(m.document) })
    case 'location': {
      const l = m.location
      const label = [l.name, l.address].filter(Boolean).join(' — ')
      return message('location', label || `${l.latitude}, ${l.longitude}`, {
        location: { latitude: l.latitude, longitude: l.longitude, name: l.name ?? null, address: l.address ?? null, url: l.url ?? null },
      })
    }
    case 'contacts': {
      const contacts = m.contacts.map(contactPart)
      return message('contact', contacts.map((c) => c.full_name).join(', '), { contacts })
    }
    case 'interactive': {
      const i = m.interactive as Record<string, unknown> & { type: string }
      const tapped = i.type === 'button_reply' || i.type === 'list_reply' ? (i[i.type] as { id: string; title: string; description?: string }) : null
      if (!tapped) return { kind: 'unsupported', ...from, waType: `interactive.${i.type}`, errors: [] }
      return message('text', tapped.title, {
        reply: { kind: i.type as 'button_reply' | 'list_reply', id: tapped.id, title: tapped.title, description: tapped.description ?? null },
      })
    }
    case 'button':
      return message('text', m.button.text, { reply: { kind: 'button', id: m.button.payload ?? null, title: m.button.text, description: null } })
    case 'reaction':
      return { kind: 'reaction', ...from, messageId: (m.reaction.message_id ?? m.reaction.messsage_id) as string, emoji: m.reaction.emoji || null }
    case 'system':
      return {
        kind: 'system',
        ...from,
        systemType: m.system.type ?? null,
        body: m.system.body ?? '',
        newWaId: m.system.wa_id ?? m.system.new_wa_id ?? null,
      }
  }
}

function media(o: { id: string; mime_type?: string; sha256?: string; caption?: string; filename?: string }): WaMediaPart {
  return { id: o.id, mime: o.mime_type ?? null, sha256: o.sha256 ?? null, caption: o.caption ?? null, filename: o.filename ?? null }
}

function contactPart(c: WaContactCard): WaContactPart {
  const n = c.name
  const full = n?.formatted_name || [n?.prefix, n?.first_name, n?.middle_name, n?.last_name, n?.suffix].filter(Boolean).join(' ')
  const phone = c.phones?.find((p) => p.phone || p.wa_id)
  return { full_name: full || phone?.phone || '', phone: phone?.phone ?? null, wa_id: phone?.wa_id ?? null }
}
