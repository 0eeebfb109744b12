import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { MessageRow } from './serialize.ts'

// Read receipts (issue 13): when the agent reads a room, the provider is told the customer's last message read
// (WhatsApp: POST /{phone-number-id}/messages {status: 'read', message_id}, which marks every earlier one too, and the
// customer sees blue ticks). It goes through the outbox like a message — durable, retried, after the earlier sends to
// that customer — as a row naming the inbound message; the dispatcher hands the driver `markRead` (outbox.ts).
// Only channels whose provider has receipts (WhatsApp); the widget hears 'status' events instead.

const RECEIPT_CHANNELS = ['whatsapp']

/** In the read's transaction: queues the receipt for the newest of the messages just read that has a provider id. */
export async function queueReadReceipt(db: Db, roomId: number, read: readonly Pick<MessageRow, 'id' | 'externalId' | 'sentBy'>[]): Promise<boolean> {
  let last: number | null = null
  for (const m of read) if (m.sentBy === 'client' && m.externalId && (last === null || m.id > last)) last = m.id
  if (last === null) return false
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
