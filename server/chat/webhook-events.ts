import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../deps.ts'
import type { Db } from '../db/client.ts'
import { chatChannels, chatWebhookEvents } from '../db/schema/index.ts'
import { Batcher, perDatabase } from './batch.ts'

// Raw provider events (README.md): stored before the provider is answered 200, then processed by the channel's
// processor. A failure counts an attempt and is retried with back-off by the sweep; after a restart the sweep
// processes what was stored but never finished. Processors must be idempotent (the messages' unique provider ids and
// the forward-only statuses make a second run a no-op).

/** Answers `{marked: true}` when its own statement already marked the event processed (inbound.ts: a lone message). */
export type WebhookProcessor = (deps: AppDeps, event: { id: number; siteId: number; channelId: number; body: Buffer }) => Promise<void | { marked: boolean }>

const processors = new Map<string, WebhookProcessor>()

/** An event is given up after this many failed attempts (kept, with its last error, for a person to look at). */
export const WEBHOOK_MAX_ATTEMPTS = 12
/** An unprocessed event younger than this belongs to the request that stored it (not yet the sweep's). */
const GRACE_SECONDS = 10

/** A channel names how its stored events are processed (once now, again by the recovery after a crash). */
export function registerWebhookProcessor(channelType: string, processor: WebhookProcessor): void {
  processors.set(channelType, processor)
}

export function webhookProcessor(channelType: string): WebhookProcessor | undefined {
  return processors.get(channelType)
}

type NewEvent = { siteId: number; channelId: number; body: Buffer }

/**
 * Webhooks that arrive together are stored by one multi-row INSERT (its RETURNING keeps the VALUES' order). Plain SQL
 * on the hot path: drizzle's insert builder cost more CPU than the statement's round trip (bench/chat.ts profile).
 */
const storer = perDatabase(
  (db: Db) =>
    new Batcher<NewEvent, number>(async (events) => {
      const values = sql.join(
        events.map((e) => sql`(${e.siteId}::int, ${e.channelId}::int, ${e.body})`),
        sql`, `,
      )
      const result = (await db.execute(sql`insert into chat_webhook_events (site_id, channel_id, body) values ${values} returning id`)) as unknown as {
        rows: { id: string | number }[]
      }
      return result.rows.map((r) => Number(r.id))
    }),
)

/** Events processed together are marked by one UPDATE (a mark lost to a crash only means a harmless second run). */
const marker = perDatabase(
  (db: Db) =>
    new Batcher<number, void>(async (ids) => {
      await db.execute(
        sql`update chat_webhook_events set processed_at = now(), last_error = null where id in (${sql.join(
          ids.map((id) => sql`${id}::bigint`),
          sql`, `,
        )})`,
      )
      return ids.map(() => undefined)
    }),
)

/** Stores the raw body; answers its id. The caller answers the provider only after this resolves. */
export function storeWebhookEvent(deps: AppDeps, event: NewEvent): Promise<number> {
  return storer(deps.db).add(event)
}

/** A stored event as its processor needs it (what the webhook route already holds right after storing it). */
export type StoredWebhookEvent = { id: number; siteId: number; channelId: number; body: Buffer; type: string }

/**
 * Processes one stored event with its channel's processor; marks it processed, or counts the failed attempt.
 * Answers true when processed. Never throws. `fresh`: the event the caller has just stored (not read again).
 */
export async function processWebhookEvent(deps: AppDeps, id: number, fresh?: StoredWebhookEvent): Promise<boolean> {
  let event: (StoredWebhookEvent & { processedAt: Date | null }) | undefined
  if (fresh && fresh.id === id) event = { ...fresh, processedAt: null }
  else {
    const [row] = await deps.db
      .select({
        id: chatWebhookEvents.id,
        siteId: chatWebhookEvents.siteId,
        channelId: chatWebhookEvents.channelId,
        body: chatWebhookEvents.body,
        processedAt: chatWebhookEvents.processedAt,
        type: chatChannels.type,
      })
      .from(chatWebhookEvents)
      .innerJoin(chatChannels, eq(chatChannels.id, chatWebhookEvents.channelId))
      .where(eq(chatWebhookEvents.id, id))
    event = row && { ...row, body: Buffer.from(row.body) }
  }
  if (!event) return false
  if (event.processedAt) return true
  const processor = processors.get(event.type)
  try {
    if (!processor) throw new Error(`no webhook processor for ${event.type}`)
    const done = await processor(deps, { id: event.id, siteId: event.siteId, channelId: event.channelId, body: event.body })
    if (!done?.marked) await marker(deps.db).add(id)
    return true
  } catch (error) {
    await deps.db
      .update(chatWebhookEvents)
      .set({ attempts: sql`${chatWebhookEvents.attempts} + 1`, lastError: (error instanceof Error ? error.message : String(error)).slice(0, 1000) })
      .where(and(eq(chatWebhookEvents.id, id), isNull(chatWebhookEvents.processedAt)))
      .catch(() => {})
    return false
  }
}

/**
 * Processes the events left unprocessed: at start (a crash between storing and processing) and on a timer (failed
 * attempts, due after 2^attempts seconds from their arrival). Answers how many it processed.
 */
export async function recoverWebhookEvents(deps: AppDeps, limit = 100): Promise<number> {
  const due = (await deps.db.execute(sql`
    select id from chat_webhook_events
    where processed_at is null and attempts < ${WEBHOOK_MAX_ATTEMPTS}
      and received_at + make_interval(secs => ${GRACE_SECONDS} + power(2, attempts)) <= now()
    order by id limit ${limit}`)) as unknown as { rows: { id: string | number }[] }
  let done = 0
  for (const row of due.rows) if (await processWebhookEvent(deps, Number(row.id))) done++
  return done
}
