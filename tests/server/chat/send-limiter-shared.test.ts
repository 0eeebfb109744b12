import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forgetWhatsAppChannel } from '../../../server/channels/whatsapp/channel.ts'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { sendAgentMessage } from '../../../server/chat/outbound.ts'
import { OutboxDispatcher } from '../../../server/chat/outbox.ts'
import { createSendLimiter, type SendLimiter } from '../../../server/chat/send-limiter.ts'
import { chatChannels, chatOutbox } from '../../../server/db/schema/index.ts'
import { testPrefix, useTestApp } from '../helper.ts'
import { createWhatsAppChannel } from '../channels/whatsapp/channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from '../channels/whatsapp/fake-graph.ts'
import { assign, chatFixture, until, waText, type ChatFixture } from './chat-helper.ts'

// The outbox's throughput per number holds across server instances (issue 13 item 1): two dispatchers, each with its
// own send limiter client on one Redis (TEST_REDIS_URL, as `npm run test:pg` sets; without it both share the one
// in-process limiter, as two dispatchers of one process do), send one number's messages to a fake Graph API. Together
// they never pass the channel's messages_per_second in any one-second window, both send, and every message goes.

const t = useTestApp({ overrides: { chat: { dispatcher: false } } })
const RATE = 20
const MESSAGES = 50
let fake: FakeGraph
let f: ChatFixture
let channelId: number
const limiters: SendLimiter[] = []

beforeAll(async () => {
  fake = await startFakeGraph()
  f = await chatFixture(t)
  ;({ id: channelId } = await createWhatsAppChannel(t.database.db, { graphUrl: fake.url, accessToken: TOKEN, phoneNumberId: '700000000000042' }))
  await t.database.db.update(chatChannels).set({ messagesPerSecond: RATE }).where(eq(chatChannels.id, channelId))
  forgetWhatsAppChannel(channelId)
  const prefix = testPrefix()
  const shared = process.env.TEST_REDIS_URL ? null : await createSendLimiter(undefined)
  for (let i = 0; i < 2; i++) limiters.push(shared ?? (await createSendLimiter(process.env.TEST_REDIS_URL, prefix)))
})
afterAll(async () => {
  await fake?.close()
  for (const l of new Set(limiters)) await l.close()
})

/** A limiter that counts the slots its dispatcher took, and when each slot is (the moment it was granted for). */
function counting(limiter: SendLimiter, slots: number[]): SendLimiter & { taken: number } {
  const wrapped = {
    taken: 0,
    async reserve(...args: Parameters<SendLimiter['reserve']>) {
      const r = await limiter.reserve(...args)
      if (r.ok) {
        wrapped.taken++
        slots.push(Date.now() + r.waitMs)
      }
      return r
    },
    backOff: limiter.backOff.bind(limiter),
    succeeded: limiter.succeeded.bind(limiter),
    close: async () => {},
  }
  return wrapped
}

/** The most arrivals in any window of `ms`. */
function busiest(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= ms) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

describe('the send limiter shared by two dispatchers', () => {
  it('two dispatchers on one number together stay within its messages_per_second, and every message goes', async () => {
    // 50 customers, one message each (the pair limit holds nothing back): only the number's rate paces them.
    for (let i = 0; i < MESSAGES; i++) {
      const inbound = await receiveInbound(f.deps, { ...waText(f, `55119${String(70000000 + i)}`, 'oi'), channelId })
      await assign(f, inbound.roomId, f.agent1)
      await sendAgentMessage(f.deps, { siteId: f.siteId, userId: f.agent1, roomId: inbound.roomId, body: { content: `resposta ${i}` } })
    }
    const slots: number[] = []
    const a = counting(limiters[0], slots)
    const b = counting(limiters[1], slots)
    const dispatchers = [new OutboxDispatcher({ ...t.app.deps, sendLimiter: a }), new OutboxDispatcher({ ...t.app.deps, sendLimiter: b })]
    try {
      await Promise.all(dispatchers.map((d) => d.start()))
      await until(() => fake.sent.length >= MESSAGES, 'every message sent', 30_000)
      await until(async () => (await t.database.db.select().from(chatOutbox).where(eq(chatOutbox.channelId, channelId))).length === 0, 'the outbox emptied')
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()))
    }
    expect(fake.sent).toHaveLength(MESSAGES)
    // The slots both instances were granted are 50 ms apart (Redis's clock): never more than the rate in any second.
    // They are read here on this process's clock, after a round trip whose length varies on a busy machine, which can
    // move a slot by a few tens of milliseconds: three more at most (two instances sending each at the rate would be 40).
    expect(busiest(slots, 1000)).toBeLessThanOrEqual(RATE + 3)
    // At the fake server a send whose timer fired late (a busy event loop) can arrive bunched with the next ones; no
    // instance ever sends a second burst of its own, which would put twice the rate in one second.
    expect(busiest(fake.sentAt, 1000)).toBeLessThan(RATE * 1.5)
    // The average rate: the 50 slots span 49 intervals (less a round trip's jitter at either end).
    const span = Math.max(...slots) - Math.min(...slots)
    expect(span).toBeGreaterThanOrEqual(((MESSAGES - 1) * 1000) / RATE - 200)
    // Both instances sent: the limit held because they shared it, not because one did all the work.
    expect(a.taken).toBeGreaterThan(0)
    expect(b.taken).toBeGreaterThan(0)
    expect(a.taken + b.taken).toBe(MESSAGES)
  })

  it('a 130429 answered to one instance holds the number on the other; a 131056 holds only that customer', async () => {
    const [one, other] = limiters
    expect(await one.backOff('NUM-1', 'C1', 'sender')).toBe(1000)
    const held = await other.reserve('NUM-1', 'C2', {}, 0)
    expect(held.ok).toBe(false)
    expect(held.ok === false && held.retryInMs).toBeGreaterThan(900)
    // Another number is not touched.
    expect((await other.reserve('NUM-2', 'C2', {}, 0)).ok).toBe(true)
    // The second 130429 doubles the pause, whichever instance saw the first.
    expect(await other.backOff('NUM-1', 'C1', 'sender')).toBeGreaterThanOrEqual(1900)

    expect(await one.backOff('NUM-3', 'C1', 'pair')).toBe(4000)
    expect((await other.reserve('NUM-3', 'C1', {}, 0)).ok).toBe(false)
    expect((await other.reserve('NUM-3', 'C2', {}, 0)).ok).toBe(true)
    // A success starts the streak over on every instance.
    await other.succeeded('NUM-3', 'C1')
    expect(await one.backOff('NUM-3', 'C1', 'pair')).toBeGreaterThanOrEqual(3900)
  })

  it('a customer gets a burst of pairBurst, then one message per pairIntervalMs, across instances', async () => {
    const [one, other] = limiters
    const limits = { perSecond: 1000, pairBurst: 3, pairIntervalMs: 6000 }
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await (i % 2 ? other : one).reserve('NUM-4', 'C1', limits, 50))
    expect(answers.slice(0, 3).map((r) => r.ok)).toEqual([true, true, true])
    expect(answers[3].ok).toBe(false)
    expect(answers[3].ok === false && answers[3].retryInMs).toBeGreaterThan(5900)
  })
})
