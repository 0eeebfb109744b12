import { describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { receiveInbound } from '../../../server/chat/inbound.ts'
import { processWebhookEvent, recoverWebhookEvents, registerWebhookProcessor, storeWebhookEvent } from '../../../server/chat/webhook-events.ts'
import { chatRoomMessages, chatWebhookEvents } from '../../../server/db/schema/index.ts'
import { useTestApp } from '../helper.ts'
import { chatFixture, waText } from './chat-helper.ts'
import type { ChatFixture } from './chat-helper.ts'

const t = useTestApp()
let f: ChatFixture
const fixture = async () => (f ??= await chatFixture(t))

// A stand-in for the WhatsApp channel's processor: the body is {wamid, from, text}; `fail` makes the next calls throw.
let fail = 0
registerWebhookProcessor('whatsapp', async (deps, event) => {
  if (fail > 0) {
    fail--
    throw new Error('parse failed')
  }
  const body = JSON.parse(event.body.toString('utf8')) as { wamid: string; from: string; text: string }
  await receiveInbound(deps, { ...waText(f, body.from, body.text), externalId: body.wamid, siteId: event.siteId, channelId: event.channelId })
})

const eventRow = async (f: ChatFixture, id: number) => (await f.deps.db.select().from(chatWebhookEvents).where(eq(chatWebhookEvents.id, id)))[0]!
const messagesOf = async (f: ChatFixture, wamid: string) => f.deps.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.externalId, wamid))

describe('stored webhook events', () => {
  it('are stored as they arrived, processed once, and marked processed', async () => {
    const f = await fixture()
    const body = Buffer.from(JSON.stringify({ wamid: 'wamid.hook.1', from: '5511912340000', text: 'oi' }))
    const id = await storeWebhookEvent(f.deps, { siteId: f.siteId, channelId: f.whatsapp, body })
    expect(Buffer.from((await eventRow(f, id)).body).equals(body)).toBe(true)
    expect(await processWebhookEvent(f.deps, id)).toBe(true)
    expect((await eventRow(f, id)).processedAt).not.toBeNull()
    expect(await processWebhookEvent(f.deps, id)).toBe(true)
    expect(await messagesOf(f, 'wamid.hook.1')).toHaveLength(1)
  })

  it('a failure counts an attempt and is retried later; after a crash the recovery processes what was left, once', async () => {
    const f = await fixture()
    const id = await storeWebhookEvent(f.deps, {
      siteId: f.siteId,
      channelId: f.whatsapp,
      body: Buffer.from(JSON.stringify({ wamid: 'wamid.hook.2', from: '5511912340001', text: 'a' })),
    })
    fail = 1
    expect(await processWebhookEvent(f.deps, id)).toBe(false)
    expect(await eventRow(f, id)).toMatchObject({ attempts: 1, lastError: 'parse failed', processedAt: null })
    // Left unprocessed by a 'crashed' instance: old enough for the sweep.
    const crashed = await storeWebhookEvent(f.deps, {
      siteId: f.siteId,
      channelId: f.whatsapp,
      body: Buffer.from(JSON.stringify({ wamid: 'wamid.hook.3', from: '5511912340002', text: 'b' })),
    })
    // Not the sweep's yet: the request that stored them is still processing them.
    expect(await recoverWebhookEvents(f.deps)).toBe(0)
    await f.deps.db
      .update(chatWebhookEvents)
      .set({ receivedAt: sql`now() - interval '1 minute'` })
      .where(sql`${chatWebhookEvents.id} in (${id}, ${crashed})`)
    // The chat service's own sweep may take them first: either way both end processed, each message once.
    await recoverWebhookEvents(f.deps)
    expect((await eventRow(f, id)).processedAt).not.toBeNull()
    expect((await eventRow(f, crashed)).processedAt).not.toBeNull()
    expect(await messagesOf(f, 'wamid.hook.2')).toHaveLength(1)
    expect(await messagesOf(f, 'wamid.hook.3')).toHaveLength(1)
    expect(await recoverWebhookEvents(f.deps)).toBe(0)
  })
})
