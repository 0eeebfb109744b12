import { eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'
import { chatChannels, chatOutbox, chatRoomMessages, chatRooms } from '../db/schema/index.ts'
import { storedChatPath } from './attachment-store.ts'
import { WINDOW_CLOSED_CODE, applyPendingDeliveries, markWindowClosed } from './delivery.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { serializeMessage } from './serialize.ts'
import type { ChannelDriver, ChannelType, DeliverResult, OutboxJob } from './types.ts'

// Channel drivers and the outbox dispatcher (README.md "Own outbox table"). A row is claimed by setting
// locked_until (FOR UPDATE SKIP LOCKED: two dispatchers, on one instance or several, never take the same row), handed
// to its channel's driver, then deleted (sent, failed) or put back with a later next_attempt_at (retry). A dispatcher
// that dies mid-send leaves a claim that expires after CLAIM_SECONDS; the row is due again then. Only the oldest row
// of each recipient is ever claimable, so a later message never overtakes an earlier one waiting for its retry.

const drivers = new Map<ChannelType, ChannelDriver>()

/** Channels call this once when their module loads (server/channels/index.ts imports them). */
export function registerChannelDriver(driver: ChannelDriver): void {
  drivers.set(driver.type, driver)
}

export function channelDriver(type: ChannelType): ChannelDriver | undefined {
  return drivers.get(type)
}

/** Drops a driver (tests swap fakes). */
export function unregisterChannelDriver(type: ChannelType): void {
  drivers.delete(type)
}

/** The bus channel that wakes the dispatchers of every instance. */
export const OUTBOX_WAKE_CHANNEL = 'chat:outbox'
/** How long a claim lasts (a lease): a dispatcher that died holding it leaves the row due again after this. */
export const CLAIM_SECONDS = 30
const BATCH = 20
const POLL_MS = 1000
/** Without a driver for the channel's type (not loaded on this instance), look again after this. */
const NO_DRIVER_RETRY_MS = 5000
/** A driver that throws (a bug, not a provider error) is retried with back-off, at most this long apart. */
const MAX_BACKOFF_MS = 5 * 60 * 1000
/**
 * A message still refused for a retry after this many attempts, or this long after it was written (WhatsApp's window
 * is closed by then anyway), is failed with the last reason: the agent sees it and may resend it.
 */
export const OUTBOX_MAX_ATTEMPTS = 100
export const OUTBOX_GIVE_UP_MS = 24 * 60 * 60 * 1000

function givingUp(row: ClaimedRow): boolean {
  return row.attempts + 1 >= OUTBOX_MAX_ATTEMPTS || Date.now() - new Date(row.created_at).getTime() >= OUTBOX_GIVE_UP_MS
}

const local = new Set<OutboxDispatcher>()

/** Something was queued: dispatch now rather than at the next poll (here and, through the bus, on other instances). */
export function wakeOutbox(deps: AppDeps): void {
  for (const dispatcher of local) dispatcher.wake()
  deps.bus.publish(OUTBOX_WAKE_CHANNEL, {}).catch(() => {})
}

type ClaimedRow = { id: number; message_id: number; site_id: number; channel_id: number; recipient: string; attempts: number; created_at: Date | string }

export type DispatcherLog = { warn(obj: object, msg: string): void }

export class OutboxDispatcher {
  private running = false
  private loop: Promise<void> | null = null
  private wakeUp: (() => void) | null = null
  private woken = false
  private unsubscribe: (() => Promise<void>) | null = null

  private readonly deps: AppDeps
  private readonly log: DispatcherLog
  private readonly claimSeconds: number

  /** `claimSeconds`: the lease of this dispatcher's claims (tests shorten it; drivers answer within 20 s). */
  constructor(deps: AppDeps, log: DispatcherLog = { warn: () => {} }, options: { claimSeconds?: number } = {}) {
    this.deps = deps
    this.log = log
    this.claimSeconds = options.claimSeconds ?? CLAIM_SECONDS
  }

  async start(): Promise<void> {
    if (this.running) return
    this.running = true
    local.add(this)
    this.unsubscribe = await this.deps.bus.subscribe(OUTBOX_WAKE_CHANNEL, () => this.wake())
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    if (!this.running) return
    this.running = false
    local.delete(this)
    this.wake()
    await this.unsubscribe?.().catch(() => {})
    // A driver stuck in a send must not hold the app's close: its claim expires and another dispatcher retries.
    await Promise.race([this.loop, new Promise((resolve) => setTimeout(resolve, 5000).unref())])
  }

  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false
      let busy = false
      try {
        busy = (await this.dispatchOnce()) > 0
      } catch (err) {
        if (this.running) this.log.warn({ err }, 'chat outbox: dispatching failed')
      }
      if (!this.running) break
      if (busy || this.woken) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wakeUp = null
    }
  }

  /** Claims the due rows and delivers them; answers how many it handled. */
  async dispatchOnce(): Promise<number> {
    const claimed = await claimDue(this.deps, BATCH, this.claimSeconds)
    await Promise.all(claimed.map((row) => this.handle(row)))
    return claimed.length
  }

  private async handle(row: ClaimedRow): Promise<void> {
    try {
      const retryInMs = await deliverRow(this.deps, row)
      // A retry due before the next poll: be there for it.
      if (retryInMs !== null && retryInMs < POLL_MS && this.running) setTimeout(() => this.wake(), Math.max(1, retryInMs)).unref()
    } catch (err) {
      this.log.warn({ err, outbox: row.id }, 'chat outbox: delivering a message failed; retried later')
      await putBack(this.deps, row, backoff(row.attempts), String(err)).catch(() => {})
    }
  }
}

/**
 * Claims due rows for `claimSeconds`. A row whose earlier claim ran out (locked_until still set: a dispatcher died
 * between claim and answer) counts that lost attempt, so its driver sees attempts > 0 and may have sent it already.
 */
async function claimDue(deps: AppDeps, limit: number, claimSeconds: number): Promise<ClaimedRow[]> {
  const result = (await deps.db.execute(sql`
    update chat_outbox set locked_until = now() + make_interval(secs => ${claimSeconds}),
      attempts = attempts + case when locked_until is null then 0 else 1 end
    where id in (
      select o.id from chat_outbox o
      where o.next_attempt_at <= now() and (o.locked_until is null or o.locked_until < now())
        and not exists (select 1 from chat_outbox e where e.channel_id = o.channel_id and e.recipient = o.recipient and e.id < o.id)
      order by o.id
      limit ${limit}
      for update skip locked)
    returning id, message_id, site_id, channel_id, recipient, attempts, created_at`)) as unknown as { rows: ClaimedRow[] }
  return result.rows.map((r) => ({ ...r, id: Number(r.id), message_id: Number(r.message_id) }))
}

function backoff(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempts, 16))
}

async function putBack(deps: AppDeps, row: ClaimedRow, afterMs: number, reason: string): Promise<void> {
  await deps.db
    .update(chatOutbox)
    .set({
      attempts: sql`${chatOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${Math.max(0, afterMs) / 1000})`,
      lockedUntil: null,
      lastError: reason.slice(0, 1000),
    })
    .where(eq(chatOutbox.id, row.id))
}

/** Delivers one claimed row; answers the delay of its retry, or null when it is done with. */
async function deliverRow(deps: AppDeps, row: ClaimedRow): Promise<number | null> {
  const { db } = deps
  const [message] = await db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, row.message_id))
  const [channel] = await db.select({ type: chatChannels.type }).from(chatChannels).where(eq(chatChannels.id, row.channel_id))
  if (!message || !channel) {
    await db.delete(chatOutbox).where(eq(chatOutbox.id, row.id))
    return null
  }
  if (message.sentBy === 'client' && !message.externalId) {
    await db.delete(chatOutbox).where(eq(chatOutbox.id, row.id))
    return null
  }
  const driver = drivers.get(channel.type as ChannelType)
  if (!driver && !givingUp(row)) {
    await putBack(deps, row, NO_DRIVER_RETRY_MS, `no driver for ${channel.type}`)
    return NO_DRIVER_RETRY_MS
  }
  let replyToExternalId: string | null = null
  if (message.replyToId !== null) {
    const [replied] = await db.select({ externalId: chatRoomMessages.externalId }).from(chatRoomMessages).where(eq(chatRoomMessages.id, message.replyToId))
    replyToExternalId = replied?.externalId ?? null
  }
  const job: OutboxJob = {
    outboxId: row.id,
    attempts: row.attempts,
    siteId: row.site_id,
    channelId: row.channel_id,
    recipient: row.recipient,
    message: {
      id: message.id,
      uid: message.uid,
      roomId: message.roomId,
      type: message.type as OutboxJob['message']['type'],
      content: message.content,
      attachmentPath: message.attachmentFile ? storedChatPath(deps.config.mediaDir, message.siteId, message.attachmentFile) : null,
      attachmentName: message.attachmentName,
      attachmentMime: message.attachmentMime,
      location:
        message.latitude !== null && message.longitude !== null
          ? { name: message.locationName, address: message.locationAddress, latitude: message.latitude, longitude: message.longitude }
          : null,
      contacts: message.contacts,
      replyToExternalId,
      template: message.templateId !== null ? { id: message.templateId, params: message.templateParams ?? [] } : null,
    },
    // A customer's message in the outbox is a read receipt (read-receipts.ts).
    ...(message.sentBy === 'client' && message.externalId ? { markRead: message.externalId } : {}),
  }
  let result: DeliverResult
  try {
    result = driver ? await driver.deliver(deps, job) : { outcome: 'retry', afterMs: NO_DRIVER_RETRY_MS, reason: `no driver for ${channel.type}` }
  } catch (err) {
    result = { outcome: 'retry', afterMs: backoff(row.attempts), reason: err instanceof Error ? err.message : String(err) }
  }
  if (result.outcome === 'retry' && givingUp(row)) result = { outcome: 'failed', error: { code: null, reason: result.reason, external_error: false } }
  if (result.outcome === 'retry') {
    await putBack(deps, row, result.afterMs, result.reason)
    return result.afterMs
  }
  if (job.markRead) {
    // A receipt changes nothing of ours: sent or refused, the row is done with.
    await db.delete(chatOutbox).where(eq(chatOutbox.id, row.id))
    return null
  }
  const updated = await db.transaction(async (tx) => {
    const [changed] =
      result.outcome === 'sent'
        ? await tx
            .update(chatRoomMessages)
            .set({
              externalId: result.externalId,
              // Only forward: a report applied meanwhile (never before the id was stored) is not undone.
              status: sql`case when ${chatRoomMessages.status} = 'sending' then ${result.status ?? 'accepted'} else ${chatRoomMessages.status} end`,
              statusAt: new Date(),
              revision: sql`nextval('chat_revision_seq')`,
            })
            .where(eq(chatRoomMessages.id, message.id))
            .returning()
        : await tx
            .update(chatRoomMessages)
            .set({
              status: 'failed',
              statusAt: new Date(),
              errorCode: result.error.code,
              errorReason: result.error.reason,
              externalError: result.error.external_error,
              revision: sql`nextval('chat_revision_seq')`,
            })
            .where(eq(chatRoomMessages.id, message.id))
            .returning()
    await tx.delete(chatOutbox).where(eq(chatOutbox.id, row.id))
    return changed
  })
  if (!updated) return null
  if (result.outcome === 'sent') await applyPendingDeliveries(deps, row.channel_id, result.externalId)
  if (result.outcome === 'failed' && result.error.code === WINDOW_CLOSED_CODE) await markWindowClosed(deps, message.roomId, new Date())
  const [latest] = await db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, message.id))
  const [room] = await db
    .select({ id: chatRooms.id, siteId: chatRooms.siteId, userId: chatRooms.userId })
    .from(chatRooms)
    .where(eq(chatRooms.id, message.roomId))
  if (!latest || !room) return null
  await publishChatEvent(deps.bus, {
    type: 'status',
    site_id: room.siteId,
    users: await roomAudience(deps, room),
    room_id: room.id,
    message: await serializeMessage(deps, latest),
  })
  return null
}
