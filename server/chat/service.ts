import type { FastifyInstance } from 'fastify'
import { resumePendingDownloads, stopAttachmentDownloads } from './attachment-download.ts'
import { chatAttachmentRoutes } from './attachments.ts'
import { sweepOnce as sweepChatQueues } from './acd/sweep.ts'
import { sweepPendingDeliveries } from './delivery.ts'
import { sweepInactiveRooms } from './lifecycle.ts'
import { OutboxDispatcher } from './outbox.ts'
import { recoverWebhookEvents } from './webhook-events.ts'

// The chat engine's background work (README.md), started with the app and stopped with it: the outbox dispatcher,
// the inactivity removal (every second), the recovery and retries of stored webhook events, pending attachment
// downloads and the forgetting of stale delivery reports. Plus the attachment routes.

export type ChatServiceOptions = {
  /** Run the outbox dispatcher (default true; tests that drive one by hand turn it off). */
  dispatcher?: boolean
  /** Run the sweeps (default true). */
  sweeps?: boolean
}

export type ChatHandle = {
  dispatcher: OutboxDispatcher | null
  /** Runs every sweep once now (tests). */
  sweep(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatHandle
  }
}

const ROOM_SWEEP_MS = 1000
const WEBHOOK_SWEEP_MS = 5000
const PENDING_SWEEP_MS = 60_000

export async function chatService(app: FastifyInstance, options: ChatServiceOptions = {}): Promise<void> {
  const deps = app.deps
  const log = app.log.child({ part: 'chat' })
  const dispatcher = options.dispatcher === false ? null : new OutboxDispatcher(deps, log)
  const timers: NodeJS.Timeout[] = []
  const running = new Set<Promise<unknown>>()
  let closing = false

  /** One run of a sweep at a time; a failure is logged and the next tick tries again. */
  function every(ms: number, name: string, task: () => Promise<unknown>) {
    let busy = false
    const timer = setInterval(() => {
      if (busy || closing) return
      busy = true
      const run = task()
        .catch((err: unknown) => log.warn({ err }, `chat: ${name} failed`))
        .finally(() => {
          busy = false
          running.delete(run)
        })
      running.add(run)
    }, ms)
    timer.unref()
    timers.push(timer)
  }

  const sweep = async () => {
    await sweepInactiveRooms(deps)
    await sweepChatQueues(deps)
    await recoverWebhookEvents(deps)
    await sweepPendingDeliveries(deps)
  }

  app.decorate('chat', { dispatcher, sweep } satisfies ChatHandle)

  app.addHook('onReady', async () => {
    await dispatcher?.start()
    if (options.sweeps !== false) {
      every(ROOM_SWEEP_MS, 'removing inactive rooms', () => sweepInactiveRooms(deps))
      every(ROOM_SWEEP_MS, 'chat queues (ring-outs, maximum waits, announcements, offers)', () => sweepChatQueues(deps))
      every(WEBHOOK_SWEEP_MS, 'processing stored webhook events', () => recoverWebhookEvents(deps))
      every(PENDING_SWEEP_MS, 'forgetting stale delivery reports', () => sweepPendingDeliveries(deps))
      resumePendingDownloads(deps).catch((err: unknown) => log.warn({ err }, 'chat: resuming attachment downloads failed'))
    }
  })

  app.addHook('onClose', async () => {
    closing = true
    for (const timer of timers) clearInterval(timer)
    await dispatcher?.stop()
    await Promise.allSettled([...running])
    await stopAttachmentDownloads()
  })

  await app.register(chatAttachmentRoutes)
}
// Registered at the root: app.chat belongs to the whole app.
;(chatService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
