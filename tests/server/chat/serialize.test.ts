import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { applyDelivery } from '../../../server/chat/delivery.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { sendAgentMessage } from '../../../server/chat/outbound.ts'
import { registerChannelDriver } from '../../../server/chat/outbox.ts'
import { loadRoom } from '../../../server/chat/serialize.ts'
import { WINDOW_MS, windowOpen } from '../../../server/chat/window.ts'
import type { DeliverResult } from '../../../server/chat/types.ts'
import { chatChannels, chatRoomMessages } from '../../../server/db/schema/index.ts'
import { HttpError } from '../../../server/errors/http-error.ts'
import { useTestApp } from '../helper.ts'
import { assign, chatFixture, roomRow, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

let answer: () => DeliverResult = () => ({ outcome: 'retry', afterMs: 3_600_000, reason: 'held' })
registerChannelDriver({ type: 'whatsapp', deliver: async () => answer() })

describe('the 24-hour window', () => {
  it('is open until 24 h after the customer’s last message, less the margin', () => {
    const last = new Date('2026-01-01T10:00:00Z')
    expect(windowOpen(null)).toBe(false)
    expect(windowOpen(last, new Date(last.getTime() + WINDOW_MS - 120_000), 60_000)).toBe(true)
    expect(windowOpen(last, new Date(last.getTime() + WINDOW_MS - 30_000), 60_000)).toBe(false)
    expect(windowOpen(last, new Date(last.getTime() + WINDOW_MS - 30_000), 0)).toBe(true)
  })
})

describe('serialized rooms', () => {
  it('carry the contract fields: unread ids, last message, compatibility from the channel, flags', async () => {
    const f = await fixture()
    await f.deps.db.update(chatChannels).set({ sendVoice: false, emoji: false }).where(eq(chatChannels.id, f.whatsapp))
    const a = await receiveInbound(f.deps, waText(f, '5511911112222', 'primeira'))
    const b = await receiveInbound(f.deps, waText(f, '5511911112222', 'segunda'))
    await f.deps.db.update(chatRoomMessages).set({ readByAgent: true }).where(eq(chatRoomMessages.id, a.messageId))
    const room = (await loadRoom(f.deps, f.siteId, a.roomId))!
    expect(room).toMatchObject({
      id: a.roomId,
      title: 'Maria',
      phone: '5511911112222',
      status: 'new',
      archived: false,
      channel: { id: f.whatsapp, description: 'WhatsApp', type: 'whatsapp' },
      unread_messages: [b.messageId],
      last_client_message_content: 'segunda',
      has_expired: false,
      can_agent_send_message: true,
      chat_type: 20,
      user: null,
      compatibility: { btn_template: true, send_voice: false, emoji: false, send_attachment: true, show_message_status: true, btn_dial: true },
    })
    expect(room.last_message).toMatchObject({ id: b.messageId, content: 'segunda', sent_by: 'client', name: 'Maria', status: null, attachment: null })
    expect(room.revision).toBeGreaterThan(0)
  })

  it('a webchat room never expires; a WhatsApp room expires 24 h after the customer’s last message', async () => {
    const f = await fixture()
    const old = new Date(Date.now() - 25 * 3600_000)
    const web = await receiveInbound(f.deps, {
      siteId: f.siteId,
      channelId: f.webchat,
      customer: { contact: 'v-old' },
      type: 'text',
      content: 'oi',
      sentAt: old,
    })
    expect((await loadRoom(f.deps, f.siteId, web.roomId))!).toMatchObject({
      has_expired: false,
      channel: { type: 'webchat' },
      compatibility: { btn_template: false },
    })
    const wa = await receiveInbound(f.deps, waText(f, '5511911113333', 'oi', { sentAt: old }))
    expect((await loadRoom(f.deps, f.siteId, wa.roomId))!.has_expired).toBe(true)
    await receiveInbound(f.deps, waText(f, '5511911113333', 'voltei'))
    expect((await loadRoom(f.deps, f.siteId, wa.roomId))!.has_expired).toBe(false)
  })

  it('WhatsApp’s 131047 (outside the window) expires the room, from the send call or from a later status, until the customer writes', async () => {
    const f = await fixture()
    const inbound = await receiveInbound(f.deps, waText(f, '5511911114444', 'oi'))
    await assign(f, inbound.roomId, f.agent1)
    answer = () => ({ outcome: 'failed', error: { code: 131047, reason: 'Re-engagement message', external_error: true } })
    const refused = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: inbound.roomId, body: { content: 'oi' } })
    await until(async () => (await roomRow(f, inbound.roomId)).windowClosedAt !== null, 'the room to expire')
    expect((await loadRoom(f.deps, f.siteId, inbound.roomId))!.has_expired).toBe(true)
    await until(() => f.events.some((e) => e.type === 'room' && e.room.id === inbound.roomId && e.room.has_expired), 'the expired room event')
    const again = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: inbound.roomId, body: { content: 'de novo' } }).catch(
      (e: unknown) => e,
    )
    expect((again as HttpError).body).toMatchObject({ code: 'chat_expired' })
    expect((await f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, refused.id)))[0]!.status).toBe('failed')

    // The customer writes: open again. Then an asynchronous 131047 for a message the provider had accepted.
    await receiveInbound(f.deps, waText(f, '5511911114444', 'pode mandar'))
    expect((await loadRoom(f.deps, f.siteId, inbound.roomId))!.has_expired).toBe(false)
    answer = () => ({ outcome: 'sent', externalId: 'wamid.async.131047' })
    const accepted = await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: inbound.roomId, body: { content: 'ok' } })
    await until(async () => (await f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, accepted.id)))[0]!.status === 'accepted', 'the send')
    await applyDelivery(f.deps, {
      siteId: f.siteId,
      channelId: f.whatsapp,
      externalId: 'wamid.async.131047',
      status: 'failed',
      at: new Date(),
      error: { code: 131047, reason: 'Re-engagement message', external_error: true },
    })
    expect((await loadRoom(f.deps, f.siteId, inbound.roomId))!.has_expired).toBe(true)
  })
})
