import { describe, expect, it, vi } from 'vitest'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { processWebhookEvent, storeWebhookEvent } from '../../../server/chat/webhook-events.ts'
import { chatChannels, chatRoomMessages, chatRooms, chatWebhookEvents } from '../../../server/db/schema/index.ts'
import { CUSTOMER, envelope, message, value as waValue } from '../channels/whatsapp/payloads.ts'
import type { InboundMessage } from '../../../server/chat/types.ts'
import { useTestApp } from '../helper.ts'
import { chatFixture, roomMessages, roomRow, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

// The inbound path's group commit (server/chat/batch.ts, inbound.ts continueOpenRooms): messages that arrive while a
// statement is in flight go in together, as one statement. Whatever a batch holds — several messages of one room,
// rooms of several customers, a new customer, the same wamid twice, a redelivery of an old message, a message the
// statement refuses — the guarantees are those of one message at a time.

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

const at = (base: number, i: number) => new Date(base + i * 1000)

/** Runs the burst at once, counting the database statements it took (fewer than its messages: they were grouped). */
async function burst(f: ChatFixture, messages: InboundMessage[]) {
  const execute = vi.spyOn(f.deps.db, 'execute')
  try {
    const settled = await Promise.allSettled(messages.map((m) => receiveInbound(f.deps, m)))
    const batched = execute.mock.calls.filter(([query]) => JSON.stringify(query).includes('jsonb_to_recordset')).length
    return { settled, batched }
  } finally {
    execute.mockRestore()
  }
}

const value = <T>(s: PromiseSettledResult<T>): T => {
  if (s.status === 'rejected') throw s.reason
  return s.value
}

async function byWamid(f: ChatFixture, wamids: string[]) {
  return f.deps.db
    .select()
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.channelId, f.whatsapp), inArray(chatRoomMessages.externalId, wamids)))
}

describe('inbound messages grouped in one statement', () => {
  it('a burst of open rooms, a new customer, duplicates and a redelivery leaves exactly the expected messages and rooms', async () => {
    const f = await fixture()
    const base = Date.now()
    const [a, b, c] = ['5511930000001', '5511930000002', '5511930000003']
    const d = '5511930000004'
    const roomA = (await receiveInbound(f.deps, waText(f, a, 'a0', { sentAt: at(base, 0) }))).roomId
    const roomB = (await receiveInbound(f.deps, waText(f, b, 'b0', { sentAt: at(base, 0) }))).roomId
    const old = waText(f, c, 'c0', { sentAt: at(base, 0) })
    const first = await receiveInbound(f.deps, old)
    const roomC = first.roomId

    const b1 = waText(f, b, 'b1', { sentAt: at(base, 2) })
    const messages = [
      waText(f, a, 'a1', { sentAt: at(base, 1) }),
      b1,
      waText(f, a, 'a2', { sentAt: at(base, 2) }),
      waText(f, d, 'd1', { sentAt: at(base, 1) }),
      { ...b1 },
      old,
      waText(f, a, 'a3', { sentAt: at(base, 3) }),
      waText(f, d, 'd2', { sentAt: at(base, 2) }),
      waText(f, b, 'b2', { sentAt: at(base, 3) }),
    ]
    const { settled, batched } = await burst(f, messages)
    const results = settled.map(value)
    // The first ran alone; what arrived meanwhile went in together.
    expect(batched).toBeGreaterThan(0)
    expect(batched).toBeLessThan(messages.length)

    // The same wamid twice in the batch: one message, both answers name it, one of them a duplicate.
    expect(results[1]!.messageId).toBe(results[4]!.messageId)
    expect([results[1]!.duplicate, results[4]!.duplicate].sort()).toEqual([false, true])
    // The redelivery of a message stored before: the first delivery's message.
    expect(results[5]).toEqual({ roomId: roomC, messageId: first.messageId, duplicate: true, newRoom: false })
    // The new customer: one room, opened once.
    expect(results[3]!.roomId).toBe(results[7]!.roomId)
    expect([results[3]!.newRoom, results[7]!.newRoom].filter(Boolean)).toHaveLength(1)
    const roomD = results[3]!.roomId
    for (const i of [0, 2, 6]) expect(results[i]!.roomId).toBe(roomA)
    for (const i of [1, 8]) expect(results[i]!.roomId).toBe(roomB)

    // One message per wamid, in its customer's room.
    const wamids = [...new Set(messages.map((m) => m.externalId!))]
    const rows = await byWamid(f, wamids)
    expect(rows).toHaveLength(wamids.length)
    expect((await roomMessages(f, roomA)).map((m) => m.content).sort()).toEqual(['a0', 'a1', 'a2', 'a3'])
    expect((await roomMessages(f, roomB)).map((m) => m.content).sort()).toEqual(['b0', 'b1', 'b2'])
    expect((await roomMessages(f, roomC)).map((m) => m.content)).toEqual(['c0'])
    expect((await roomMessages(f, roomD)).map((m) => m.content).sort()).toEqual(['d1', 'd2'])

    // Each room points at its newest message and keeps the last one's preview (several of one room in one batch).
    for (const [roomId, last] of [
      [roomA, 'a3'],
      [roomB, 'b2'],
      [roomD, 'd2'],
    ] as const) {
      const room = await roomRow(f, roomId)
      const own = await roomMessages(f, roomId)
      expect(room.lastMessageId).toBe(Math.max(...own.map((m) => m.id)))
      expect(room.lastClientMessageContent).toBe(last)
      expect(room.lastClientMessageAt!.getTime()).toBe(Math.max(...own.map((m) => m.createdAt.getTime())))
    }
    // One open room per customer.
    for (const contact of [a, b, c, d]) {
      const open = await f.deps.db
        .select({ id: chatRooms.id })
        .from(chatRooms)
        .where(and(eq(chatRooms.channelId, f.whatsapp), eq(chatRooms.contact, contact), isNull(chatRooms.endedAt)))
      expect(open).toHaveLength(1)
    }
    // One 'message' event per stored message, none for the duplicates.
    const ids = new Set(rows.map((r) => r.id))
    await until(() => [...ids].every((id) => f.events.some((e) => e.type === 'message' && e.message.id === id)), 'the message events')
    for (const id of ids) expect(f.events.filter((e) => e.type === 'message' && e.message.id === id)).toHaveLength(1)
  })

  it('a message the grouped statement refuses fails alone: the others of its batch are stored and published', async () => {
    const f = await fixture()
    const base = Date.now()
    const contacts = ['5511931000001', '5511931000002', '5511931000003']
    for (const contact of contacts) await receiveInbound(f.deps, waText(f, contact, 'oi', { sentAt: at(base, 0) }))
    const good = contacts.flatMap((contact, i) => [
      waText(f, contact, `${i}-1`, { sentAt: at(base, 1) }),
      waText(f, contact, `${i}-2`, { sentAt: at(base, 2) }),
    ])
    // A provider id longer than the column takes: the statement carrying it fails as a whole.
    const bad = waText(f, contacts[1]!, 'bad', { sentAt: at(base, 3), externalId: `wamid.${'x'.repeat(300)}` })
    const messages = [good[0]!, ...good.slice(1, 3), bad, ...good.slice(3)]
    const { settled, batched } = await burst(f, messages)
    expect(batched).toBeGreaterThan(0)
    expect(batched).toBeLessThan(messages.length)
    expect(settled[messages.indexOf(bad)]!.status).toBe('rejected')
    const fine = settled.filter((_, i) => messages[i] !== bad)
    expect(fine.every((s) => s.status === 'fulfilled' && !s.value.duplicate)).toBe(true)
    const rows = await byWamid(
      f,
      good.map((m) => m.externalId!),
    )
    expect(rows.map((r) => r.content).sort()).toEqual(good.map((m) => m.content).sort())
    const ids = new Set(rows.map((r) => r.id))
    await until(() => [...ids].every((id) => f.events.some((e) => e.type === 'message' && e.message.id === id)), 'the message events')
    // Each room's preview is its newest stored message (the refused one left no trace).
    for (const [i, contact] of contacts.entries()) {
      const [room] = await f.deps.db
        .select()
        .from(chatRooms)
        .where(and(eq(chatRooms.channelId, f.whatsapp), eq(chatRooms.contact, contact), isNull(chatRooms.endedAt)))
      expect(room!.lastClientMessageContent).toBe(`${i}-2`)
    }
  })

  it('a webhook of one message is marked processed by the statement that stores its message; of two, by its own mark', async () => {
    const f = await fixture()
    const [channel] = await f.deps.db.select({ pnid: chatChannels.phoneNumberId }).from(chatChannels).where(eq(chatChannels.id, f.whatsapp))
    const roomId = (await receiveInbound(f.deps, waText(f, CUSTOMER, 'antes'))).roomId
    const processed = async (id: number) =>
      (await f.deps.db.select({ at: chatWebhookEvents.processedAt }).from(chatWebhookEvents).where(eq(chatWebhookEvents.id, id)))[0]!.at
    const lone = message('text', { text: { body: 'sozinha' } })
    const pair = [message('text', { text: { body: 'um' } }), message('text', { text: { body: 'dois' } })]
    for (const messages of [[lone], pair]) {
      const body = Buffer.from(JSON.stringify(envelope(waValue({ messages }, channel!.pnid!))))
      const id = await storeWebhookEvent(f.deps, { siteId: f.siteId, channelId: f.whatsapp, body })
      expect(await processed(id)).toBeNull()
      expect(await processWebhookEvent(f.deps, id)).toBe(true)
      expect(await processed(id)).not.toBeNull()
      // Processed again (a recovery racing the request): nothing more.
      await f.deps.db.update(chatWebhookEvents).set({ processedAt: null }).where(eq(chatWebhookEvents.id, id))
      expect(await processWebhookEvent(f.deps, id)).toBe(true)
      expect(await processed(id)).not.toBeNull()
    }
    const contents = (await roomMessages(f, roomId)).map((m) => m.content)
    expect(contents.sort()).toEqual(['antes', 'dois', 'sozinha', 'um'])
  })
})
