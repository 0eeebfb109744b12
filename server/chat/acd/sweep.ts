import { and, eq, gt, isNotNull, ne, sql } from 'drizzle-orm'
import { chatQueues, chatRooms } from '../../db/schema/index.ts'
import type { AppDeps } from '../../deps.ts'
import { endRoomBySystem } from './end.ts'
import { hasMessage, queueMessage, tell } from './notify.ts'
import type { AcdOptions } from './queue.ts'
import { acdUid, announcePeriodic, offerWaiting, withdrawOffer } from './queue.ts'
import { toDestination } from './route.ts'
import { refreshWebchatStatus } from './status.ts'

// The ACD's clock, every second on every server instance (started by the chat service plugin): offers that rang out
// (offered_at + the queue's ring_time) go to the next agent; rooms past their queue's max_wait_time get the queue's
// action (send_message once, overflow to its destination, close); periodic announcements; and a pass of offers for
// every site with waiting rooms, so a wake-up missed anywhere is made good within a second. Everything is decided by
// guarded updates (state, agent, queued_at compare-and-set) and the site's ACD lock, so two instances sweeping at
// once do each thing once.

/** ring_time of a room whose queue is gone. */
const DEFAULT_RING_SECONDS = 30

export type SweepSummary = { rangOut: number; expired: number; announced: number; sites: number }

export async function sweepOnce(deps: AppDeps, now: Date = new Date(), options: AcdOptions = {}): Promise<SweepSummary> {
  const rangOut = await ringOuts(deps, now)
  const expired = await maxWaits(deps, now, options)
  const announced = await announcePeriodic(deps, now)
  const sites = await deps.db.selectDistinct({ siteId: chatRooms.siteId }).from(chatRooms).where(eq(chatRooms.state, 'queued'))
  for (const { siteId } of sites) await offerWaiting(deps, siteId, options)
  return { rangOut, expired, announced, sites: sites.length }
}

async function ringOuts(deps: AppDeps, now: Date): Promise<number> {
  const due = await deps.db
    .select({ id: chatRooms.id, siteId: chatRooms.siteId, userId: chatRooms.userId })
    .from(chatRooms)
    .leftJoin(chatQueues, eq(chatQueues.id, chatRooms.queueId))
    .where(
      and(
        eq(chatRooms.state, 'offered'),
        isNotNull(chatRooms.userId),
        sql`${chatRooms.offeredAt} <= ${now}::timestamptz - make_interval(secs => coalesce(${chatQueues.ringTime}, ${DEFAULT_RING_SECONDS}))`,
      ),
    )
  let count = 0
  for (const offer of due) {
    const room = await withdrawOffer(deps.db, offer.siteId, offer.id, offer.userId!)
    if (!room) continue
    count++
    await tell(deps, [{ kind: 'withdrawn', room, userId: offer.userId!, reason: 'no_answer' }])
    await refreshWebchatStatus(deps, offer.siteId, offer.userId!)
  }
  return count
}

async function maxWaits(deps: AppDeps, now: Date, options: AcdOptions): Promise<number> {
  const rows = await deps.db
    .select({ room: chatRooms, queue: chatQueues })
    .from(chatRooms)
    .innerJoin(chatQueues, eq(chatQueues.id, chatRooms.queueId))
    .where(
      and(
        eq(chatRooms.state, 'queued'),
        gt(chatQueues.maxWaitTime, 0),
        ne(chatQueues.actionWhenTimeExpires, 'nothing'),
        sql`${chatRooms.queuedAt} <= ${now}::timestamptz - make_interval(secs => ${chatQueues.maxWaitTime})`,
      ),
    )
  let count = 0
  for (const { room, queue } of rows) {
    switch (queue.actionWhenTimeExpires) {
      case 'send_message': {
        const uid = acdUid.expired(room)
        if (!queue.timeExpiresMessage.trim() || (await hasMessage(deps.db, room.siteId, uid))) break
        if (await queueMessage(deps, room, { uid, content: queue.timeExpiresMessage, visible: true })) count++
        break
      }
      case 'overflow': {
        // Claimed by moving queued_at (compare-and-set): one instance overflows it; a destination that fails leaves
        // the room waiting in its queue for another max_wait_time.
        const [claimed] = await deps.db
          .update(chatRooms)
          .set({ queuedAt: now, revision: sql`nextval('chat_revision_seq')` })
          .where(and(eq(chatRooms.id, room.id), eq(chatRooms.state, 'queued'), eq(chatRooms.queuedAt, room.queuedAt!)))
          .returning()
        if (!claimed) break
        count++
        await toDestination(deps, claimed, queue.overflowApp, queue.overflowAppdata, 0, options)
        break
      }
      case 'close': {
        if (await endRoomBySystem(deps, room, 'timeout')) count++
        break
      }
    }
  }
  return count
}

/** Starts the sweep (one tick at a time, every `intervalMs`); answers the function that stops it. */
export function startAcdSweep(deps: AppDeps, options: { intervalMs?: number; onError?: (error: unknown) => void } = {}): () => Promise<void> {
  const interval = options.intervalMs ?? 1000
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<unknown> = Promise.resolve()
  const tick = () => {
    if (stopped) return
    running = sweepOnce(deps)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, interval)
      })
  }
  timer = setTimeout(tick, interval)
  return async () => {
    stopped = true
    if (timer) clearTimeout(timer)
    await running
  }
}
