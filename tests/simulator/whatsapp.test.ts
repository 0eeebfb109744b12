import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SimulatorClient } from '../../simulator/whatsapp/client.ts'
import type { Simulator, SimulatorOptions } from '../../simulator/whatsapp/simulator.ts'
import { createSimulator } from '../../simulator/whatsapp/simulator.ts'
import { signature } from '../../simulator/whatsapp/webhooks.ts'

// The WhatsApp Cloud API simulator (simulator/whatsapp/) against a fake product: a plain HTTP server that records
// every webhook's raw bytes and headers, and answers as each test tells it. Every signature is checked here with
// node:crypto directly, not with the simulator's own helper.

const PHONE = '106540352242922'
const WABA = '102290129340398'
const TOKEN = 'test-access-token'
const SECRET = 'test-app-secret'
const CUSTOMER = '5511987650001'

type Hit = { method: string; url: string; headers: http.IncomingHttpHeaders; raw: Buffer; json: any }

async function receiver(answer: (hit: Hit, index: number) => number | 'hang' = () => 200) {
  const hits: Hit[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const raw = Buffer.concat(chunks)
      const url = new URL(request.url ?? '/', 'http://x')
      if (request.method === 'GET') {
        const ok = url.searchParams.get('hub.mode') === 'subscribe' && url.searchParams.get('hub.verify_token') === 'the-verify-token'
        response.writeHead(ok ? 200 : 403).end(ok ? url.searchParams.get('hub.challenge') : 'no')
        return
      }
      const hit: Hit = { method: request.method!, url: request.url!, headers: request.headers, raw, json: JSON.parse(raw.toString()) }
      const code = answer(hit, hits.length)
      hits.push(hit)
      if (code === 'hang') return
      response.writeHead(code).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp/7/`
  return {
    url,
    hits,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    /** Every status posted for a message id, in arrival order. */
    statuses: (id: string) =>
      hits.flatMap((h) => h.json.entry.flatMap((e: any) => e.changes.flatMap((c: any) => (c.value.statuses ?? []).filter((s: any) => s.id === id)))),
    messages: () => hits.flatMap((h) => h.json.entry.flatMap((e: any) => e.changes.flatMap((c: any) => c.value.messages ?? []))),
  }
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(options: SimulatorOptions = {}, answer?: Parameters<typeof receiver>[0]) {
  const product = await receiver(answer)
  cleanups.push(product.close)
  const sim: Simulator = createSimulator({
    port: 0,
    sentDelayMs: 5,
    deliveredDelayMs: 20,
    webhook: { baseMs: 20, maxMs: 100, timeoutMs: 2000 },
    ...options,
    numbers: [
      {
        phone_number_id: PHONE,
        waba_id: WABA,
        access_token: TOKEN,
        app_secret: SECRET,
        verify_token: 'the-verify-token',
        webhook_url: product.url,
        display_phone_number: '15550783881',
      },
    ],
  })
  const base = await sim.listen()
  cleanups.push(() => sim.close())
  const client = new SimulatorClient(base)
  const graph = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const send = (body: Record<string, unknown>, token?: string) =>
    graph('POST', `/v23.0/${PHONE}/messages`, { messaging_product: 'whatsapp', recipient_type: 'individual', to: `+${CUSTOMER}`, ...body }, token)
  return { sim, base, client, product, graph, send }
}

function verified(hit: Hit, secret = SECRET): boolean {
  const header = String(hit.headers['x-hub-signature-256'] ?? '')
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(hit.raw).digest('hex')}`)
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), expected)
}

describe('webhook signatures', () => {
  it('signs with HMAC-SHA256 hex: the known-answer vector of HMAC("test", key "secret")', () => {
    expect(signature('test', 'secret')).toBe('sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914')
    expect(signature(Buffer.from('test'), 'secret')).toBe('sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914')
  })

  it('signs the exact raw bytes posted, in a Meta envelope routed by WABA and phone_number_id', async () => {
    const { client, product } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Olá, ação — 😀', { name: 'Sheena Nelson', wait: true })
    expect(product.hits).toHaveLength(1)
    const [hit] = product.hits
    expect(verified(hit!)).toBe(true)
    expect(verified(hit!, 'wrong-secret')).toBe(false)
    expect(hit!.headers['content-type']).toBe('application/json')
    expect(hit!.json).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: PHONE },
                contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: CUSTOMER }],
                messages: [{ from: CUSTOMER, type: 'text', text: { body: 'Olá, ação — 😀' } }],
              },
            },
          ],
        },
      ],
    })
    const message = hit!.json.entry[0].changes[0].value.messages[0]
    expect(message.id).toMatch(/^wamid\./)
    expect(message.timestamp).toMatch(/^\d{10}$/)
  })

  it("runs Meta's GET verification against the product and reports the result", async () => {
    const { client } = await setup()
    const good = await client.verify(PHONE)
    expect(good).toMatchObject({ ok: true, status: 200 })
    await client.updateNumber(PHONE, { verify_token: 'another' })
    expect(await client.verify(PHONE)).toMatchObject({ ok: false, status: 403 })
  })
})

describe('statuses after a send', () => {
  it('posts sent, delivered and, when the customer opens the chat, read, in that order with conversation and pricing', async () => {
    const { client, product, send } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    const sent = await send({ type: 'text', text: { body: 'Olá! Como posso ajudar?' }, biz_opaque_callback_data: 'outbox-42' })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: `+${CUSTOMER}`, wa_id: CUSTOMER }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    })
    const id = sent.body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(id).map((s: any) => s.status)).toEqual(['sent', 'delivered']))
    await client.read(PHONE, CUSTOMER)
    await vi.waitFor(() => expect(product.statuses(id).map((s: any) => s.status)).toEqual(['sent', 'delivered', 'read']))
    const [first] = product.statuses(id)
    expect(first).toMatchObject({ recipient_id: CUSTOMER, timestamp: expect.stringMatching(/^\d{10}$/), biz_opaque_callback_data: 'outbox-42' })
    expect(first.conversation).toMatchObject({ id: expect.any(String), origin: { type: 'service' } })
    expect(first.pricing).toMatchObject({ pricing_model: 'PMP', category: 'service' })
    expect(product.hits.every((hit) => verified(hit))).toBe(true)
    const conversation = await client.conversation(PHONE, CUSTOMER)
    expect(conversation.messages.map((m) => [m.direction, m.status])).toEqual([
      ['in', 'delivered'],
      ['out', 'read'],
    ])
  })

  it('with the customer page open, a reply is read at once and no delivered is posted, as Meta does', async () => {
    const { base, client, product, send } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    const page = new AbortController()
    const events = await fetch(`${base}/control/events?phone_number_id=${PHONE}&wa_id=${CUSTOMER}&open=1`, { signal: page.signal })
    expect(events.headers.get('content-type')).toContain('text/event-stream')
    const reader = events.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(JSON.parse(first.replace(/^data: /, '')).messages).toHaveLength(1)
    const id = (await send({ type: 'text', text: { body: 'Já te respondo' } })).body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(id).map((s: any) => s.status)).toEqual(['sent', 'read']))
    page.abort()
  })

  it('reads by itself after autoReadMs', async () => {
    const { client, product, send } = await setup({ autoReadMs: 30 })
    await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    const id = (await send({ type: 'text', text: { body: 'Oi!' } })).body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(id).map((s: any) => s.status)).toEqual(['sent', 'delivered', 'read']))
  })

  it('fails with errors[] when the customer cannot be reached (131026) and when a media id is unknown (131053)', async () => {
    const { client, product, send } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    const media = (await send({ type: 'image', image: { id: '999999' } })).body.messages[0].id
    await client.setCustomer(PHONE, CUSTOMER, { undeliverable: true })
    const text = (await send({ type: 'text', text: { body: 'Oi' } })).body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(text)).toHaveLength(1))
    await vi.waitFor(() => expect(product.statuses(media)).toHaveLength(1))
    expect(product.statuses(text)[0]).toMatchObject({
      status: 'failed',
      errors: [{ code: 131026, title: expect.any(String), error_data: { details: expect.any(String) } }],
    })
    expect(product.statuses(media)[0]).toMatchObject({ status: 'failed', errors: [{ code: 131053 }] })
  })

  it('with chaos: duplicates carry the same bytes, read arrives before delivered, and many entries share one envelope', async () => {
    const { client, product, send, sim } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    await client.chaos({ duplicate: 1, reorder: true })
    const id = (await send({ type: 'text', text: { body: 'Olá' } })).body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(id).map((s: any) => s.status)).toEqual(['sent', 'sent', 'read', 'read', 'delivered', 'delivered']))
    const statusHits = product.hits.filter((h) => h.json.entry[0].changes[0].value.statuses)
    for (let i = 0; i < statusHits.length; i += 2) expect(statusHits[i]!.raw.equals(statusHits[i + 1]!.raw)).toBe(true)
    expect((await client.conversation(PHONE, CUSTOMER)).messages[1]!.status).toBe('read')

    await client.chaos({ duplicate: 0, reorder: false, multiEntry: true })
    const before = product.hits.length
    await Promise.all([1, 2, 3].map((n) => sim.inbound({ phone_number_id: PHONE, from: CUSTOMER, type: 'text', text: { body: `burst ${n}` } })))
    await sim.idle()
    const envelopes = product.hits.slice(before)
    expect(envelopes.length).toBeLessThan(3)
    expect(envelopes.flatMap((h) => h.json.entry).length).toBe(3)
    expect(envelopes.flatMap((h) => h.json.entry.map((e: any) => e.id))).toEqual([WABA, WABA, WABA])
    expect(envelopes.every((hit) => verified(hit))).toBe(true)
  })

  it('delays a webhook when asked per call', async () => {
    const { client } = await setup()
    const started = Date.now()
    const result = await client.sendText(PHONE, CUSTOMER, 'devagar', { chaos: { delayMs: 150 }, wait: true })
    expect(result.delivery?.ok).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
  })

  it('retries a webhook answered non-2xx or not in time, with back-off, and gives up after the bounded attempts', async () => {
    const { client, product } = await setup({ webhook: { attempts: 4, baseMs: 10, maxMs: 40, timeoutMs: 200 } }, (_hit, index) =>
      index === 0 ? 500 : index === 1 ? 'hang' : index === 2 ? 503 : 200,
    )
    const result = await client.sendText(PHONE, CUSTOMER, 'insistente', { wait: true })
    expect(result.delivery).toMatchObject({ ok: true })
    expect(result.delivery!.attempts.map((a) => a.status ?? a.error)).toEqual([500, 'timeout', 503, 200])
    expect(new Set(product.hits.map((h) => h.raw.toString())).size).toBe(1)

    const down = await setup({ webhook: { attempts: 3, baseMs: 10, maxMs: 20, timeoutMs: 200 } }, () => 500)
    const gaveUp = await down.client.sendText(PHONE, CUSTOMER, 'perdida', { wait: true })
    expect(gaveUp.delivery).toMatchObject({ ok: false, done: true })
    expect(gaveUp.delivery!.attempts.map((a) => a.status)).toEqual([500, 500, 500])
    expect(down.product.hits).toHaveLength(3)
    expect((await down.client.conversation(PHONE, CUSTOMER)).messages[0]!.status).toBe('sent')
  })
})

describe('the 24-hour window and throughput', () => {
  it('refuses free-form outside the window with 131047 (HTTP 400) but accepts templates; an inbound reopens it', async () => {
    const { client, send } = await setup()
    const refused = await send({ type: 'text', text: { body: 'Oi' } })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({
      code: 131047,
      type: 'OAuthException',
      error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
    })
    expect(refused.body.error.message).toContain('131047')
    const template = await send({ type: 'template', template: { name: 'lembrete_contato', language: { code: 'pt_BR' } } })
    expect(template.status).toBe(200)
    expect(template.body.messages[0].message_status).toBe('accepted')
    await client.sendText(PHONE, CUSTOMER, 'Voltei')
    expect((await send({ type: 'text', text: { body: 'Que bom!' } })).status).toBe(200)
    await client.expireWindow(PHONE, CUSTOMER)
    expect((await send({ type: 'text', text: { body: 'Ainda aí?' } })).body.error.code).toBe(131047)
  })

  it('or accepts it and posts a failed status with 131047, when so configured', async () => {
    const { product, send } = await setup({ outsideWindow: 'fail' })
    const accepted = await send({ type: 'text', text: { body: 'Oi' } })
    expect(accepted.status).toBe(200)
    const id = accepted.body.messages[0].id
    await vi.waitFor(() => expect(product.statuses(id)).toHaveLength(1))
    expect(product.statuses(id)[0]).toMatchObject({ status: 'failed', recipient_id: CUSTOMER, errors: [{ code: 131047, title: 'Re-engagement message' }] })
  })

  it('answers 130429 past the throughput per number and 131056 past the pair rate per customer', async () => {
    // A stopped clock: however slow the machine, every send falls in the same second.
    const frozen = Date.now()
    const { client, send } = await setup({ throughputPerSecond: 3, pairLimit: 100, now: () => frozen })
    await client.sendText(PHONE, CUSTOMER, 'Oi')
    const results = []
    for (let i = 0; i < 4; i++) results.push(await send({ type: 'text', text: { body: `${i}` } }))
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200])
    expect(results[3]!.status).toBe(400)
    expect(results[3]!.body.error).toMatchObject({ code: 130429, error_data: { details: 'Cloud API message throughput has been reached.' } })

    const pair = await setup({ throughputPerSecond: 100, pairLimit: 2, now: () => frozen })
    await pair.client.sendText(PHONE, CUSTOMER, 'Oi')
    const codes = []
    for (let i = 0; i < 3; i++) codes.push((await pair.send({ type: 'text', text: { body: `${i}` } })).body.error?.code ?? 200)
    expect(codes).toEqual([200, 200, 131056])
  })
})

describe('Graph API', () => {
  it('answers 401 with the Graph error envelope for a missing or wrong token, and 400 for an unknown number', async () => {
    const { send, graph } = await setup()
    const wrong = await send({ type: 'text', text: { body: 'x' } }, 'not-the-token')
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ error: { message: expect.any(String), type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) } })
    expect((await graph('POST', `/v23.0/${PHONE}/messages`, {}, '')).status).toBe(401)
    const unknown = await graph('POST', '/v23.0/123/messages', { messaging_product: 'whatsapp' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 })
    const bad = await send({ type: 'text', text: {} })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe(100)
  })

  it('takes every outbound type and a reply context; mark-as-read turns the customer message read', async () => {
    const { client, send, graph } = await setup()
    const inbound = await client.sendText(PHONE, CUSTOMER, 'Oi', { wait: true })
    const bodies = [
      { type: 'text', text: { body: 'Resposta', preview_url: false }, context: { message_id: inbound.id } },
      { type: 'image', image: { link: 'https://example.com/a.jpg', caption: 'foto' } },
      { type: 'video', video: { link: 'https://example.com/a.mp4' } },
      { type: 'audio', audio: { link: 'https://example.com/a.ogg' } },
      { type: 'audio', audio: { link: 'https://example.com/voice.ogg', voice: true } },
      { type: 'document', document: { link: 'https://example.com/a.pdf', filename: 'a.pdf' } },
      { type: 'sticker', sticker: { link: 'https://example.com/a.webp' } },
      { type: 'location', location: { latitude: -23.56, longitude: -46.65, name: 'Loja', address: 'Av. Paulista' } },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Lima', first_name: 'Ana' }, phones: [{ phone: '+5511999998888', type: 'CELL' }] }] },
      { type: 'reaction', reaction: { message_id: inbound.id, emoji: '👍' } },
    ]
    for (const body of bodies) expect((await send(body)).status, body.type).toBe(200)
    expect((await send({ type: 'image', image: { id: '1', link: 'https://example.com/a.jpg' } })).status).toBe(400)
    expect((await send({ type: 'contacts', contacts: [{ name: { formatted_name: 'Só nome' } }] })).status).toBe(400)
    expect((await send({ type: 'audio', audio: { link: 'https://example.com/a.ogg', voice: 'yes' } })).status).toBe(400)
    const read = await graph('POST', `/v23.0/${PHONE}/messages`, { messaging_product: 'whatsapp', status: 'read', message_id: inbound.id })
    expect(read).toEqual({ status: 200, body: { success: true } })
    const conversation = await client.conversation(PHONE, CUSTOMER)
    expect(conversation.messages[0]).toMatchObject({ id: inbound.id, status: 'read' })
    expect(conversation.messages.slice(1).map((m) => m.type)).toEqual(bodies.map((b) => b.type))
  })

  it("can report Brazilian mobiles' wa_id without the ninth digit, as Meta does for older accounts", async () => {
    const { client, product, send } = await setup({ brazilWaIdWithoutNinthDigit: true })
    await client.sendText(PHONE, CUSTOMER, 'Oi', { name: 'Maria', wait: true })
    const value = product.hits[0]!.json.entry[0].changes[0].value
    expect(value.contacts).toEqual([{ profile: { name: 'Maria' }, wa_id: '551187650001' }])
    expect(value.messages[0].from).toBe('551187650001')
    const withNine = await send({ type: 'text', text: { body: 'Olá' } })
    expect(withNine.body.contacts).toEqual([{ input: `+${CUSTOMER}`, wa_id: '551187650001' }])
    const withoutNine = await send({ type: 'text', text: { body: 'Tudo bem?' }, to: '551187650001' })
    expect(withoutNine.status).toBe(200)
    const conversation = await client.conversation(PHONE, CUSTOMER)
    expect(conversation.wa_id).toBe('551187650001')
    expect(conversation.messages).toHaveLength(3)
  })

  it('sends templates by name and language, counting parameters (132001, 132000)', async () => {
    const { client, send } = await setup()
    await client.sendText(PHONE, CUSTOMER, 'Oi')
    const ok = await send({
      type: 'template',
      template: {
        name: 'promocao_fibra',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/fibra.jpg' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Maria' },
              { type: 'currency', currency: { fallback_value: 'R$ 99,90', code: 'BRL', amount_1000: 99900 } },
            ],
          },
        ],
      },
    })
    expect(ok.status).toBe(200)
    const rendered = (await client.conversation(PHONE, CUSTOMER)).messages.at(-1)!.rendered
    expect(rendered?.body).toBe('Olá Maria! A Internet Fibra 500 Mb sai por R$ 99,90 ao mês. Quer saber mais?')
    expect(rendered?.buttons).toEqual(['Quero saber mais', 'Agora não'])

    const unknown = await send({ type: 'template', template: { name: 'nao_existe', language: { code: 'pt_BR' } } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatchObject({ code: 132001, error_data: { details: 'template name (nao_existe) does not exist in pt_BR' } })
    const otherLanguage = await send({ type: 'template', template: { name: 'promocao_fibra', language: { code: 'en_US' } } })
    expect(otherLanguage.body.error.code).toBe(132001)
    const tooFew = await send({
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'es_ES' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'María' }] }] },
    })
    expect(tooFew.status).toBe(400)
    expect(tooFew.body.error).toMatchObject({ code: 132000 })
    const noHeader = await send({
      type: 'template',
      template: {
        name: 'promocao_fibra',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      },
    })
    expect(noHeader.body.error.code).toBe(132000)
  })

  it("lists the WABA's templates in Meta's shape, page by page with cursors", async () => {
    const { graph } = await setup()
    const seen: any[] = []
    let path: string | null = `/v23.0/${WABA}/message_templates?limit=3`
    let pages = 0
    while (path) {
      const page = await graph('GET', path)
      expect(page.status).toBe(200)
      expect(page.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) })
      seen.push(...page.body.data)
      path = page.body.paging.next ? new URL(page.body.paging.next).pathname + new URL(page.body.paging.next).search : null
      if (path) expect(page.body.data).toHaveLength(3)
      pages++
    }
    expect(pages).toBe(3)
    expect(new Set(seen.map((t) => t.id)).size).toBe(seen.length)
    expect(new Set(seen.map((t) => t.language))).toEqual(new Set(['pt_BR', 'en_US', 'es_ES']))
    const promo = seen.find((t) => t.name === 'promocao_fibra')
    expect(promo).toMatchObject({ status: 'APPROVED', category: 'MARKETING', language: 'pt_BR' })
    expect(promo.components[0]).toMatchObject({ type: 'HEADER', format: 'IMAGE' })
    expect(promo.components[1]).toMatchObject({ type: 'BODY', text: expect.stringContaining('{{1}}') })
    const second = await graph(
      'GET',
      `/v23.0/${WABA}/message_templates?limit=3&after=${encodeURIComponent((await graph('GET', `/v23.0/${WABA}/message_templates?limit=3`)).body.paging.cursors.after)}`,
    )
    expect(second.body.data.map((t: any) => t.id)).toEqual(seen.slice(3, 6).map((t) => t.id))
    expect((await graph('GET', `/v23.0/${WABA}/message_templates`, undefined, 'bad')).status).toBe(401)
    expect((await graph('GET', `/v23.0/999/message_templates`)).status).toBe(400)
  })
})

describe('media', () => {
  it('uploads multipart, hands out an expiring URL that needs the same token, with the right sha256 and size', async () => {
    let clock = Date.now()
    const { base, graph, send, client } = await setup({ now: () => clock, mediaUrlTtlMs: 60_000 })
    const bytes = Buffer.from('%PDF-1.4\nsimulated pdf\n%%EOF\n')
    const form = new FormData()
    form.append('messaging_product', 'whatsapp')
    form.append('type', 'application/pdf')
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'contrato.pdf')
    const upload = await fetch(`${base}/v23.0/${PHONE}/media`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form })
    expect(upload.status).toBe(200)
    const { id } = (await upload.json()) as { id: string }
    expect(id).toMatch(/^\d+$/)
    const noFile = new FormData()
    noFile.append('messaging_product', 'whatsapp')
    expect((await fetch(`${base}/v23.0/${PHONE}/media`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: noFile })).status).toBe(400)

    const info = await graph('GET', `/v23.0/${id}`)
    expect(info).toEqual({
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        mime_type: 'application/pdf',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        file_size: String(bytes.length),
        id,
      },
    })
    expect((await graph('GET', `/v23.0/${id}`, undefined, 'bad')).status).toBe(401)
    const download = await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true)
    expect((await fetch(info.body.url)).status).toBe(401)
    expect((await fetch(info.body.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await fetch(info.body.url.replace(/sig=[^&]+/, 'sig=forged'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
    clock += 60_001
    expect((await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
    const fresh = await graph('GET', `/v23.0/${id}`)
    expect((await fetch(fresh.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)

    await client.sendText(PHONE, CUSTOMER, 'Oi')
    expect((await send({ type: 'document', document: { id, filename: 'contrato.pdf' } })).status).toBe(200)
  })
})

describe('the control API drives every inbound type to the product', () => {
  it('serves the customer page in three languages', async () => {
    const { base } = await setup()
    const page = await fetch(`${base}/`)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    for (const text of ['Simulador do WhatsApp', 'WhatsApp simulator', 'Simulador de WhatsApp', '/control/events', '/control/inbound'])
      expect(html).toContain(text)
  })

  it('text, media with real bytes, location, contacts, interactive, template button, reaction and system', async () => {
    const { client, product, graph, send } = await setup()
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('a real enough jpeg'), Buffer.from([0xff, 0xd9])])
    const first = await client.sendText(PHONE, CUSTOMER, 'Oi', { name: 'Maria' })
    const template = (await send({ type: 'template', template: { name: 'lembrete_contato', language: { code: 'pt_BR' } } })).body.messages[0].id
    await client.send(PHONE, CUSTOMER, { type: 'image', image: { caption: 'foto' }, file: { data: jpeg, mime_type: 'image/jpeg' } })
    await client.send(PHONE, CUSTOMER, { type: 'audio', audio: { voice: true } })
    await client.send(PHONE, CUSTOMER, { type: 'video', video: { caption: 'vídeo' } })
    await client.send(PHONE, CUSTOMER, { type: 'document', document: { filename: 'boleto.pdf', caption: 'boleto' } })
    await client.send(PHONE, CUSTOMER, { type: 'sticker' })
    await client.send(PHONE, CUSTOMER, { type: 'location', location: { latitude: -23.561414, longitude: -46.655881, name: 'Casa', address: 'Rua A, 1' } })
    await client.send(PHONE, CUSTOMER, {
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'João Silva', first_name: 'João' }, phones: [{ phone: '+5511988887777', wa_id: '5511988887777', type: 'CELL' }] }],
    })
    await client.send(PHONE, CUSTOMER, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'sim', title: 'Sim' } },
      context: { id: template },
    })
    await client.send(PHONE, CUSTOMER, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'p1', title: 'Plano 1', description: '500 Mb' } },
    })
    await client.send(PHONE, CUSTOMER, { type: 'button', button: { payload: 'approve', text: 'Sim' }, context: { id: template } })
    await client.send(PHONE, CUSTOMER, { type: 'reaction', reaction: { message_id: template, emoji: '❤️' } })
    await client.send(PHONE, CUSTOMER, { type: 'system', system: { wa_id: '5511987650002' } })
    await expect(client.send(PHONE, CUSTOMER, { type: 'ephemeral' as 'text' })).rejects.toMatchObject({ status: 400 })
    await expect(client.send(PHONE, CUSTOMER, { type: 'text', text: {} })).rejects.toMatchObject({ status: 400 })

    await vi.waitFor(() => expect(product.messages()).toHaveLength(13))
    expect(product.hits.every((hit) => verified(hit))).toBe(true)
    const messages = product.messages()
    expect(messages.map((m: any) => m.type)).toEqual([
      'text',
      'image',
      'audio',
      'video',
      'document',
      'sticker',
      'location',
      'contacts',
      'interactive',
      'interactive',
      'button',
      'reaction',
      'system',
    ])
    expect(messages[0]).toMatchObject({ id: first.id, text: { body: 'Oi' } })
    expect(messages[1].image).toMatchObject({
      caption: 'foto',
      mime_type: 'image/jpeg',
      sha256: createHash('sha256').update(jpeg).digest('hex'),
      id: expect.any(String),
    })
    expect(messages[2].audio).toMatchObject({ voice: true, mime_type: expect.stringContaining('audio/ogg') })
    expect(messages[4].document).toMatchObject({ filename: 'boleto.pdf', caption: 'boleto', mime_type: 'application/pdf' })
    expect(messages[6].location).toEqual({ latitude: -23.561414, longitude: -46.655881, name: 'Casa', address: 'Rua A, 1' })
    expect(messages[7].contacts[0].name.formatted_name).toBe('João Silva')
    expect(messages[8]).toMatchObject({
      interactive: { type: 'button_reply', button_reply: { id: 'sim', title: 'Sim' } },
      context: { from: '15550783881', id: template },
    })
    expect(messages[9].interactive.list_reply).toEqual({ id: 'p1', title: 'Plano 1', description: '500 Mb' })
    expect(messages[10]).toMatchObject({ button: { payload: 'approve', text: 'Sim' }, context: { id: template } })
    expect(messages[11].reaction).toEqual({ message_id: template, emoji: '❤️' })
    expect(messages[12].system).toEqual({ body: expect.stringContaining('5511987650002'), wa_id: '5511987650002', type: 'user_changed_number' })

    // The two-step download gives back the very bytes, whose sha256 is the one in the webhook.
    for (const message of messages.slice(1, 6)) {
      const object = message[message.type]
      const info = await graph('GET', `/v23.0/${object.id}?phone_number_id=${PHONE}`)
      const bytes = Buffer.from(await (await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).arrayBuffer())
      expect(createHash('sha256').update(bytes).digest('hex'), message.type).toBe(object.sha256)
      expect(info.body.sha256).toBe(object.sha256)
    }
    const conversation = await client.conversation(PHONE, CUSTOMER)
    expect(conversation.name).toBe('Maria')
    expect(conversation.window_open).toBe(true)
    await vi.waitFor(async () =>
      expect((await client.conversation(PHONE, CUSTOMER)).messages.filter((m) => m.direction === 'in').every((m) => m.status === 'delivered')).toBe(true),
    )
  })

  it('lists numbers, refuses a bad one, and resets conversations and chaos', async () => {
    const { client } = await setup()
    expect((await client.numbers()).map((n) => n.phone_number_id)).toEqual([PHONE])
    await expect(client.createNumber({ phone_number_id: 'x' } as never)).rejects.toMatchObject({ status: 400 })
    await client.createNumber({ phone_number_id: '2', waba_id: '3', access_token: 'a', app_secret: 'b', display_phone_number: '+55 11 3000-0000' })
    expect((await client.numbers()).map((n) => [n.phone_number_id, n.display_phone_number])).toEqual([
      [PHONE, '15550783881'],
      ['2', '551130000000'],
    ])
    await client.sendText(PHONE, CUSTOMER, 'Oi')
    await client.chaos({ duplicate: 0.5 })
    await client.reset()
    expect(await client.conversations()).toEqual([])
    expect(await client.chaos()).toEqual({ duplicate: 0, reorder: false, delayMs: 0, multiEntry: false })
    await client.reset({ numbers: true })
    expect((await client.numbers()).map((n) => n.phone_number_id)).toEqual([PHONE])
    await expect(client.chaos({ duplicate: 2 })).rejects.toMatchObject({ status: 400 })
  })
})
