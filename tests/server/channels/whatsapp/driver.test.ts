import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chatTemplates, chatTemplatesParams } from '../../../../server/db/schema/index.ts'
import { whatsappDriver } from '../../../../server/channels/whatsapp/driver.ts'
import { MemorySendLimiter } from '../../../../server/chat/send-limiter.ts'
import type { OutboxJob } from '../../../../server/chat/types.ts'
import { useTestApp } from '../../helper.ts'
import { createWhatsAppChannel } from './channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from './fake-graph.ts'

// The outbox driver against a fake Graph: each kind of message becomes the right send, Meta's refusals become
// "retry later" (rate limits, outages; the throttle is told) or "failed" with Meta's code (131047 and the like),
// and the throttle holds messages back without dropping them (QUALITY.md tests 7 and 8, the channel's half).

const t = useTestApp()
let fake: FakeGraph
let channel: { id: number; siteId: number }
let clock = { t: 1_000_000 }
let limiter = new MemorySendLimiter()

beforeAll(async () => {
  fake = await startFakeGraph()
  channel = await createWhatsAppChannel(t.database.db, { graphUrl: fake.url, accessToken: TOKEN })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.sent.length = 0
  fake.replies.length = 0
  clock = { t: 1_000_000 }
  limiter = new MemorySendLimiter({ now: () => clock.t })
})

let seq = 0
function job(message: Partial<OutboxJob['message']> = {}, recipient = '5511987654321'): OutboxJob {
  seq++
  return {
    outboxId: seq,
    attempts: 0,
    siteId: channel.siteId,
    channelId: channel.id,
    recipient,
    message: {
      id: seq,
      uid: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      roomId: 1,
      type: 'text',
      content: 'Olá!',
      attachmentPath: null,
      attachmentName: '',
      attachmentMime: '',
      location: null,
      contacts: [],
      replyToExternalId: null,
      template: null,
      ...message,
    },
  }
}

const deliver = (j: OutboxJob) => whatsappDriver.deliver({ ...t.app.deps, sendLimiter: limiter }, j)

describe('WhatsApp outbox driver', () => {
  it('sends text as a reply with our message uid as the opaque callback data', async () => {
    const j = job({ content: 'Segue o pedido', replyToExternalId: 'wamid.IN1' })
    expect(await deliver(j)).toEqual({ outcome: 'sent', externalId: expect.stringMatching(/^wamid\.FAKE/), status: 'accepted' })
    expect(fake.sent[0]).toMatchObject({
      to: '5511987654321',
      type: 'text',
      text: { body: 'Segue o pedido' },
      context: { message_id: 'wamid.IN1' },
      biz_opaque_callback_data: j.message.uid,
    })
  })

  it('uploads an attachment and sends it by id: photo with caption, voice as audio, document with its name', async () => {
    const dir = path.join(t.dataDir, 'out')
    await mkdir(dir, { recursive: true })
    const file = path.join(dir, 'a.bin')
    await writeFile(file, Buffer.from('fake bytes'))
    await deliver(job({ type: 'photo', content: 'olha', attachmentPath: file, attachmentName: 'a.jpg', attachmentMime: 'image/jpeg' }))
    await deliver(job({ type: 'voice', content: '', attachmentPath: file, attachmentName: 'v.ogg', attachmentMime: 'audio/ogg' }))
    await deliver(job({ type: 'document', content: '', attachmentPath: file, attachmentName: 'nota.pdf', attachmentMime: 'application/pdf' }))
    expect(fake.sent).toMatchObject([
      { type: 'image', image: { id: expect.any(String), caption: 'olha' } },
      { type: 'audio', audio: { id: expect.any(String) } },
      { type: 'document', document: { id: expect.any(String), filename: 'nota.pdf' } },
    ])
    const photoId = (fake.sent[0] as { image: { id: string } }).image.id
    expect(fake.media.get(photoId)?.mime).toBe('image/jpeg')
  })

  it('sends a location and a contact card', async () => {
    await deliver(job({ type: 'location', content: '', location: { name: 'MASP', address: 'Av. Paulista, 1578', latitude: -23.56, longitude: -46.65 } }))
    await deliver(job({ type: 'contact', content: '', contacts: [{ client_id: null, full_name: 'Ana Souza', phone: '+5511900000000', avatar: null }] }))
    expect(fake.sent).toMatchObject([
      { type: 'location', location: { latitude: -23.56, longitude: -46.65, name: 'MASP', address: 'Av. Paulista, 1578' } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Souza', first_name: 'Ana', last_name: 'Souza' }, phones: [{ phone: '+5511900000000' }] }] },
    ])
  })

  it('sends a template with its body parameters in the template’s order, defaults filling the gaps', async () => {
    const db = t.database.db
    const [tpl] = await db
      .insert(chatTemplates)
      .values({
        siteId: channel.siteId,
        channelId: channel.id,
        description: 'order_update',
        language: 'pt_BR',
        content: 'Olá {{1}}, seu pedido {{2}} saiu {{3}}',
      })
      .returning({ id: chatTemplates.id })
    await db.insert(chatTemplatesParams).values([
      { siteId: channel.siteId, templateId: tpl.id, position: 0, name: '1', value: '' },
      { siteId: channel.siteId, templateId: tpl.id, position: 1, name: '2', value: '' },
      { siteId: channel.siteId, templateId: tpl.id, position: 2, name: '3', value: 'hoje' },
    ])
    const r = await deliver(
      job({
        content: 'Olá Ana, seu pedido A1 saiu hoje',
        template: {
          id: tpl.id,
          params: [
            { name: '2', value: 'A1' },
            { name: '1', value: 'Ana' },
          ],
        },
      }),
    )
    expect(r.outcome).toBe('sent')
    expect(fake.sent[0]).toMatchObject({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: 'A1' },
              { type: 'text', text: 'hoje' },
            ],
          },
        ],
      },
    })
  })

  it('sends a text header’s parameter and a URL button’s suffix apart from the body’s', async () => {
    const db = t.database.db
    const [tpl] = await db
      .insert(chatTemplates)
      .values({ siteId: channel.siteId, channelId: channel.id, description: 'shipped', language: 'pt_BR', content: 'Pedido {{header}}\n\nOlá {{1}}' })
      .returning({ id: chatTemplates.id })
    await db.insert(chatTemplatesParams).values([
      { siteId: channel.siteId, templateId: tpl.id, position: 0, name: 'header', value: '' },
      { siteId: channel.siteId, templateId: tpl.id, position: 1, name: '1', value: '' },
      { siteId: channel.siteId, templateId: tpl.id, position: 2, name: 'button0', value: '' },
    ])
    const params = [
      { name: 'header', value: 'PED-9' },
      { name: '1', value: 'Ana' },
      { name: 'button0', value: 'PED-9' },
    ]
    expect((await deliver(job({ template: { id: tpl.id, params } }))).outcome).toBe('sent')
    expect(fake.sent[0]).toMatchObject({
      template: {
        name: 'shipped',
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'PED-9' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'PED-9' }] },
        ],
      },
    })
  })

  it('131047 from Meta fails the message with code, reason and the external flag', async () => {
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
    expect(await deliver(job())).toEqual({
      outcome: 'failed',
      error: { code: 131047, reason: '131047: Re-engagement message — More than 24 hours have passed since the recipient last replied', external_error: true },
    })
  })

  it('130429 and 131056 are retried later and hold back the number or the customer', async () => {
    fake.replies.push({ status: 400, body: { error: { message: '(#131056) pair rate limit hit', code: 131056 } } })
    const pair = await deliver(job({}, '5511900000001'))
    expect(pair).toMatchObject({ outcome: 'retry', afterMs: 4000, reason: expect.stringContaining('131056') })
    // The same customer now waits without Graph being called; another customer goes.
    const sentBefore = fake.sent.length
    expect(await deliver(job({}, '5511900000001'))).toMatchObject({ outcome: 'retry', reason: 'throttled' })
    expect(fake.sent.length).toBe(sentBefore)
    expect((await deliver(job({}, '5511900000002'))).outcome).toBe('sent')

    fake.replies.push({ status: 400, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } } })
    expect(await deliver(job({}, '5511900000003'))).toMatchObject({ outcome: 'retry', afterMs: 1000 })
    clock.t += 1000
    fake.replies.push({ status: 400, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } } })
    expect(await deliver(job({}, '5511900000003'))).toMatchObject({ outcome: 'retry', afterMs: 2000 })
    // The whole number waits (longer than a slot is waited for in the dispatcher): every customer is held.
    expect(await deliver(job({}, '5511900000004'))).toMatchObject({ outcome: 'retry', afterMs: 2000, reason: 'throttled' })
    clock.t += 2000
    expect((await deliver(job({}, '5511900000004'))).outcome).toBe('sent')
  })

  it('Meta’s outages and no answer are retried with back-off; an expired token fails', async () => {
    fake.replies.push({ status: 500, body: { error: { message: 'An unknown error occurred', code: 1 } } })
    expect(await deliver(job())).toMatchObject({ outcome: 'retry', afterMs: 2000 })
    fake.replies.push({ status: 503, body: 'down' })
    expect(await deliver({ ...job(), attempts: 3 })).toMatchObject({ outcome: 'retry', afterMs: 16000 })
    fake.replies.push({ status: 401, body: { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190 } } })
    expect(await deliver(job())).toMatchObject({ outcome: 'failed', error: { code: 190, external_error: true } })
  })

  it('a business number sends at its rate: a slot up to a second away is waited for, later ones held (none dropped)', async () => {
    // The clock stands still: 80/s gives slots 12.5 ms apart, the 81st a second away; the 82nd is told to come back.
    const results = await Promise.all(Array.from({ length: 85 }, (_, i) => deliver(job({}, `55119${String(i).padStart(8, '0')}`))))
    expect(results.filter((r) => r.outcome === 'sent')).toHaveLength(81)
    expect(results.filter((r) => r.outcome === 'retry' && r.reason === 'throttled')).toHaveLength(4)
    expect(fake.sent).toHaveLength(81)
  })

  it('downloads a customer’s media checked against its sha256', async () => {
    fake.media.set('in-1', { bytes: Buffer.from('\xff\xd8\xff jpeg-ish', 'latin1'), mime: 'image/jpeg' })
    const got = await whatsappDriver.download!(t.app.deps, channel.id, { id: 'in-1' })
    expect(got.mime).toBe('image/jpeg')
    expect(got.bytes.equals(Buffer.from('\xff\xd8\xff jpeg-ish', 'latin1'))).toBe(true)
    await expect(whatsappDriver.download!(t.app.deps, channel.id, { id: 'missing' })).rejects.toThrow()
  })
})
