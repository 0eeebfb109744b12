import type { ChatContact, ChatMessage, ChatRoom, DeliveryStatus, MessageType } from '../../contract/api/chat.ts'
import type { AppDeps } from '../deps.ts'

// The seams of the chat engine (README.md here): what a channel hands the core, what the core asks of a channel's
// driver, and what the core publishes for the sockets. Channels (server/channels/*) import this module and the core's
// functions; the core never imports a channel — drivers register themselves (registerChannelDriver).

export type ChannelType = 'whatsapp' | 'webchat'

/** A customer's message as a channel received it, before it has a room. */
export type InboundMessage = {
  siteId: number
  channelId: number
  customer: {
    /** The channel's address of the customer: wa_id (digits) or the visitor id. */
    contact: string
    /** E.164 digits when known. */
    phone?: string
    name?: string
    email?: string
    avatar?: string
  }
  /** The provider's id (wamid); a redelivery with the same id leaves one message. */
  externalId?: string
  /** The sender's own id (the widget's message uid); a resend with the same uid leaves one message. */
  uid?: string
  type: MessageType
  content: string
  /** Bytes already here (widget upload), or a provider reference the core downloads later through the driver. */
  attachment?: { file: string; name: string; mime: string; size: number } | { pending: Record<string, unknown>; name: string; mime: string }
  location?: { name: string; address: string; latitude: number; longitude: number }
  contacts?: ChatContact[]
  /** The provider id of the message this one answers (WhatsApp context.id). */
  replyToExternalId?: string
  /** When the customer sent it (provider timestamp); opens the 24-hour window. */
  sentAt: Date
  /**
   * The stored webhook event (webhook-events.ts) whose only content this message is: the statement that stores the
   * message also marks the event processed (one statement less per message), and the result says so (`eventMarked`).
   */
  webhookEventId?: number
}

export type InboundResult = { roomId: number; messageId: number; duplicate: boolean; newRoom: boolean; eventMarked?: true }

/** A delivery report from the provider or the visitor's socket. */
export type DeliveryReport = {
  siteId: number
  channelId: number
  externalId: string
  status: Exclude<DeliveryStatus, 'sending'>
  at: Date
  error?: { code: number | null; reason: string; external_error: boolean }
}

/** One outbox row handed to the channel's driver, with what it needs to send. */
export type OutboxJob = {
  outboxId: number
  attempts: number
  siteId: number
  channelId: number
  recipient: string
  message: {
    id: number
    uid: string
    roomId: number
    type: MessageType
    content: string
    /** Absolute path of the stored attachment, when any. */
    attachmentPath: string | null
    attachmentName: string
    attachmentMime: string
    location: { name: string; address: string; latitude: number; longitude: number } | null
    contacts: ChatContact[]
    /** The provider id of the replied-to message. */
    replyToExternalId: string | null
    template: { id: number; params: { name: string; value: string }[] } | null
  }
  /**
   * Not a message to send: the agent read the customer's messages up to this one (its provider id), and the provider
   * should show the customer so (WhatsApp's blue ticks). `message` is then that inbound message.
   */
  markRead?: string
}

/** What a driver answers for one job: sent (with the provider id), retry later, or failed for good. */
export type DeliverResult =
  | { outcome: 'sent'; externalId: string; status?: 'accepted' | 'dispatched' | 'received' }
  | { outcome: 'retry'; afterMs: number; reason: string }
  | { outcome: 'failed'; error: { code: number | null; reason: string; external_error: boolean } }

export type ChannelDriver = {
  type: ChannelType
  /** Sends one message; must not throw for provider errors (answer `retry` or `failed`). */
  deliver(deps: AppDeps, job: OutboxJob): Promise<DeliverResult>
  /** Downloads a pending inbound attachment (WhatsApp media id); answers the bytes or throws to retry later. */
  download?(deps: AppDeps, channelId: number, source: Record<string, unknown>): Promise<{ bytes: Buffer; mime: string }>
}

/**
 * What the core publishes on the bus (CHAT_CHANNEL, server/chat/events.ts) for every socket instance: each event
 * names the users who must hear it (the room's agent, the agent offered it, supervisors watching it) and carries the
 * serialized row, so no socket reads the database to forward it.
 */
export type ChatEvent =
  | { type: 'room'; site_id: number; users: number[]; room: ChatRoom }
  | { type: 'message'; site_id: number; users: number[]; room_id: number; message: ChatMessage }
  | { type: 'status'; site_id: number; users: number[]; room_id: number; message: ChatMessage }
  /** A room offered to an agent (ring); `ring_seconds` until it moves on. */
  | { type: 'offer'; site_id: number; users: number[]; room: ChatRoom; ring_seconds: number }
  /** An offer that rang out or was taken elsewhere. */
  | { type: 'withdrawn'; site_id: number; users: number[]; room_id: number; reason: 'no_answer' | 'taken' | 'ended' | 'transferred' }
  /** A room left an agent's console (transferred away, finished after its countdown). */
  | { type: 'removed'; site_id: number; users: number[]; room_id: number }
  /** The visitor (widget) is typing, or an agent is (to the visitor). */
  | { type: 'typing'; site_id: number; users: number[]; room_id: number; from: 'client' | 'agent' }
