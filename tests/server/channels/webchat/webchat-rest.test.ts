import { gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chatChannels } from '../../../../server/db/schema/index.ts'
import { signVisitorToken } from '../../../../server/channels/webchat/visitor-token.ts'
import type { WidgetConfig } from '../../../../contract/realtime/visitor-socket.ts'
import { randomIp, signedIn, useTestApp } from '../../helper.ts'
import { PNG, demoChannel, multipart, newSession } from './visitor-helper.ts'

// The website chat's public REST (QUALITY 9 and 17): the channel token, CORS for the channel's allowed domains, visitor
// sessions signed per channel and rate-limited per address, uploads checked by magic bytes and size.
const t = useTestApp({
  overrides: { webchat: { conversations: 'memory' } },
  config: {
    webchat: {
      secretKey: 'test-secret-test-secret-test-secret',
      maxUploadBytes: 64 * 1024,
      limits: {
        sessionsPerAddress: { burst: 3, perSecond: 0.001 },
        messagesPerVisitor: { burst: 10, perSecond: 1 },
        messagesPerAddress: { burst: 60, perSecond: 5 },
      },
    },
  },
})
let token: string
let channelId: number
let otherToken: string

beforeAll(async () => {
  const demo = await demoChannel(t.database.db)
  channelId = demo.id
  token = t.app.webchat.keys.publicToken(demo.id)
  const [other] = await t.database.db
    .insert(chatChannels)
    .values({ siteId: demo.siteId, description: 'Outro site', type: 'webchat', allowedDomains: 'shop.example.com', requireName: false })
    .returning({ id: chatChannels.id })
  otherToken = t.app.webchat.keys.publicToken(other!.id)
})

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers }, remoteAddress: randomIp() })

describe('the channel token and its origins', () => {
  it('answers the widget settings for the demo channel on its own origin', async () => {
    const response = await get(`/widget/config/${token}`, { origin: 'http://localhost' })
    expect(response.statusCode).toBe(200)
    const config = response.json() as WidgetConfig
    expect(config).toMatchObject({ title: 'Fale conosco', color: '#7a4b24', require_name: true, require_email: true, require_phone: false, online: false })
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost')
  })

  it('allows an origin whose host is an allowed domain (any port) and refuses others, null included', async () => {
    const allowed = await get(`/widget/config/${token}`, { origin: 'http://127.0.0.1:5173' })
    expect(allowed.statusCode).toBe(200)
    expect(allowed.headers['access-control-allow-origin']).toBe('http://127.0.0.1:5173')
    for (const origin of ['https://evil.example.com', 'null', 'http://localhost.evil.com', 'file://']) {
      const refused = await get(`/widget/config/${token}`, { origin })
      expect(refused.statusCode, origin).toBe(403)
      expect(refused.headers['access-control-allow-origin']).toBeUndefined()
    }
    expect((await get(`/widget/config/${otherToken}`, { origin: 'https://shop.example.com' })).statusCode).toBe(200)
    expect((await get(`/widget/config/${otherToken}`, { origin: 'http://127.0.0.1:5173' })).statusCode).toBe(403)
  })

  it('answers the pre-flight of a session only for an allowed origin', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: `/widget/sessions/${otherToken}`,
      headers: { host: 'localhost', origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    })
    expect(ok.statusCode).toBe(204)
    expect(ok.headers['access-control-allow-origin']).toBe('https://shop.example.com')
    expect(String(ok.headers['access-control-allow-headers'])).toContain('x-visitor-token')
    const refused = await t.app.inject({
      method: 'OPTIONS',
      url: `/widget/sessions/${otherToken}`,
      headers: { host: 'localhost', origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    })
    expect(refused.statusCode).toBe(403)
  })

  it('does not know a forged channel token, a bare id, or a WhatsApp channel', async () => {
    const tag = token.split('-')[1]!
    expect((await get(`/widget/config/${channelId}-${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`)).statusCode).toBe(404)
    expect((await get(`/widget/config/${channelId}`)).statusCode).toBe(404)
    expect((await get(`/widget/config/${t.app.webchat.keys.publicToken(1)}`)).statusCode).toBe(channelId === 1 ? 200 : 404)
    expect((await get(`/widget/config/x%00y`)).statusCode).toBe(400)
  })
})

describe('visitor sessions', () => {
  it('asks for what the channel requires, then signs a session of 30 days', async () => {
    const ip = randomIp()
    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/widget/sessions/${token}`,
        headers: { host: 'localhost', 'content-type': 'application/json' },
        remoteAddress: ip,
        payload: JSON.stringify(body),
      })
    const missing = await post({ name: 'Ana' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ email: ['Este campo é obrigatório'] })
    const bad = await post({ name: 'Ana', email: 'not-an-email' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json() as object)).toEqual(['email'])
    const created = await post({ name: 'Ana', email: 'ana@example.com' })
    expect(created.statusCode).toBe(201)
    const session = created.json() as { token: string; visitor_id: string; expires_at: string }
    expect(session.visitor_id).toMatch(/^[0-9a-f-]{36}$/)
    const days = (Date.parse(session.expires_at) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
  })

  it('limits the sessions one address creates (429 with Retry-After), not another address', async () => {
    const ip = randomIp()
    for (let i = 0; i < 3; i++) await newSession(t.app, otherToken, {}, ip)
    const refused = await t.app.inject({
      method: 'POST',
      url: `/widget/sessions/${otherToken}`,
      headers: { host: 'localhost', 'content-type': 'application/json' },
      remoteAddress: ip,
      payload: '{}',
    })
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json()).toHaveProperty('detail')
    await newSession(t.app, otherToken, {}, randomIp())
  })
})

describe('attachments', () => {
  const upload = (visitorToken: string | null, file: ReturnType<typeof multipart>, channel = token) =>
    t.app.inject({
      method: 'POST',
      url: `/widget/attachments/${channel}`,
      headers: { host: 'localhost', 'content-type': file.contentType, ...(visitorToken ? { 'x-visitor-token': visitorToken } : {}) },
      remoteAddress: randomIp(),
      payload: file.body,
    })

  it('stores an image under a random name and serves it as an attachment with nosniff', async () => {
    const session = await newSession(t.app, token)
    const response = await upload(session.token, multipart('file', '../../etc/pass<w>d.png', PNG, 'text/html'))
    expect(response.statusCode).toBe(201)
    const stored = response.json() as { id: string; url: string; name: string; type: string; mime: string }
    expect(stored.id).toMatch(/^[a-f0-9]{32}\.png$/)
    expect(stored).toMatchObject({ type: 'photo', mime: 'image/png', name: 'passwd.png' })
    const served = await get(new URL(stored.url).pathname)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.headers['content-disposition']).toMatch(/^attachment;/)
    expect(served.rawPayload.equals(PNG)).toBe(true)
  })

  it('decides the type by the first bytes: a program named .png, an HTML page and an SVG are refused', async () => {
    const session = await newSession(t.app, token)
    for (const [name, bytes] of [
      ['photo.png', Buffer.from('MZ\x90\x00\x03\x00\x00\x00program')],
      ['page.pdf', Buffer.from('<html><script>alert(1)</script></html>')],
      ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ] as const) {
      const response = await upload(session.token, multipart('file', name, bytes, 'image/png'))
      expect(response.statusCode, name).toBe(400)
      expect(Object.keys(response.json() as object)).toEqual(['file'])
    }
    const pdf = await upload(session.token, multipart('file', 'a.pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n')))
    expect(pdf.statusCode).toBe(201)
    expect(pdf.json()).toMatchObject({ type: 'document', mime: 'application/pdf' })
    const ogg = await upload(session.token, multipart('file', 'voice', Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60)])))
    expect(ogg.json()).toMatchObject({ type: 'audio', mime: 'audio/ogg' })
    const m4a = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(40)])
    expect((await upload(session.token, multipart('file', 'a.m4a', m4a))).json()).toMatchObject({ type: 'audio', mime: 'audio/mp4' })
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(40)])
    expect((await upload(session.token, multipart('file', 'a.mp4', mp4))).json()).toMatchObject({ type: 'video', mime: 'video/mp4' })
  })

  it('refuses a file over the size limit, and an empty one', async () => {
    const session = await newSession(t.app, token)
    const big = Buffer.concat([PNG, Buffer.alloc(64 * 1024)])
    const response = await upload(session.token, multipart('file', 'big.png', big))
    expect(response.statusCode).toBe(400)
    expect((response.json() as { file: string[] }).file[0]).toContain('0.1 MB')
    expect((await upload(session.token, multipart('file', 'empty.png', Buffer.alloc(0)))).statusCode).toBe(400)
  })

  it('needs a visitor token of this channel: none, forged or expired 401, another channel 403', async () => {
    const file = multipart('file', 'a.png', PNG)
    expect((await upload(null, file)).statusCode).toBe(401)
    const session = await newSession(t.app, token)
    const [payload, signature] = session.token.split('.') as [string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
    const tampered = Buffer.from(JSON.stringify({ ...claims, v: '00000000-0000-4000-8000-000000000000' })).toString('base64url')
    expect((await upload(`${tampered}.${signature}`, file)).statusCode).toBe(401)
    const wrongKey = signVisitorToken(Buffer.from('some other key'), channelId).token
    expect((await upload(wrongKey, file)).statusCode).toBe(401)
    const expired = signVisitorToken(t.app.webchat.keys.visitorKey(channelId), channelId, Date.now() - 31 * 86_400_000).token
    const refused = await upload(expired, file)
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ detail: 'Sessão do visitante inválida ou expirada.' })
    const other = await newSession(t.app, otherToken, {})
    expect((await upload(other.token, file)).statusCode).toBe(403)
    expect((await upload(other.token, file, otherToken)).statusCode).toBe(201)
  })
})

describe('the script and the demo page', () => {
  it('serves /widget.js small, compressed, cacheable, revalidated by ETag', async () => {
    const response = await get('/widget.js', { 'accept-encoding': 'gzip' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('javascript')
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(response.headers['cache-control']).toContain('public')
    expect(response.rawPayload.length).toBeLessThan(15 * 1024)
    expect(gunzipSync(response.rawPayload).toString()).toContain('attachShadow')
    const again = await get('/widget.js', { 'if-none-match': String(response.headers.etag) })
    expect(again.statusCode).toBe(304)
  })

  it('serves /widget-demo without a sign-in, embedding the demo channel', async () => {
    const response = await get('/widget-demo', { 'accept-language': 'en-US' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('text/html')
    expect(response.body).toContain(`data-channel="${token}"`)
    expect(response.body).toContain('Aurora Bakery')
  })
})

describe('the embed code', () => {
  it("gives the settings the snippet of a webchat channel of the caller's site; not for a WhatsApp channel, nor to a stranger", async () => {
    const admin = await signedIn(t.app, 'admin')
    const response = await admin.get(`/api/v1/chat/channels/${channelId}/embed/`)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      token,
      script: 'http://localhost/widget.js',
      snippet: `<script src="http://localhost/widget.js" data-channel="${token}" async></script>`,
    })
    const [whatsapp] = await t.database.db.select({ id: chatChannels.id }).from(chatChannels).where(eq(chatChannels.type, 'whatsapp'))
    expect((await admin.get(`/api/v1/chat/channels/${whatsapp!.id}/embed/`)).statusCode).toBe(404)
    expect((await admin.get('/api/v1/chat/channels/99999999999/embed/')).statusCode).toBe(404)
    expect((await get(`/api/v1/chat/channels/${channelId}/embed/`)).statusCode).toBe(401)
  })
})
