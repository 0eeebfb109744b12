import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { createSimulator } from '../../../../simulator/whatsapp/simulator.ts'
import type { Simulator } from '../../../../simulator/whatsapp/simulator.ts'
import { chatOutbox, chatRoomMessages, chatRooms } from '../../../../server/db/schema/index.ts'
import { useTestApp } from '../../helper.ts'
import { listen, sessionCookie } from '../../realtime/ws-helper.ts'
import { openChat, userId } from '../../chat/chat-fixtures.ts'
import { APP_SECRET, createWhatsAppChannel } from './channel-fixture.ts'

// Read receipts (issue 13): the agent reads a room on the chat socket (read_message) → the outbox → the channel's
// driver tells the Graph API the customer's last message was read (POST /{phone-number-id}/messages {status: 'read'}) →
// the customer sees blue ticks. End to end against the WhatsApp simulator (simulator/whatsapp/), which keeps the
// customer's phone: its inbound messages turn 'read' only when the product marks them so.

const t = useTestApp()
const PHONE = '106540352200001'
const CUSTOMER = '5511987650042'
const SIM_PORT = 8331
let sim: Simulator
let base: string
let channelId: number
let siteId: number

beforeAll(async () => {
  base = await listen(t.app)
  sim = createSimulator({ port: SIM_PORT, logger: false, sentDelayMs: 0, deliveredDelayMs: 0, autoReadMs: null })
  await sim.listen()
  const channel = await createWhatsAppChannel(t.database.db, { graphUrl: sim.url, phoneNumberId: PHONE })
  channelId = channel!.id
  siteId = channel!.siteId
  sim.addNumber({
    phone_number_id: PHONE,
    waba_id: '102290129300001',
    access_token: 'EAAG-test-token',
    app_secret: APP_SECRET,
    display_phone_number: '5511999990042',
    webhook_url: `${base.replace('ws:', 'http:')}/webhooks/whatsapp/${channelId}/`,
  })
})
afterAll(async () => {
  await sim?.close()
})

const inboundStatuses = () =>
  [...sim.state.conversations.values()].filter((c) => c.phone_number_id === PHONE).flatMap((c) => c.messages.filter((m) => m.direction === 'in'))

describe('WhatsApp read receipts', () => {
  it('the agent reads the room: the customer sees blue ticks on every message up to the last one, through the outbox', async () => {
    const db = t.database.db
    const agent = await userId(db, siteId, 'agent1')
    await sim.inbound({ phone_number_id: PHONE, from: CUSTOMER, type: 'text', text: { body: 'primeira' }, wait: true })
    await sim.inbound({ phone_number_id: PHONE, from: CUSTOMER, type: 'text', text: { body: 'segunda' }, wait: true })
    const room = await vi.waitFor(
      async () => {
        const [r] = await db
          .select()
          .from(chatRooms)
          .where(and(eq(chatRooms.channelId, channelId), eq(chatRooms.contact, CUSTOMER)))
        const messages = r ? await db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, r.id)) : []
        if (!r || messages.length < 2) throw new Error('the two messages are not in yet')
        return r
      },
      { timeout: 20_000, interval: 50 },
    )
    await db.update(chatRooms).set({ userId: agent, state: 'active', answeredAt: new Date() }).where(eq(chatRooms.id, room.id))
    expect(inboundStatuses().map((m) => m.status)).not.toContain('read')

    const socket = await openChat(base, { cookie: await sessionCookie(t.app, 'agent1') })
    try {
      socket.send({ action: 'read_message', step_id: room.id })
      // The customer's phone shows both read (Meta marks every earlier message with the last one).
      await vi.waitFor(
        () => {
          const statuses = inboundStatuses().map((m) => m.status)
          if (statuses.length !== 2 || statuses.some((s) => s !== 'read')) throw new Error(`customer sees ${statuses.join(', ')}`)
        },
        { timeout: 20_000, interval: 50 },
      )
      // The receipt left the outbox, and the messages are read on our side too.
      await vi.waitFor(async () => expect(await db.select().from(chatOutbox).where(eq(chatOutbox.channelId, channelId))).toEqual([]), {
        timeout: 10_000,
        interval: 50,
      })
      const rows = await db.select().from(chatRoomMessages).where(eq(chatRoomMessages.roomId, room.id))
      expect(rows.map((r) => r.readByAgent)).toEqual([true, true])
      // Reading again sends nothing more (no message left unread): nothing is queued.
      socket.send({ action: 'read_message', step_id: room.id })
      await socket.next('chat')
      expect(await db.select().from(chatOutbox).where(eq(chatOutbox.channelId, channelId))).toEqual([])
    } finally {
      socket.close()
    }
  })
})
