import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { chatChannels, usersChatChannels } from '../../db/schema/entities.generated.ts'
import { userExtras, users } from '../../db/schema/users.ts'

// The webchat channel a public token names, on the site of the request's Host (a token of another tenant's channel is
// unknown here), and whether anyone is there to answer.

export type WebchatChannel = {
  id: number
  siteId: number
  title: string
  color: string
  logo: string | null
  welcomeMessage: string
  offlineMessage: string
  allowedDomains: string[]
  requireName: boolean
  requireEmail: boolean
  requirePhone: boolean
  sendAttachment: boolean
}

export async function findWebchatChannel(db: Db, siteId: number, id: number): Promise<WebchatChannel | null> {
  const [row] = await db
    .select()
    .from(chatChannels)
    .where(and(eq(chatChannels.id, id), eq(chatChannels.siteId, siteId), eq(chatChannels.type, 'webchat'), eq(chatChannels.isActive, true)))
  if (!row) return null
  return {
    id: row.id,
    siteId: row.siteId,
    title: row.widgetTitle || row.description,
    color: /^#[0-9a-fA-F]{6}$/.test(row.widgetColor) ? row.widgetColor : '#1976d2',
    logo: row.widgetLogo,
    welcomeMessage: row.welcomeMessage,
    offlineMessage: row.offlineMessage,
    allowedDomains: row.allowedDomains
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
    requireName: row.requireName,
    requireEmail: row.requireEmail,
    requirePhone: row.requirePhone,
    sendAttachment: row.sendAttachment,
  }
}

/** Some active agent of the channel is logged in to the chat channel (spec 000 §7 channel login). */
export async function channelOnline(db: Db, siteId: number, channelId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(usersChatChannels)
    .innerJoin(users, eq(users.id, usersChatChannels.userId))
    .innerJoin(userExtras, eq(userExtras.userId, usersChatChannels.userId))
    .where(
      and(eq(usersChatChannels.channelId, channelId), eq(usersChatChannels.siteId, siteId), eq(users.isActive, true), eq(userExtras.loginChannelChat, true)),
    )
    .limit(1)
  return row !== undefined
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' }

/**
 * May a page of `origin` use this channel's widget? No Origin (not a browser page, or same-origin GET) → yes; the
 * product's own origin (its Host: the demo page, a preview) → yes; otherwise the origin's host must be one of the
 * channel's allowed domains: `example.com` (that host, any port and scheme), `*.example.com` (its subdomains, not
 * itself), or a full origin `https://shop.example.com:8443` (exactly). An empty list allows the product's own origin
 * only: a new channel is closed until its owner names the sites. The opaque origin `null` never.
 */
export function widgetOriginAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin === 'null' || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false
  if (host) {
    const own = host.toLowerCase()
    const port = DEFAULT_PORTS[url.protocol]
    if (url.host === own || (port && own.endsWith(`:${port}`) && url.host === own.slice(0, -(port.length + 1)))) return true
  }
  const hostname = url.hostname.toLowerCase()
  return allowed.some((entry) => {
    if (entry.includes('://')) return entry.replace(/\/+$/, '') === url.origin
    if (entry.startsWith('*.')) return hostname.endsWith(entry.slice(1)) && hostname.length > entry.length - 1
    return hostname === entry
  })
}
