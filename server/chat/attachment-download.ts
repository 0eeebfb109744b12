import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import { saveChatMedia, sniffChat } from './attachment-store.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { channelDriver } from './outbox.ts'
import { serializeMessage } from './serialize.ts'
import type { ChannelType } from './types.ts'

// A customer's attachment the provider only referenced (WhatsApp media id): downloaded through the channel's driver
// with retries, checked (magic bytes, size), stored, then the message is published again with its URL. The row's
// attachment_state ('pending') is the durable to-do: the chat service restarts what a stop interrupted.

const ATTEMPTS = 5
const FIRST_DELAY_MS = 1000

const inFlight = new Map<number, Promise<void>>()
let stopped = false

/** Tests shorten the back-off. */
export const downloadTiming = { firstDelayMs: FIRST_DELAY_MS }

/** Starts downloading a message's pending attachment (once per message at a time); never throws. */
export function startAttachmentDownload(deps: AppDeps, messageId: number): void {
  if (inFlight.has(messageId)) return
  stopped = false
  const run = downloadWithRetries(deps, messageId).finally(() => inFlight.delete(messageId))
  inFlight.set(messageId, run)
}

/** Stops retrying; waits for downloads under way. */
export async function stopAttachmentDownloads(): Promise<void> {
  stopped = true
  await Promise.allSettled([...inFlight.values()])
}

export async function resumePendingDownloads(deps: AppDeps): Promise<void> {
  const pending = await deps.db.select({ id: chatRoomMessages.id }).from(chatRoomMessages).where(eq(chatRoomMessages.attachmentState, 'pending')).limit(500)
  for (const row of pending) startAttachmentDownload(deps, row.id)
}

async function downloadWithRetries(deps: AppDeps, messageId: number): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS && !stopped; attempt++) {
    try {
      const outcome = await downloadOnce(deps, messageId)
      if (outcome !== 'retry') return
    } catch {
      // Retried below.
    }
    if (attempt + 1 < ATTEMPTS && !stopped) await new Promise((resolve) => setTimeout(resolve, downloadTiming.firstDelayMs * 2 ** attempt))
  }
  if (!stopped) await finish(deps, messageId, { attachmentState: 'failed' })
}

async function downloadOnce(deps: AppDeps, messageId: number): Promise<'done' | 'retry'> {
  const [row] = await deps.db
    .select({
      id: chatRoomMessages.id,
      siteId: chatRoomMessages.siteId,
      state: chatRoomMessages.attachmentState,
      source: chatRoomMessages.attachmentSource,
      channelId: chatRoomMessages.channelId,
      type: chatChannels.type,
    })
    .from(chatRoomMessages)
    .innerJoin(chatChannels, eq(chatChannels.id, chatRoomMessages.channelId))
    .where(eq(chatRoomMessages.id, messageId))
  if (!row || row.state !== 'pending') return 'done'
  const driver = channelDriver(row.type as ChannelType)
  if (!driver?.download) return 'retry'
  const { bytes } = await driver.download(deps, row.channelId, row.source ?? {})
  const kind = sniffChat(bytes)
  if (!kind) {
    await finish(deps, messageId, { attachmentState: 'failed' })
    return 'done'
  }
  const file = await saveChatMedia(deps.config.mediaDir, row.siteId, bytes, kind)
  await finish(deps, messageId, { attachmentState: 'ready', attachmentFile: file, attachmentMime: kind.mime, attachmentSize: bytes.length })
  return 'done'
}

async function finish(
  deps: AppDeps,
  messageId: number,
  changes: { attachmentState: 'ready' | 'failed'; attachmentFile?: string; attachmentMime?: string; attachmentSize?: number },
): Promise<void> {
  const [updated] = await deps.db
    .update(chatRoomMessages)
    .set({ ...changes, revision: sql`nextval('chat_revision_seq')` })
    .where(and(eq(chatRoomMessages.id, messageId), eq(chatRoomMessages.attachmentState, 'pending')))
    .returning()
  if (!updated) return
  const [room] = await deps.db
    .select({ id: chatRooms.id, siteId: chatRooms.siteId, userId: chatRooms.userId })
    .from(chatRooms)
    .where(eq(chatRooms.id, updated.roomId))
  if (!room) return
  await publishChatEvent(deps.bus, {
    type: 'message',
    site_id: room.siteId,
    users: await roomAudience(deps, room),
    room_id: room.id,
    message: await serializeMessage(deps, updated),
  })
}
