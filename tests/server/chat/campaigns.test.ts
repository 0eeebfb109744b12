import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chatCampaignPaths } from '../../../contract/api/chat-campaigns.ts'
import { signatureHeader } from '../../../server/channels/whatsapp/signature.ts'
import { sendCampaignTemplate } from '../../../server/chat/outbound.ts'
import {
  chatCampaignSends,
  chatQueues,
  chatRoomMessages,
  chatRooms,
  chatTemplates,
  chatTemplatesParams,
  serviceChatsCampaigns,
} from '../../../server/db/schema/index.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { demo } from '../call-control-helper.ts'
import { APP_SECRET, createWhatsAppChannel } from '../channels/whatsapp/channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from '../channels/whatsapp/fake-graph.ts'
import { envelope, message, value } from '../channels/whatsapp/payloads.ts'
import { signedIn, TestClient, useTestApp } from '../helper.ts'

// WhatsApp template campaigns (issue 18 item 4; server/chat/campaigns.ts): a campaign's leads each get the approved
// template once, with parameters from their fields, through the outbox to a fake Graph; a restart or a crash between
// the claim and its record sends nobody twice; a lead's reply puts its room in the campaign's chat queue.
// The app's own sender is off: each test runs the rounds (what the one-second timer does) itself.

const t = useTestApp({ overrides: { chatCampaigns: { sender: false } } })
let fake: FakeGraph
let channel: { id: number; siteId: number }
let templateId: number
let queueId: number
let webhook: TestClient

beforeAll(async () => {
  fake = await startFakeGraph()
  channel = await createWhatsAppChannel(t.database.db, { graphUrl: fake.url, accessToken: TOKEN })
  const [tpl] = await t.database.db
    .insert(chatTemplates)
    .values({
      siteId: channel.siteId,
      channelId: channel.id,
      description: 'oferta_junho',
      language: 'pt_BR',
      content: 'Olá {{1}}, sua cidade {{2}} tem oferta',
    })
    .returning({ id: chatTemplates.id })
  templateId = tpl!.id
  await t.database.db.insert(chatTemplatesParams).values([
    { siteId: channel.siteId, templateId, position: 0, name: '1', value: '' },
    { siteId: channel.siteId, templateId, position: 1, name: '2', value: '' },
  ])
  const [queue] = await t.database.db.insert(chatQueues).values({ siteId: channel.siteId, description: 'Campanha WhatsApp' }).returning()
  queueId = queue!.id
  webhook = new TestClient(t.app)
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.sent.length = 0
})

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const v = await read()
    if (ok(v)) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

let phoneSeq = 0
/** A mailing of leads (phones given; '' = none) and a campaign over it, created through the settings API. */
async function campaignWith(phones: string[], fields: Record<string, unknown> = {}) {
  const d = await demo(t.database.db)
  const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
  const leads: { id: number; phone: string; name: string }[] = []
  for (const [i, phone] of phones.entries()) {
    const name = `Lead${++phoneSeq}`
    const id = await d.seed('crm.leads', { mailing, name, surname: 'Souza', phones: phone })
    await t.database.db.execute(`UPDATE crm_leads SET data = '{"Cidade": "Cidade ${i}"}'::jsonb WHERE id = ${id}`)
    leads.push({ id, phone, name })
  }
  const admin = await signedIn(t.app, 'admin')
  const res = await admin.post('/api/v1/service/chats-campaigns/', {
    description: `WhatsApp ${Math.random()}`,
    is_active: true,
    mailings: [mailing],
    channel: channel.id,
    template: templateId,
    queue: queueId,
    params: [
      { name: '1', lead_field: 'name', value: '' },
      { name: '2', lead_field: 'cidade', value: 'sua região' },
    ],
    ...fields,
  })
  expect(res.statusCode, res.body).toBe(201)
  return { campaign: res.json().id as number, leads, admin }
}

const phone = () => `+55119${String(6000_0000 + ++phoneSeq).padStart(8, '0')}`
const digits = (p: string) => p.replace(/\D/g, '')
const sends = (campaign: number) => t.database.db.select().from(chatCampaignSends).where(eq(chatCampaignSends.campaignId, campaign))
const templatesTo = (to: string) => fake.sent.filter((s) => (s as { to?: string; type?: string }).to === to && (s as { type?: string }).type === 'template')

function post(body: unknown) {
  const raw = JSON.stringify(body)
  return webhook.post(`/webhooks/whatsapp/${channel.id}/`, raw, {
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatureHeader(raw, APP_SECRET) },
  })
}

describe('WhatsApp template campaigns', () => {
  it('sends each lead with a phone the template once, with its fields as parameters; progress counts them', async () => {
    const blocked = phone()
    const { campaign, leads, admin } = await campaignWith([phone(), phone(), phone(), '', blocked])
    const d = await demo(t.database.db)
    await d.seed('service.blacklists', { description: 'Não enviar', phones: digits(blocked), direction: 'outbound' })
    // Not started: a round sends nothing.
    expect(await t.app.chatCampaigns.tick()).toBe(0)
    const started = await admin.post(chatCampaignPaths.command(campaign, 'start'))
    expect(started.statusCode).toBe(200)
    expect(started.json()).toMatchObject({ campaign, status: 'running', leads_total: 5, leads_sent: 0, leads_remaining: 5 })
    expect(await t.app.chatCampaigns.tick()).toBe(5)
    await until(
      async () => fake.sent.length,
      (n) => n >= 3,
      'three templates',
    )
    for (const [i, lead] of leads.slice(0, 3).entries()) {
      const sent = templatesTo(digits(lead.phone))
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({
        type: 'template',
        template: {
          name: 'oferta_junho',
          language: { code: 'pt_BR' },
          components: [{ type: 'body', parameters: [{ text: lead.name }, { text: `Cidade ${i}` }] }],
        },
      })
    }
    const rows = await sends(campaign)
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3)
    expect(rows.find((r) => r.leadId === leads[3]!.id)).toMatchObject({ status: 'skipped', reason: 'no_phone' })
    expect(rows.find((r) => r.leadId === leads[4]!.id)).toMatchObject({ status: 'skipped', reason: 'blacklisted' })
    expect(templatesTo(digits(blocked))).toEqual([])
    // The rooms wait for the answer: no agent, the campaign's queue noted, not queued yet.
    const rooms = await t.database.db
      .select()
      .from(chatRooms)
      .where(inArray(chatRooms.id, rows.map((r) => r.roomId!).filter(Boolean)))
    expect(rooms).toHaveLength(3)
    for (const room of rooms) expect(room).toMatchObject({ state: 'new', userId: null, chatType: 11, queueId, awaitingTemplateReply: true })
    const progress = await admin.get(chatCampaignPaths.progress(campaign))
    expect(progress.json()).toEqual({ campaign, status: 'running', leads_total: 5, leads_sent: 3, leads_skipped: 2, leads_replied: 0, leads_remaining: 0 })

    // A restart (another app on the same database) sends nobody again.
    const again = await t.buildVariant({})
    expect(await again.chatCampaigns.tick()).toBe(0)
    expect(await t.app.chatCampaigns.tick()).toBe(0)
    await new Promise((r) => setTimeout(r, 300))
    expect(fake.sent.filter((s) => (s as { type?: string }).type === 'template')).toHaveLength(3)
  })

  it('two instances sending one campaign at once send each lead once', async () => {
    const { campaign, leads, admin } = await campaignWith([phone(), phone(), phone(), phone(), phone(), phone()])
    await admin.post(chatCampaignPaths.command(campaign, 'start'))
    const other = await t.buildVariant({})
    const [a, b] = await Promise.all([t.app.chatCampaigns.tick(), other.chatCampaigns.tick()])
    expect(a + b).toBe(6)
    await until(
      async () => leads.filter((l) => templatesTo(digits(l.phone)).length > 0).length,
      (n) => n === 6,
      'six templates',
    )
    await new Promise((r) => setTimeout(r, 300))
    for (const lead of leads) expect(templatesTo(digits(lead.phone))).toHaveLength(1)
    expect((await sends(campaign)).map((r) => r.status)).toEqual(Array(6).fill('sent'))
  })

  it('a lead claimed before a crash, its template already written, is recorded without a second send', async () => {
    const { campaign, leads, admin } = await campaignWith([phone(), phone()])
    const [crashed] = leads
    // The crashed round: the claim and the template written, the claim's record never made.
    const written = await sendCampaignTemplate(t.app.deps, {
      siteId: channel.siteId,
      channelId: channel.id,
      templateId,
      params: [{ name: '1', value: crashed!.name }],
      phone: crashed!.phone,
      uid: `wacamp-${campaign}-${crashed!.id}`,
      queueId,
    })
    expect(written.ok).toBe(true)
    await t.database.db
      .insert(chatCampaignSends)
      .values({ campaignId: campaign, siteId: channel.siteId, leadId: crashed!.id, status: 'sending', createdAt: new Date(Date.now() - 60_000) })
    await admin.post(chatCampaignPaths.command(campaign, 'start'))
    expect(await t.app.chatCampaigns.tick()).toBe(2)
    const rows = await sends(campaign)
    expect(rows.map((r) => r.status).sort()).toEqual(['sent', 'sent'])
    const messages = await t.database.db
      .select()
      .from(chatRoomMessages)
      .where(
        and(
          eq(chatRoomMessages.siteId, channel.siteId),
          inArray(
            chatRoomMessages.uid,
            leads.map((l) => `wacamp-${campaign}-${l.id}`),
          ),
        ),
      )
    expect(messages).toHaveLength(2)
    await until(
      async () => templatesTo(digits(leads[1]!.phone)).length + templatesTo(digits(crashed!.phone)).length,
      (n) => n >= 2,
      'both templates',
    )
    await new Promise((r) => setTimeout(r, 300))
    expect(templatesTo(digits(crashed!.phone))).toHaveLength(1)
  })

  it('a lead’s reply puts its room in the campaign’s chat queue, once; pause stops the sending', async () => {
    const { campaign, leads, admin } = await campaignWith([phone(), phone()])
    await admin.post(chatCampaignPaths.command(campaign, 'start'))
    expect(await t.app.chatCampaigns.tick()).toBe(2)
    const [first] = leads
    const [sent] = (await sends(campaign)).filter((r) => r.leadId === first!.id)
    for (const text of ['quero sim', 'como funciona?']) {
      const m = message('text', { text: { body: text } }, { from: digits(first!.phone), timestamp: String(Math.floor(Date.now() / 1000)) })
      expect((await post(envelope(value({ messages: [m] })))).statusCode).toBe(200)
    }
    const room = await until(
      async () => (await t.database.db.select().from(chatRooms).where(eq(chatRooms.id, sent!.roomId!)))[0]!,
      (r) => r.lastClientMessageContent === 'como funciona?',
      'both replies in the campaign room',
    )
    expect(['queued', 'offered', 'active']).toContain(room.state)
    expect(room.queueId).toBe(queueId)
    expect(room.awaitingTemplateReply).toBe(false)
    // One room for the customer: the replies continued the campaign's room.
    const open = await t.database.db
      .select()
      .from(chatRooms)
      .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, digits(first!.phone))))
    expect(open).toHaveLength(1)
    const progress = (await admin.get(chatCampaignPaths.progress(campaign))).json()
    expect(progress).toMatchObject({ leads_sent: 2, leads_replied: 1 })

    const paused = await admin.post(chatCampaignPaths.command(campaign, 'pause'))
    expect(paused.json().status).toBe('paused')
    const d = await demo(t.database.db)
    const [mailingRow] = await t.database.db
      .execute(`SELECT mailing_id FROM service_chats_campaigns_mailings WHERE chatcampaign_id = ${campaign}`)
      .then((r) => (r as unknown as { rows: { mailing_id: number }[] }).rows)
    await d.seed('crm.leads', { mailing: mailingRow!.mailing_id, name: 'Tarde', phones: phone() })
    expect(await t.app.chatCampaigns.tick()).toBe(0)
    await admin.post(chatCampaignPaths.command(campaign, 'start'))
    expect(await t.app.chatCampaigns.tick()).toBe(1)
  })

  it('an agent’s template to a lead still waiting takes the campaign’s room; an unanswered room ends after reply_wait_hours', async () => {
    const { campaign, leads, admin } = await campaignWith([phone(), phone()], { reply_wait_hours: 1 })
    await admin.post(chatCampaignPaths.command(campaign, 'start'))
    expect(await t.app.chatCampaigns.tick()).toBe(2)
    const rows = await sends(campaign)
    const [first, second] = leads
    const roomOf = async (leadId: number) => {
      const roomId = rows.find((r) => r.leadId === leadId)!.roomId!
      return (await t.database.db.select().from(chatRooms).where(eq(chatRooms.id, roomId)))[0]!
    }
    const agent = await signedIn(t.app, 'agent1')
    const res = await agent.post('/api/v1/chat/send-template-whatsapp/', {
      phone: first!.phone,
      channel_id: channel.id,
      template_id: templateId,
      params: [{ name: '1', value: 'Ana' }],
    })
    expect(res.statusCode, res.body).toBe(200)
    const taken = await roomOf(first!.id)
    expect(res.json().room.id).toBe(taken.id)
    expect(taken).toMatchObject({ state: 'active', userId: expect.any(Number) })

    // Two hours later nobody answered the second lead: its room ends, and its later reply opens an inbound room.
    await t.database.db
      .update(chatRooms)
      .set({ startedAt: new Date(Date.now() - 2 * 3600_000) })
      .where(inArray(chatRooms.id, [taken.id, (await roomOf(second!.id)).id]))
    await t.app.chatCampaigns.tick()
    expect(await roomOf(second!.id)).toMatchObject({ state: 'ended', endedBy: 'timeout' })
    expect((await roomOf(first!.id)).state).toBe('active')
    const m = message('text', { text: { body: 'oi, vi agora' } }, { from: digits(second!.phone), timestamp: String(Math.floor(Date.now() / 1000)) })
    expect((await post(envelope(value({ messages: [m] })))).statusCode).toBe(200)
    const fresh = await until(
      () =>
        t.database.db
          .select()
          .from(chatRooms)
          .where(and(eq(chatRooms.channelId, channel.id), eq(chatRooms.contact, digits(second!.phone)))),
      (r) => r.length === 2,
      'a new room',
    )
    expect(fresh.find((r) => r.id !== rows.find((x) => x.leadId === second!.id)!.roomId)).toMatchObject({ chatType: 20 })
  })

  it('bad input → 400, another site’s campaign → 404, an agent → 403', async () => {
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.post('/api/v1/service/chats-campaigns/abc/start/')).statusCode).toBe(400)
    expect((await admin.get('/api/v1/service/chats-campaigns/abc/progress/')).statusCode).toBe(400)
    expect((await admin.post(chatCampaignPaths.command(999_999, 'start'))).statusCode).toBe(404)
    const missing = await admin.post('/api/v1/service/chats-campaigns/', { description: 'sem template', channel: channel.id, queue: queueId })
    expect(missing.statusCode).toBe(400)
    expect(Object.keys(missing.json())).toEqual(expect.arrayContaining(['template', 'mailings']))
    const other = await createSite(t.database.db, { domain: 'wacamp-other.test', name: 'Other' })
    const [foreign] = await t.database.db
      .insert(serviceChatsCampaigns)
      .values({ siteId: other.id, description: 'alheia', channelId: channel.id, templateId, queueId })
      .returning({ id: serviceChatsCampaigns.id })
    expect((await admin.post(chatCampaignPaths.command(foreign!.id, 'start'))).statusCode).toBe(404)
    expect((await admin.get(chatCampaignPaths.progress(foreign!.id))).statusCode).toBe(404)
    const agent1 = await signedIn(t.app, 'agent1')
    expect((await agent1.post(chatCampaignPaths.command(foreign!.id, 'start'))).statusCode).toBe(403)
  })
})
