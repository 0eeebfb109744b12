import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { MessageRow } from './serialize.ts'

// Read receipts (issue 13): when the agent reads a room, the provider is told the customer's last message read
// (WhatsApp: POST /{phone-number-id}/messages {status: 'read', message_id}, which marks every earlier one too, and the
// customer sees blue ticks). It goes through the outbox like a message — durable, retried, after the earlier sends to
// that customer — as a row naming the inbound message; the dispatcher hands the driver `markRead` (outbox.ts).
// Only channels whose provider has receipts (WhatsApp); the widget hears 'status' events instead.

const RECEIPT_CHANNELS = ['whatsapp']

/**
 * In the read's transaction: queues the receipt for the newest of the messages just read that has a provider id —
 * newest by the provider's own time (a customer's messages may be stored out of order: two deliveries processed at
 * once), and every message sharing that second gets one (WhatsApp marks the ones before the named message in its own
 * order, which a tie in seconds leaves unknown).
 */
export async function queueReadReceipt(
  db: Db,
  roomId: number,
  read: readonly Pick<MessageRow, 'id' | 'externalId' | 'sentBy' | 'createdAt'>[],
): Promise<boolean> {
  const candidates = read.filter((m) => m.sentBy === 'client' && m.externalId)
  if (candidates.length === 0) return false
  const newest = Math.max(...candidates.map((m) => Math.floor(m.createdAt.getTime() / 1000)))
  const lasts = candidates
    .filter((m) => Math.floor(m.createdAt.getTime() / 1000) === newest)
    .map((m) => m.id)
    .sort((a, b) => a - b)
  let queued = false
  for (const last of lasts) queued = (await queueOne(db, roomId, last)) || queued
  return queued
}

async function queueOne(db: Db, roomId: number, last: number): Promise<boolean> {
  const result = (await db.execute(sql`
    insert into chat_outbox (site_id, channel_id, message_id, recipient)
    select r.site_id, r.channel_id, ${last}, r.address
    from chat_rooms r join chat_channels c on c.id = r.channel_id
    where r.id = ${roomId} and c.type in (${sql.join(
      RECEIPT_CHANNELS.map((t) => sql`${t}`),
      sql`, `,
    )})
    on conflict do nothing`)) as unknown as { rowCount?: number; affectedRows?: number }
  return (result.rowCount ?? result.affectedRows ?? 0) > 0
}
