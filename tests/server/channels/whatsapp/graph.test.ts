import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GraphClient, GraphError, sha256Matches } from '../../../../server/channels/whatsapp/graph.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from './fake-graph.ts'

// The Graph API client against a local fake of graph.facebook.com: the bodies it sends (checked by the fake against
// the contract's schemas), the error envelope as a typed error, media upload and the verified two-step download,
// template paging.

let fake: FakeGraph
let graph: GraphClient

beforeAll(async () => {
  fake = await startFakeGraph()
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.sent.length = 0
  fake.replies.length = 0
  graph = new GraphClient({ graphUrl: fake.url + '/', apiVersion: 'v23.0', accessToken: TOKEN, phoneNumberId: '106540352242922', wabaId: '102290129340398' })
})

describe('sending', () => {
  it('sends text as a reply and answers the wamid', async () => {
    const r = await graph.sendText('+5511987654321', 'Olá! Como posso ajudar?', { replyTo: 'wamid.IN1', opaque: 'outbox:7' })
    expect(r).toEqual({ wamid: expect.stringMatching(/^wamid\./), waId: '5511987654321', messageStatus: null })
    expect(fake.sent[0]).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+5511987654321',
      context: { message_id: 'wamid.IN1' },
      biz_opaque_callback_data: 'outbox:7',
      type: 'text',
      text: { body: 'Olá! Como posso ajudar?' },
    })
  })

  it('sends media by id or link, with a caption and a document’s file name, never a caption on audio', async () => {
    await graph.sendMedia('5511987654321', 'image', { id: '123', caption: 'foto' })
    await graph.sendMedia('5511987654321', 'document', { link: 'https://example.com/a.pdf', filename: 'a.pdf', caption: 'nota' })
    await graph.sendMedia('5511987654321', 'audio', { id: '456', caption: 'ignored' })
    await graph.sendMedia('5511987654321', 'video', { id: '789' })
    await graph.sendMedia('5511987654321', 'sticker', { id: '999' })
    expect(fake.sent).toMatchObject([
      { type: 'image', image: { id: '123', caption: 'foto' } },
      { type: 'document', document: { link: 'https://example.com/a.pdf', filename: 'a.pdf', caption: 'nota' } },
      { type: 'audio', audio: { id: '456' } },
      { type: 'video', video: { id: '789' } },
      { type: 'sticker', sticker: { id: '999' } },
    ])
    expect((fake.sent[2] as { audio: object }).audio).toEqual({ id: '456' })
  })

  it('marks a recorded voice note (audio only): voice: true goes with the audio, never with other media', async () => {
    await graph.sendMedia('5511987654321', 'audio', { id: '457', voice: true })
    await graph.sendMedia('5511987654321', 'document', { id: '458', filename: 'a.ogg', voice: true })
    expect((fake.sent.at(-2) as { audio: object }).audio).toEqual({ id: '457', voice: true })
    expect((fake.sent.at(-1) as { document: object }).document).toEqual({ id: '458', filename: 'a.ogg' })
  })

  it('sends a location and contacts', async () => {
    await graph.sendLocation('5511987654321', { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' })
    await graph.sendContacts('5511987654321', [
      { name: { formatted_name: 'Ana Souza', first_name: 'Ana' }, phones: [{ phone: '+5511900000000', type: 'CELL' }] },
    ])
    expect(fake.sent).toMatchObject([
      { type: 'location', location: { latitude: -23.5613, name: 'MASP' } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Souza' } }] },
    ])
  })

  it('sends a template with a header image and body parameters in order', async () => {
    await graph.sendTemplate('5511987654321', {
      name: 'delivery_photo_update',
      language: 'pt_BR',
      header: { type: 'image', media: { id: '123456789012345' } },
      body: ['Alex', 'A12345'],
      buttons: [{ index: 0, subType: 'url', value: 'A12345' }],
    })
    expect(fake.sent[0]).toMatchObject({
      type: 'template',
      template: {
        name: 'delivery_photo_update',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { id: '123456789012345' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Alex' },
              { type: 'text', text: 'A12345' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A12345' }] },
        ],
      },
    })
  })

  it('names named template parameters', async () => {
    await graph.sendTemplate('5511987654321', { name: 'welcome', language: 'pt_BR', body: [{ name: 'first_name', text: 'Ana' }] })
    expect(fake.sent[0]).toMatchObject({
      template: { components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana', parameter_name: 'first_name' }] }] },
    })
  })

  it('marks an inbound message read', async () => {
    await graph.markRead('wamid.IN9')
    expect(fake.sent[0]).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.IN9' })
  })
})

describe('errors', () => {
  it('reads the Graph error envelope into a typed, permanent error', async () => {
    fake.replies.push({
      status: 400,
      body: {
        error: {
          message: '(#132001) Template name does not exist in the translation',
          type: 'OAuthException',
          code: 132001,
          error_data: { messaging_product: 'whatsapp', details: 'template name (X) does not exist in en' },
          error_subcode: 2494073,
          fbtrace_id: 'AbC',
        },
      },
    })
    const err = await graph.sendTemplate('5511987654321', { name: 'X', language: 'en' }).catch((e) => e)
    expect(err).toBeInstanceOf(GraphError)
    expect(err).toMatchObject({
      httpStatus: 400,
      code: 132001,
      subcode: 2494073,
      title: 'Template name does not exist in the translation',
      details: 'template name (X) does not exist in en',
      retryable: false,
    })
  })

  it('131047 (window closed) is permanent; 130429 and 131056 are retryable with Retry-After', async () => {
    fake.replies.push({
      status: 400,
      body: { error: { message: '(#131047) Re-engagement message', code: 131047, error_data: { details: 'More than 24 hours have passed' } } },
    })
    fake.replies.push({ status: 400, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } }, headers: { 'retry-after': '3' } })
    fake.replies.push({ status: 400, body: { error: { message: '(#131056) (Business Account, Consumer Account) pair rate limit hit', code: 131056 } } })
    const a = await graph.sendText('5511987654321', 'a').catch((e) => e)
    const b = await graph.sendText('5511987654321', 'b').catch((e) => e)
    const c = await graph.sendText('5511987654321', 'c').catch((e) => e)
    expect(a).toMatchObject({ code: 131047, retryable: false, details: 'More than 24 hours have passed' })
    expect(b).toMatchObject({ code: 130429, retryable: true, retryAfterMs: 3000 })
    expect(c).toMatchObject({ code: 131056, retryable: true })
  })

  it('an expired token (401, code 190), a 5xx without JSON and an unreachable host', async () => {
    const bad = new GraphClient({ graphUrl: fake.url, apiVersion: 'v23.0', accessToken: 'wrong', phoneNumberId: '1' })
    expect(await bad.sendText('5511987654321', 'x').catch((e) => e)).toMatchObject({ httpStatus: 401, code: 190, retryable: false })
    fake.replies.push({ status: 503, body: '<html>down</html>' })
    expect(await graph.sendText('5511987654321', 'x').catch((e) => e)).toMatchObject({ httpStatus: 503, code: null, retryable: true })
    const gone = new GraphClient({ graphUrl: 'http://127.0.0.1:1', apiVersion: 'v23.0', accessToken: TOKEN, phoneNumberId: '1' })
    expect(await gone.sendText('5511987654321', 'x').catch((e) => e)).toMatchObject({ httpStatus: 0, retryable: true })
  })

  it('a send that takes longer than the time-out is a retryable error', async () => {
    fake.replies.push({ status: 200, body: {}, delayMs: 1000 })
    const slow = new GraphClient({ graphUrl: fake.url, apiVersion: 'v23.0', accessToken: TOKEN, phoneNumberId: '1', timeoutMs: 100 })
    expect(await slow.sendText('5511987654321', 'x').catch((e) => e)).toMatchObject({ httpStatus: 0, title: 'timed out', retryable: true })
  })

  it('refuses a malformed API version', () => {
    expect(() => new GraphClient({ graphUrl: fake.url, apiVersion: '../x', accessToken: TOKEN, phoneNumberId: '1' })).toThrow()
  })
})

describe('media', () => {
  const bytes = Buffer.from('%PDF-1.4 fake pdf bytes ' + 'x'.repeat(5000))

  it('uploads multipart and downloads in two steps, checking sha256 and size', async () => {
    const id = await graph.uploadMedia(bytes, 'application/pdf', 'a.pdf')
    expect(fake.media.get(id)?.bytes.equals(bytes)).toBe(true)
    const got = await graph.downloadMedia(id)
    expect(got.bytes.equals(bytes)).toBe(true)
    expect(got).toMatchObject({ mime: 'application/pdf', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') })
  })

  it('accepts the base64 sha256 webhooks carry', async () => {
    fake.media.set('b64', { bytes, mime: 'image/jpeg', sha256: createHash('sha256').update(bytes).digest('base64') })
    expect((await graph.downloadMedia('b64')).size).toBe(bytes.length)
    expect(sha256Matches(createHash('sha256').update('x').digest('base64'), createHash('sha256').update('y').digest())).toBe(false)
  })

  it('refuses bytes that do not match the sha256 or the declared size, or exceed the cap', async () => {
    fake.media.set('tampered', { bytes, mime: 'image/jpeg', sha256: createHash('sha256').update('other').digest('hex') })
    expect(await graph.downloadMedia('tampered').catch((e) => e)).toMatchObject({ title: 'media sha256 mismatch', retryable: true })
    fake.media.set('short', { bytes, mime: 'image/jpeg', fileSize: bytes.length + 10 })
    expect(await graph.downloadMedia('short').catch((e) => e)).toMatchObject({ title: 'media size mismatch' })
    expect(await graph.downloadMedia('b64', 1000).catch((e) => e)).toMatchObject({ title: 'media too large', retryable: false })
    // A size Meta under-declares is still cut while reading.
    fake.media.set('liar', { bytes, mime: 'image/jpeg', fileSize: 10 })
    expect(await graph.downloadMedia('liar', 1000).catch((e) => e)).toMatchObject({ title: 'media too large' })
  })

  it('an unknown media id is a Graph error', async () => {
    expect(await graph.downloadMedia('nope').catch((e) => e)).toMatchObject({ httpStatus: 400, code: 100, subcode: 33 })
  })
})

describe('templates', () => {
  it('lists every template across pages, skipping ones that do not parse', async () => {
    fake.templates.length = 0
    for (let i = 0; i < 7; i++) {
      fake.templates.push({
        id: String(1000 + i),
        name: `t${i}`,
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Olá {{1}}, pedido {{2}}' }],
      })
    }
    fake.templates.push({ id: '9', language: 'pt_BR' })
    const { templates, skipped } = await graph.listTemplates({ pageSize: 3 })
    expect(templates.map((t) => t.name)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6'])
    expect(skipped).toBe(1)
    expect(templates[0]).toMatchObject({ id: '1000', status: 'APPROVED', components: [{ type: 'BODY', text: 'Olá {{1}}, pedido {{2}}' }] })
  })
})
