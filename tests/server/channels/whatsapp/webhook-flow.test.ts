import { and, desc, eq, inArray } from 'drizzle-orm'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatRoomMessages, chatRooms, chatWebhookEvents } from '../../../../server/db/schema/index.ts'
import { signatureHeader } from '../../../../server/channels/whatsapp/signature.ts'
import { processWebhookEvent, storeWebhookEvent } from '../../../../server/chat/webhook-events.ts'
import { TestClient, useTestApp } from '../../helper.ts'
import { APP_SECRET, createWhatsAppChannel } from './channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from './fake-graph.ts'
import { CUSTOMER, envelope, everyType, message, status, value, WABA_ID, wamid } from './payloads.ts'

// A WhatsApp delivery from Meta's POST to the chat's rows (QUALITY.md tests 3–6, and test 2's non-ASCII case end to
// end): stored byte for byte before the 200, processed after it, duplicates leaving one message, every type and
// every entry processed, statuses only moving forward.

const t = useTestApp()
let fake: FakeGraph
let channel: { id: number; siteId: number }
let client: TestClient
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(200, 7),
  Buffer.from([0xff, 0xd9]),
])

beforeAll(async () => {
  fake = await startFakeGraph()
  channel = await createWhatsAppChannel(t.database.db, {
    graphUrl: fake.url,
    accessToken: TOKEN,
  })
  client = new TestClient(t.app)
})
afterAll(() => fake.close())

function post(body: unknown) {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
  return client.post(`/webhooks/whatsapp/${channel.id}/`, raw, {
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signatureHeader(raw, APP_SECRET),
    },
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

function messagesWith(ids: string[]) {
  return t.database.db
    .select()
    .from(chatRoomMessages)
    .where(and(eq(chatRoomMessages.channelId, channel.id), inArray(chatRoomMessages.externalId, ids)))
}

describe('inbound deliveries', () => {
  it('stores the raw bytes before answering 200, then creates the message (non-ASCII, escapes kept)', async () => {
    const m = message('text', { text: { body: 'Olá, ação! 你好 👍' } })
    const raw = JSON.stringify(envelope(value({ messages: [m] }))).replace('"Olá', '"\\u004flá')
    const res = await post(raw)
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('EVENT_RECEIVED')
    // Stored by the time Meta has its answer, exactly as sent.
    const [stored] = await t.database.db.select().from(chatWebhookEvents).orderBy(desc(chatWebhookEvents.id)).limit(1)
    expect(Buffer.from(stored.body).equals(Buffer.from(raw))).toBe(true)
    const [row] = await until(
      () => messagesWith([m.id]),
      (rows) => rows.length === 1,
      'the message',
    )
    expect(row).toMatchObject({
      sentBy: 'client',
      type: 'text',
      content: 'Olá, ação! 你好 👍',
    })
    await until(
      async () => (await t.database.db.select().from(chatWebhookEvents).where(eq(chatWebhookEvents.id, stored.id)))[0].processedAt,
      (at) => at !== null,
      'processed_at',
    )
  })

  it('a crash after the 200 loses nothing: a stored, unprocessed event is processed by the recovery', async () => {
    const m = message('text', { text: { body: 'sobrevivi' } })
    const body = Buffer.from(JSON.stringify(envelope(value({ messages: [m] }))))
    // What a server that died right after storing (and answering) leaves behind.
    const id = await storeWebhookEvent(t.app.deps, {
      siteId: channel.siteId,
      channelId: channel.id,
      body,
    })
    expect(await messagesWith([m.id])).toHaveLength(0)
    expect(await processWebhookEvent(t.app.deps, id)).toBe(true)
    expect(await messagesWith([m.id])).toMatchObject([{ content: 'sobrevivi' }])
  })

  it('the same wamid twice in a row, then 10 times at once, leaves one message', async () => {
    const once = message('text', { text: { body: 'duas vezes' } })
    const body = envelope(value({ messages: [once] }))
    expect((await post(body)).statusCode).toBe(200)
    expect((await post(body)).statusCode).toBe(200)
    await until(
      () => messagesWith([once.id]),
      (rows) => rows.length === 1,
      'the first message',
    )

    const burst = message('text', { text: { body: 'dez ao mesmo tempo' } }, { from: '5511955554444' })
    const burstBody = envelope(value({ messages: [burst] }))
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(burstBody)))
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200))
    // Every stored copy processed, and still one message (and one room for the new customer).
    await until(
      async () =>
        (
          await t.database.db
            .select({
              id: chatWebhookEvents.id,
              at: chatWebhookEvents.processedAt,
            })
            .from(chatWebhookEvents)
        ).filter((e) => !e.at).length,
      (n) => n === 0,
      'all deliveries processed',
    )
    expect(await messagesWith([once.id])).toHaveLength(1)
    expect(await messagesWith([burst.id])).toHaveLength(1)
    const rooms = await t.database.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, '5511955554444')))
    expect(rooms).toHaveLength(1)
  })

  it('every inbound type across a multi-entry delivery becomes its message; media downloaded and checked', async () => {
    const all = everyType()
    fake.media.set('2754859441498128', { bytes: JPEG, mime: 'image/jpeg' })
    const shown = [
      all.text,
      all.image,
      all.voice,
      all.audio,
      all.video,
      all.document,
      all.sticker,
      all.location,
      all.contacts,
      all.buttonReply,
      all.listReply,
      all.button,
      all.reply,
      all.fromAd,
    ]
    const hidden = [all.reaction, all.unreaction, all.system, all.unsupported]
    const half = Math.ceil(shown.length / 2)
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            {
              field: 'messages',
              value: value({ messages: shown.slice(0, half) }),
            },
          ],
        },
        {
          id: WABA_ID,
          changes: [
            {
              field: 'messages',
              value: value({ messages: [...shown.slice(half), ...hidden] }),
            },
          ],
        },
      ],
    }
    expect((await post(body)).statusCode).toBe(200)
    const rows = await until(
      () => messagesWith(shown.map((m) => m.id)),
      (r) => r.length === shown.length,
      'every message',
    )
    const byId = new Map(rows.map((r) => [r.externalId, r]))
    expect(shown.map((m) => byId.get(m.id)!.type)).toEqual([
      'text',
      'photo',
      'voice',
      'audio',
      'video',
      'document',
      'photo',
      'location',
      'contact',
      'text',
      'text',
      'text',
      'text',
      'text',
    ])
    expect(byId.get(all.document.id)).toMatchObject({
      attachmentName: 'nota-fiscal.pdf',
      content: 'invoice',
    })
    expect(byId.get(all.location.id)).toMatchObject({
      latitude: -23.5613,
      longitude: -46.6565,
      locationName: 'MASP',
      locationAddress: 'Av. Paulista, 1578',
    })
    expect(byId.get(all.contacts.id)!.contacts).toEqual([
      {
        client_id: null,
        full_name: 'João da Silva',
        phone: '+55 11 91234-5678',
        avatar: null,
      },
      {
        client_id: null,
        full_name: 'Maria',
        phone: '+55 21 99999-0000',
        avatar: null,
      },
    ])
    expect(byId.get(all.buttonReply.id)!.content).toBe('Cancel')
    expect(await messagesWith(hidden.map((m) => m.id))).toHaveLength(0)
    const image = await until(
      async () => (await messagesWith([all.image.id]))[0],
      (r) => r.attachmentState === 'ready',
      'the photo downloaded',
    )
    expect(image).toMatchObject({
      attachmentMime: 'image/jpeg',
      attachmentSize: JPEG.length,
    })
  })
})

describe('statuses', () => {
  async function agentMessage(externalId: string) {
    const [room] = await t.database.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, CUSTOMER)))
    const [row] = await t.database.db
      .insert(chatRoomMessages)
      .values({
        uid: randomUUID(),
        siteId: channel.siteId,
        roomId: room.id,
        channelId: channel.id,
        sentBy: 'agent',
        type: 'text',
        content: 'oi',
        externalId,
        status: 'accepted',
      })
      .returning()
    return row
  }
  const statusOf = async (id: number) => (await t.database.db.select().from(chatRoomMessages).where(eq(chatRoomMessages.id, id)))[0]

  it('only move forward: read before delivered, duplicates and a days-late sent leave it read', async () => {
    const id = wamid()
    const row = await agentMessage(id)
    expect(
      (
        await post(
          envelope(
            value({
              statuses: [status(id, 'read', { timestamp: '1694492490' })],
            }),
          ),
        )
      ).statusCode,
    ).toBe(200)
    await until(
      () => statusOf(row.id),
      (r) => r.status === 'consumed',
      'read',
    )
    await post(
      envelope(
        value({
          statuses: [status(id, 'delivered', { timestamp: '1694492485' }), status(id, 'read')],
        }),
      ),
    )
    await post(envelope(value({ statuses: [status(id, 'sent', { timestamp: '1694000000' })] })))
    await until(
      async () => (await t.database.db.select({ at: chatWebhookEvents.processedAt }).from(chatWebhookEvents)).filter((e) => !e.at).length,
      (n) => n === 0,
      'deliveries processed',
    )
    expect((await statusOf(row.id)).status).toBe('consumed')
  })

  it('a failed status (131047) fails the message with its code and reason, and nothing moves it after', async () => {
    const id = wamid()
    const row = await agentMessage(id)
    const failed = status(id, 'failed', {
      errors: [
        {
          code: 131047,
          title: 'Re-engagement message',
          message: 'Re-engagement message',
          error_data: {
            details: 'More than 24 hours have passed since the customer last replied to this number.',
          },
        },
      ],
    })
    await post(envelope(value({ statuses: [status(id, 'sent'), failed] })))
    const after = await until(
      () => statusOf(row.id),
      (r) => r.status === 'failed',
      'failed',
    )
    expect(after).toMatchObject({
      errorCode: 131047,
      externalError: true,
      errorReason: expect.stringContaining('131047: Re-engagement message'),
    })
    await post(envelope(value({ statuses: [status(id, 'delivered')] })))
    await until(
      async () => (await t.database.db.select({ at: chatWebhookEvents.processedAt }).from(chatWebhookEvents)).filter((e) => !e.at).length,
      (n) => n === 0,
      'deliveries processed',
    )
    expect((await statusOf(row.id)).status).toBe('failed')
  })
})
