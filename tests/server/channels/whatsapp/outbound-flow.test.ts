import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chatRoomMessages, chatRooms, chatTemplates, chatTemplatesParams, users } from '../../../../server/db/schema/index.ts'
import { signatureHeader } from '../../../../server/channels/whatsapp/signature.ts'
import { sendAgentMessage } from '../../../../server/chat/outbound.ts'
import { signedIn, TestClient, useTestApp } from '../../helper.ts'
import { APP_SECRET, createWhatsAppChannel } from './channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from './fake-graph.ts'
import { envelope, message, status, value } from './payloads.ts'

// Agents' messages out through the outbox to a fake Graph (QUALITY.md test 7): a template to a new number with its
// parameters, free text refused once the 24-hour window closed, and Meta's 131047 failing the message whether it
// comes back at once or later in a status.

const t = useTestApp()
let fake: FakeGraph
let channel: { id: number; siteId: number }
let agentId: number
let webhook: TestClient

beforeAll(async () => {
  fake = await startFakeGraph()
  channel = await createWhatsAppChannel(t.database.db, { graphUrl: fake.url, accessToken: TOKEN })
  ;[{ id: agentId }] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'agent1'))
  webhook = new TestClient(t.app)
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.sent.length = 0
  fake.replies.length = 0
})

function post(body: unknown) {
  const raw = JSON.stringify(body)
  return webhook.post(`/webhooks/whatsapp/${channel.id}/`, raw, {
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatureHeader(raw, APP_SECRET) },
  })
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const v = await read()
    if (ok(v)) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
const messageRow = async (id: number) => (await t.database.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, id)))[0]

/** A customer writes (at `secondsAgo`), and the room is given to agent1. */
async function customerRoom(from: string, secondsAgo: number) {
  const m = message('text', { text: { body: 'oi' } }, { from, timestamp: String(Math.floor(Date.now() / 1000) - secondsAgo) })
  expect((await post(envelope(value({ messages: [m] })))).statusCode).toBe(200)
  const [room] = await until(
    () =>
      t.database.db
        .select()
        .from(chatRooms)
        .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, from))),
    (rows) => rows.length === 1,
    'the room',
  )
  await t.database.db.update(chatRooms).set({ userId: agentId, state: 'active' }).where(eq(chatRooms.id, room.id))
  return room
}

describe('outbound WhatsApp', () => {
  it('POST /api/v1/chat/send-template-whatsapp/ sends the template with its parameters; statuses follow', async () => {
    const [tpl] = await t.database.db
      .insert(chatTemplates)
      .values({ siteId: channel.siteId, channelId: channel.id, description: 'order_update', language: 'pt_BR', content: 'Olá {{1}}, pedido {{2}}' })
      .returning({ id: chatTemplates.id })
    await t.database.db.insert(chatTemplatesParams).values([
      { siteId: channel.siteId, templateId: tpl.id, position: 0, name: '1', value: '' },
      { siteId: channel.siteId, templateId: tpl.id, position: 1, name: '2', value: '' },
    ])
    const agent = await signedIn(t.app, 'agent1')
    const res = await agent.post('/api/v1/chat/send-template-whatsapp/', {
      phone: '+55 11 98888-7777',
      channel_id: channel.id,
      template_id: tpl.id,
      params: [
        { name: '1', value: 'Ana' },
        { name: '2', value: 'A-77' },
      ],
    })
    expect(res.statusCode).toBe(200)
    const sentMessage = res.json().message
    expect(sentMessage.content).toBe('Olá Ana, pedido A-77')
    await until(
      async () => fake.sent.length,
      (n) => n === 1,
      'the send',
    )
    expect(fake.sent[0]).toMatchObject({
      to: '5511988887777',
      type: 'template',
      template: { name: 'order_update', language: { code: 'pt_BR' }, components: [{ type: 'body', parameters: [{ text: 'Ana' }, { text: 'A-77' }] }] },
    })
    const row = await until(
      () => messageRow(sentMessage.id),
      (r) => r.externalId !== null,
      'the wamid',
    )
    expect(row.status).toBe('accepted')
    await post(envelope(value({ statuses: [status(row.externalId!, 'delivered')] })))
    await until(
      () => messageRow(row.id),
      (r) => r.status === 'received',
      'delivered',
    )
  })

  it('refuses free text once 24 hours passed since the customer’s last message', async () => {
    const room = await customerRoom('5511977776666', 25 * 3600)
    await expect(
      sendAgentMessage(t.app.deps, { siteId: channel.siteId, userId: agentId, roomId: room.id, body: { content: 'ainda aí?' } }),
    ).rejects.toMatchObject({
      statusCode: 400,
      body: { has_expired: true },
    })
    expect(fake.sent).toEqual([])
  })

  it('131047 answered at send time fails the message with Meta’s code and reason', async () => {
    const room = await customerRoom('5511966665555', 60)
    fake.replies.push({
      status: 400,
      body: {
        error: {
          message: '(#131047) Re-engagement message',
          code: 131047,
          error_data: { details: 'More than 24 hours have passed since the recipient last replied' },
        },
      },
    })
    const sent = await sendAgentMessage(t.app.deps, { siteId: channel.siteId, userId: agentId, roomId: room.id, body: { content: 'olá' } })
    const row = await until(
      () => messageRow(sent.id),
      (r) => r.status === 'failed',
      'failed',
    )
    expect(row).toMatchObject({ errorCode: 131047, externalError: true, errorReason: expect.stringContaining('Re-engagement') })
  })

  it('a rate-limited send (130429) is retried and goes out: nothing dropped', async () => {
    const room = await customerRoom('5511955554444', 60)
    fake.replies.push({ status: 400, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } } })
    const sent = await sendAgentMessage(t.app.deps, { siteId: channel.siteId, userId: agentId, roomId: room.id, body: { content: 'persistente' } })
    const row = await until(
      () => messageRow(sent.id),
      (r) => r.externalId !== null,
      'sent after the back-off',
    )
    expect(row.status).toBe('accepted')
    expect(fake.sent.filter((b) => (b as { text?: { body: string } }).text?.body === 'persistente')).toHaveLength(2)
  })
})
