import { describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { CHAT_CHANNEL } from '../../../server/chat/events.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { useTestApp } from '../helper.ts'
import { chatFixture, roomMessages, roomRow, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

describe('receiveInbound', () => {
  it('opens a room for a new customer, continues it for the next message, and publishes room and message', async () => {
    const f = await fixture()
    const first = await receiveInbound(f.deps, waText(f, '5511988887777', 'Olá'))
    expect(first).toMatchObject({ duplicate: false, newRoom: true })
    const second = await receiveInbound(f.deps, waText(f, '5511988887777', 'Tudo bem?'))
    expect(second).toMatchObject({ roomId: first.roomId, duplicate: false, newRoom: false })
    const room = await roomRow(f, first.roomId)
    expect(room).toMatchObject({ contact: '5511988887777', address: '5511988887777', title: 'Maria', state: 'new', chatType: 20 })
    expect(room.lastClientMessageContent).toBe('Tudo bem?')
    expect(room.lastMessageId).toBe(second.messageId)
    await until(() => f.events.some((e) => e.type === 'message' && e.message.id === second.messageId), 'the message event')
    expect(f.events.filter((e) => e.type === 'room' && e.room.id === first.roomId)).toHaveLength(1)
  })

  it('the customer without the ninth digit continues the room of the number with it, and replies go to the wa_id last used', async () => {
    const f = await fixture()
    const a = await receiveInbound(f.deps, waText(f, '5548999112233', 'com nove'))
    const b = await receiveInbound(f.deps, waText(f, '554899112233', 'sem nove'))
    expect(b.roomId).toBe(a.roomId)
    expect((await roomRow(f, a.roomId)).address).toBe('554899112233')
  })

  it('a redelivered wamid leaves one message (twice, and ten times at once) and publishes nothing more', async () => {
    const f = await fixture()
    const message = waText(f, '5511977776666', 'uma vez')
    const first = await receiveInbound(f.deps, message)
    const again = await receiveInbound(f.deps, message)
    expect(again).toEqual({ roomId: first.roomId, messageId: first.messageId, duplicate: true, newRoom: false })
    const burst = await Promise.all(Array.from({ length: 10 }, () => receiveInbound(f.deps, message)))
    expect(burst.every((r) => r.duplicate && r.messageId === first.messageId)).toBe(true)
    expect(await roomMessages(f, first.roomId)).toHaveLength(1)
    await until(() => f.events.some((e) => e.type === 'message' && e.message.id === first.messageId), 'the first message event')
    // A marker published after the redeliveries arrives after anything they could have published.
    await f.deps.bus.publish(CHAT_CHANNEL, { type: 'removed', site_id: 0, users: [], room_id: -1 })
    await until(() => f.events.some((e) => e.type === 'removed' && e.room_id === -1), 'the marker')
    expect(f.events.filter((e) => e.type === 'message' && e.message.id === first.messageId)).toHaveLength(1)
  })

  it('ten first messages of a new customer delivered at once open one room with ten messages', async () => {
    const f = await fixture()
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => receiveInbound(f.deps, waText(f, '5521966665555', `mensagem ${i}`))))
    expect(new Set(results.map((r) => r.roomId)).size).toBe(1)
    expect(results.filter((r) => r.newRoom)).toHaveLength(1)
    expect(await roomMessages(f, results[0]!.roomId)).toHaveLength(10)
  })

  it('a new WhatsApp message of the same customer whose wamid arrives 10 times concurrently as a NEW customer leaves one room and one message', async () => {
    const f = await fixture()
    const message = waText(f, '5531955554444', 'primeira')
    const results = await Promise.all(Array.from({ length: 10 }, () => receiveInbound(f.deps, message)))
    expect(new Set(results.map((r) => r.roomId)).size).toBe(1)
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1)
    expect(await roomMessages(f, results[0]!.roomId)).toHaveLength(1)
  })

  it('a widget resend with the same uid leaves one message', async () => {
    const f = await fixture()
    const uid = randomUUID()
    const message = {
      siteId: f.siteId,
      channelId: f.webchat,
      customer: { contact: 'visitor-abc' },
      uid,
      type: 'text' as const,
      content: 'oi',
      sentAt: new Date(),
    }
    const first = await receiveInbound(f.deps, message)
    const again = await receiveInbound(f.deps, message)
    expect(again).toMatchObject({ messageId: first.messageId, duplicate: true })
    expect(await roomMessages(f, first.roomId)).toHaveLength(1)
    expect((await roomRow(f, first.roomId)).contact).toBe('visitor-abc')
  })

  it("the customer's reply to a template ends awaiting_template_reply; a late message does not move the window back", async () => {
    const f = await fixture()
    const first = await receiveInbound(f.deps, waText(f, '5541944443333', 'oi'))
    const { chatRooms } = await import('../../../server/db/schema/index.ts')
    const { eq } = await import('drizzle-orm')
    await f.deps.db.update(chatRooms).set({ awaitingTemplateReply: true }).where(eq(chatRooms.id, first.roomId))
    const now = new Date()
    await receiveInbound(f.deps, waText(f, '5541944443333', 'respondi', { sentAt: now }))
    const room = await roomRow(f, first.roomId)
    expect(room.awaitingTemplateReply).toBe(false)
    await receiveInbound(f.deps, waText(f, '5541944443333', 'atrasada', { sentAt: new Date(now.getTime() - 3 * 86_400_000) }))
    expect((await roomRow(f, first.roomId)).lastClientMessageAt!.getTime()).toBe(now.getTime())
  })

  it('a reply names the message it answers (context id)', async () => {
    const f = await fixture()
    const original = waText(f, '5551933332222', 'pergunta')
    const a = await receiveInbound(f.deps, original)
    const b = await receiveInbound(f.deps, waText(f, '5551933332222', 'resposta', { replyToExternalId: original.externalId }))
    const messages = await roomMessages(f, a.roomId)
    expect(messages.find((m) => m.id === b.messageId)!.replyToId).toBe(a.messageId)
  })
})
