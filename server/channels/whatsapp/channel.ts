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
