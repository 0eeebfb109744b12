import { describe, expect, it } from 'vitest'
import { eq, inArray, sql } from 'drizzle-orm'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { sendAgentMessage } from '../../../server/chat/outbound.ts'
import { OutboxDispatcher, registerChannelDriver } from '../../../server/chat/outbox.ts'
import type { DeliverResult, OutboxJob } from '../../../server/chat/types.ts'
import { chatOutbox, chatRoomMessages } from '../../../server/db/schema/index.ts'
import { useTestApp } from '../helper.ts'
import { assign, chatFixture, until, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

// Every send the fake provider saw (message id → count), and what it answers.
const sends = new Map<number, number>()
const order: { recipient: string; messageId: number }[] = []
let answer: (job: OutboxJob) => DeliverResult | Promise<DeliverResult> = (job) => ({ outcome: 'sent', externalId: `wamid.${job.message.id}` })
registerChannelDriver({
  type: 'whatsapp',
  deliver: async (_deps, job) => {
    const result = await answer(job)
    if (result.outcome === 'sent') {
      sends.set(job.message.id, (sends.get(job.message.id) ?? 0) + 1)
      order.push({ recipient: job.recipient, messageId: job.message.id })
    }
    return result
  },
})

let n = 0
async function agentRoom(f: ChatFixture) {
  n++
  const inbound = await receiveInbound(f.deps, waText(f, `55319${String(60000000 + n)}`, 'oi'))
  await assign(f, inbound.roomId, f.agent1)
  return inbound.roomId
}
const send = (f: ChatFixture, roomId: number, content: string) => sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId, body: { content } })
const message = async (f: ChatFixture, id: number) => (await f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, id)))[0]!
const outboxEmpty = async (f: ChatFixture, ids: number[]) => (await f.deps.db.select().from(chatOutbox).where(inArray(chatOutbox.messageId, ids))).length === 0

describe('the outbox dispatcher', () => {
  it('sent: stores the provider id, status accepted, deletes the row and publishes the status', async () => {
    const f = await fixture()
    answer = (job) => ({ outcome: 'sent', externalId: `wamid.${job.message.id}` })
    const m = await send(f, await agentRoom(f), 'enviada')
    await until(async () => (await message(f, m.id)).status === 'accepted', 'the send')
    expect((await message(f, m.id)).externalId).toBe(`wamid.${m.id}`)
    expect(await outboxEmpty(f, [m.id])).toBe(true)
    await until(() => f.events.some((e) => e.type === 'status' && e.message.id === m.id && e.message.status === 'accepted'), 'the status event')
  })

  it('retry: the message stays sending, the row waits with attempts + 1, then goes', async () => {
    const f = await fixture()
    let refusals = 0
    answer = (job) => (refusals++ < 2 ? { outcome: 'retry', afterMs: 50, reason: 'rate limited' } : { outcome: 'sent', externalId: `wamid.${job.message.id}` })
    const m = await send(f, await agentRoom(f), 'insistente')
    await until(async () => (await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, m.id)))[0]?.attempts === 1, 'the first retry')
    expect((await message(f, m.id)).status).toBe('sending')
    await until(async () => (await message(f, m.id)).status === 'accepted', 'the send after retries')
    expect(sends.get(m.id)).toBe(1)
  })

  it('failed: the message is failed with the provider error, the row is gone', async () => {
    const f = await fixture()
    answer = () => ({ outcome: 'failed', error: { code: 131026, reason: 'Message undeliverable', external_error: true } })
    const m = await send(f, await agentRoom(f), 'impossível')
    await until(async () => (await message(f, m.id)).status === 'failed', 'the failure')
    expect(await message(f, m.id)).toMatchObject({ errorCode: 131026, errorReason: 'Message undeliverable', externalError: true })
    expect(await outboxEmpty(f, [m.id])).toBe(true)
  })

  it('gives up on a message still refused a day after it was written: failed with the last reason, resendable', async () => {
    const f = await fixture()
    answer = () => ({ outcome: 'retry', afterMs: 10, reason: 'throttled (130429)' })
    const roomId = await agentRoom(f)
    const [row] = await f.deps.db
      .insert(chatRoomMessages)
      .values({
        uid: crypto.randomUUID(),
        siteId: f.siteId,
        roomId,
        channelId: f.whatsapp,
        sentBy: 'agent',
        userId: f.agent1,
        content: 'velha',
        status: 'sending',
      })
      .returning()
    await f.deps.db
      .insert(chatOutbox)
      .values({ siteId: f.siteId, channelId: f.whatsapp, messageId: row!.id, recipient: 'old', createdAt: sql`now() - interval '25 hours'` })
    await until(async () => (await message(f, row!.id)).status === 'failed', 'giving up')
    expect(await message(f, row!.id)).toMatchObject({ errorReason: 'throttled (130429)', externalError: false })
    expect(await outboxEmpty(f, [row!.id])).toBe(true)
  })

  it('drops nothing over 200 messages when the provider refuses 30 % for a retry, and keeps each customer’s order', async () => {
    const f = await fixture()
    let i = 0
    answer = (job) => (i++ % 10 < 3 ? { outcome: 'retry', afterMs: 10, reason: 'busy' } : { outcome: 'sent', externalId: `wamid.${job.message.id}` })
    const rooms = await Promise.all(Array.from({ length: 5 }, () => agentRoom(f)))
    const ids: number[] = []
    for (let k = 0; k < 200; k++) ids.push((await send(f, rooms[k % 5]!, `mensagem ${k}`)).id)
    await until(() => outboxEmpty(f, ids), 'the outbox to drain', 60_000)
    const rows = await f.deps.db.select().from(chatRoomMessages).where(inArray(chatRoomMessages.id, ids))
    expect(rows.every((r) => r.status === 'accepted')).toBe(true)
    expect(ids.every((id) => sends.get(id) === 1)).toBe(true)
    // Per recipient, the provider saw the messages in the order they were written.
    const byRecipient = new Map<string, number[]>()
    for (const o of order.filter((o) => ids.includes(o.messageId)))
      (byRecipient.get(o.recipient) ?? byRecipient.set(o.recipient, []).get(o.recipient)!).push(o.messageId)
    for (const seen of byRecipient.values()) expect(seen).toEqual([...seen].sort((a, b) => a - b))
  }, 90_000)

  it('two dispatchers on one database never send a row twice', async () => {
    const f = await fixture()
    answer = async (job) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return { outcome: 'sent', externalId: `wamid.${job.message.id}` }
    }
    const second = new OutboxDispatcher(f.deps)
    const third = new OutboxDispatcher(f.deps)
    await second.start()
    await third.start()
    try {
      const rooms = await Promise.all(Array.from({ length: 20 }, () => agentRoom(f)))
      const ids = await Promise.all(rooms.flatMap((roomId) => [send(f, roomId, 'a'), send(f, roomId, 'b')]).map(async (p) => (await p).id))
      await until(() => outboxEmpty(f, ids), 'the outbox to drain', 30_000)
      expect(ids.map((id) => sends.get(id))).toEqual(ids.map(() => 1))
    } finally {
      await second.stop()
      await third.stop()
    }
  }, 60_000)

  it('a row claimed by a dispatcher that crashed is sent once its claim expires', async () => {
    const f = await fixture()
    answer = (job) => ({ outcome: 'sent', externalId: `wamid.${job.message.id}` })
    const roomId = await agentRoom(f)
    // Written as a crashed dispatcher leaves it: claimed, never answered; its claim runs out.
    const [row] = await f.deps.db
      .insert(chatRoomMessages)
      .values({
        uid: crypto.randomUUID(),
        siteId: f.siteId,
        roomId,
        channelId: f.whatsapp,
        sentBy: 'agent',
        userId: f.agent1,
        content: 'sobrevivente',
        status: 'sending',
      })
      .returning()
    await f.deps.db.insert(chatOutbox).values({
      siteId: f.siteId,
      channelId: f.whatsapp,
      messageId: row!.id,
      recipient: 'x',
      lockedUntil: sql`now() - interval '1 second'`,
    })
    await until(async () => (await message(f, row!.id)).status === 'accepted', 'the recovered send')
    expect(sends.get(row!.id)).toBe(1)
  })

  it('a dispatcher that dies mid-send leaves its lease: another reclaims the row when it expires and sends it, attempts counted', async () => {
    const f = await fixture()
    // The first dispatcher's send never answers (its process is gone); every later send goes through.
    let release: (r: DeliverResult) => void = () => {}
    const seen: OutboxJob[] = []
    answer = (job) => {
      seen.push(job)
      if (seen.length === 1) return new Promise<DeliverResult>((resolve) => (release = resolve))
      return { outcome: 'sent', externalId: `wamid.${job.message.id}` }
    }
    const roomId = await agentRoom(f)
    // The app's own dispatcher is not the one under test: the row is written while only `dying` runs.
    await t.app.chat.dispatcher?.stop()
    const dying = new OutboxDispatcher(f.deps, undefined, { claimSeconds: 1 })
    const survivor = new OutboxDispatcher(f.deps)
    await dying.start()
    try {
      const m = await send(f, roomId, 'lease')
      await until(() => seen.length === 1, 'the first claim')
      const [claimed] = await f.deps.db.select().from(chatOutbox).where(eq(chatOutbox.messageId, m.id))
      expect(claimed!.lockedUntil).not.toBeNull()
      expect((await message(f, m.id)).status).toBe('sending')
      // The dying dispatcher stops polling (its send still hangs); the survivor takes the row once the lease runs out.
      await survivor.start()
      await until(async () => (await message(f, m.id)).status === 'accepted', 'the reclaimed send', 20_000)
      expect(seen).toHaveLength(2)
      expect(seen[1]!.attempts).toBe(1)
      expect(seen[1]!.message.uid).toBe(seen[0]!.message.uid)
      expect(await outboxEmpty(f, [m.id])).toBe(true)
      expect(sends.get(m.id)).toBe(1)
    } finally {
      release({ outcome: 'retry', afterMs: 10, reason: 'gone' })
      await dying.stop()
      await survivor.stop()
      await t.app.chat.dispatcher?.start()
    }
  }, 60_000)
})
