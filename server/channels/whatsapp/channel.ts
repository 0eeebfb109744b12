import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { chatChannels } from '../../db/schema/index.ts'
import { GraphClient } from './graph.ts'

// A WhatsApp channel's row (contract/entities/chat.ts `channels`) as the wire layer needs it, and its Graph client.

export type WhatsAppChannel = {
  id: number
  siteId: number
  isActive: boolean
  phoneNumberId: string
  wabaId: string
  accessToken: string
  appSecret: string
  verifyToken: string
  apiVersion: string
  graphUrl: string
  /** The number's throughput at Meta (messages/s; the outbox's send limiter paces to it). */
  messagesPerSecond: number
}

const columns = {
  id: chatChannels.id,
  siteId: chatChannels.siteId,
  isActive: chatChannels.isActive,
  phoneNumberId: chatChannels.phoneNumberId,
  wabaId: chatChannels.wabaId,
  accessToken: chatChannels.accessToken,
  appSecret: chatChannels.appSecret,
  verifyToken: chatChannels.verifyToken,
  apiVersion: chatChannels.apiVersion,
  graphUrl: chatChannels.graphUrl,
  messagesPerSecond: chatChannels.messagesPerSecond,
}

/** The WhatsApp channel with this id (any site: the webhook names it in its path), or null. */
export async function loadWhatsAppChannel(db: Db, id: number): Promise<WhatsAppChannel | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null
  const [row] = await db
    .select(columns)
    .from(chatChannels)
    .where(and(eq(chatChannels.id, id), eq(chatChannels.type, 'whatsapp')))
  return row ?? null
}

export function graphClientFor(channel: WhatsAppChannel, timeouts: { timeoutMs?: number; downloadTimeoutMs?: number } = {}): GraphClient {
  return new GraphClient({
    graphUrl: channel.graphUrl || 'https://graph.facebook.com',
    apiVersion: channel.apiVersion || 'v23.0',
    accessToken: channel.accessToken,
    phoneNumberId: channel.phoneNumberId,
    wabaId: channel.wabaId || null,
    ...timeouts,
  })
}

/**
 * How long the hot paths (every webhook, every send) may use a channel row they read before: a settings change
 * (secret, token, active) is seen at once on the instance that wrote it (the entity hook forgets the row) and within
 * this long on the others.
 */
export const CHANNEL_CACHE_MS = 2000
/** Channel id → its row as one database read it (tests run several databases in one process: the entry names its own). */
const cached = new Map<number, { db: Db; at: number; channel: Promise<WhatsAppChannel | null> }>()

/** loadWhatsAppChannel, answered from a short cache (one statement less per webhook and per send). */
export function cachedWhatsAppChannel(db: Db, id: number): Promise<WhatsAppChannel | null> {
  const now = Date.now()
  const hit = cached.get(id)
  if (hit && hit.db === db && now - hit.at < CHANNEL_CACHE_MS) return hit.channel
  if (cached.size > 1000) cached.clear()
  const channel = loadWhatsAppChannel(db, id)
  const entry = { db, at: now, channel }
  cached.set(id, entry)
  // A failed read is not kept.
  channel.catch(() => {
    if (cached.get(id) === entry) cached.delete(id)
  })
  return channel
}

/** Forgets a channel's cached row (its settings were saved or it was deleted). */
export function forgetWhatsAppChannel(id: number): void {
  cached.delete(id)
}
