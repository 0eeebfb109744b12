import { beforeAll, describe, expect, it } from 'vitest'
import { count } from 'drizzle-orm'
import { chatWebhookEvents } from '../../../../server/db/schema/index.ts'
import { signatureHeader } from '../../../../server/channels/whatsapp/signature.ts'
import { ALL_MODULES_ON, MODULES_PATH } from '../../../../contract/modules.ts'
import { TestClient, signedIn, useTestApp } from '../../helper.ts'
import { APP_SECRET, createWhatsAppChannel, VERIFY_TOKEN } from './channel-fixture.ts'
import { envelope, everyType, value } from './payloads.ts'

// QUALITY.md tests 1 and 2 through the real app: Meta's GET handshake, and POSTs refused unless signed with the
// channel's app secret over the exact bytes — nothing of a refused POST is stored.

const t = useTestApp()
let channel: { id: number; siteId: number }
let client: TestClient
const url = () => `/webhooks/whatsapp/${channel.id}/`

beforeAll(async () => {
  channel = await createWhatsAppChannel(t.database.db)
  client = new TestClient(t.app)
})

async function storedEvents(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(chatWebhookEvents)
  return row.n
}

describe('webhook verification (GET)', () => {
  it('echoes the raw challenge with 200 for the right token', async () => {
    const res = await client.get(`${url()}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`)
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('1158201444')
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
  })

  it('answers 403 for a wrong token, a wrong mode, a missing challenge, an unknown channel', async () => {
    for (const path of [
      `${url()}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
      `${url()}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}x&hub.challenge=1`,
      `${url()}?hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      `${url()}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`,
      `/webhooks/whatsapp/999999/?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
    ]) {
      const res = await client.get(path)
      expect(res.statusCode, path).toBe(403)
      expect(res.body).not.toContain('1158201444')
    }
  })

  it('a channel id that is not a number is 404', async () => {
    expect((await client.get('/webhooks/whatsapp/abc/?hub.mode=subscribe')).statusCode).toBe(404)
  })
})

describe('webhook signature (POST)', () => {
  const body = JSON.stringify(envelope(value({ messages: [everyType().text] })))

  it('refuses missing, invalid, tampered and wrong-secret signatures with 401 and stores nothing', async () => {
    const before = await storedEvents()
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, body],
      ['invalid', { 'x-hub-signature-256': 'sha256=' + 'ab'.repeat(32) }, body],
      ['malformed', { 'x-hub-signature-256': 'not-a-signature' }, body],
      ['tampered', { 'x-hub-signature-256': signatureHeader(body, APP_SECRET) }, body.replace('another color', 'another colour')],
      ['wrong secret', { 'x-hub-signature-256': signatureHeader(body, 'someone-elses-secret') }, body],
    ]
    for (const [name, headers, payload] of cases) {
      const res = await client.post(url(), payload, { headers: { 'content-type': 'application/json', ...headers } })
      expect(res.statusCode, name).toBe(401)
      expect(res.json(), name).toHaveProperty('detail')
    }
    expect(await storedEvents()).toBe(before)
  })

  it('refuses a valid signature sent to another channel’s URL or to an unknown channel', async () => {
    const other = await createWhatsAppChannel(t.database.db, { phoneNumberId: '777', appSecret: 'the-other-apps-secret' })
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signatureHeader(body, APP_SECRET) }
    expect((await client.post(`/webhooks/whatsapp/${other.id}/`, body, { headers })).statusCode).toBe(401)
    expect((await client.post('/webhooks/whatsapp/999999/', body, { headers })).statusCode).toBe(401)
  })
})

describe('a site with its chat module off', () => {
  const body = JSON.stringify(envelope(value({ messages: [everyType().text] })))
  const signed = { 'content-type': 'application/json', 'x-hub-signature-256': signatureHeader(body, APP_SECRET) }
  const handshake = () => client.get(`${url()}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=42`)

  it("refuses Meta's handshake and signed deliveries with 403 and stores nothing, until chat is back on", async () => {
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.put(`/api${MODULES_PATH}`, { ...ALL_MODULES_ON, chat: false })).statusCode).toBe(200)
    try {
      const before = await storedEvents()
      const refused = await handshake()
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual({ detail: 'Este módulo está desativado neste site.' })
      const post = await client.post(url(), body, { headers: signed })
      expect(post.statusCode).toBe(403)
      expect(post.body).not.toContain('EVENT_RECEIVED')
      // Who cannot sign learns nothing more than before.
      expect((await client.post(url(), body, { headers: { 'content-type': 'application/json' } })).statusCode).toBe(401)
      expect(await storedEvents()).toBe(before)
    } finally {
      expect((await admin.put(`/api${MODULES_PATH}`, ALL_MODULES_ON)).statusCode).toBe(200)
    }
    expect((await handshake()).body).toBe('42')
    const before = await storedEvents()
    expect((await client.post(url(), body, { headers: signed })).statusCode).toBe(200)
    expect(await storedEvents()).toBe(before + 1)
  })
})
