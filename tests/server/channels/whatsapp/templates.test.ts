import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatRooms, chatTemplates, chatTemplatesParams, chatTemplatesTeams, teams } from '../../../../server/db/schema/index.ts'
import { mapTemplate, placeholders, syncTemplates } from '../../../../server/channels/whatsapp/templates.ts'
import { signedIn, useTestApp } from '../../helper.ts'
import { createWhatsAppChannel } from './channel-fixture.ts'
import { startFakeGraph, TOKEN, type FakeGraph } from './fake-graph.ts'

// Templates copied from the WABA into the templates entity, and the agents' template calls (spec 001 §7).

const t = useTestApp()
let fake: FakeGraph
let channel: { id: number; siteId: number }

const wabaTemplate = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id: String(id),
  name,
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} está a caminho.' }],
  ...extra,
})

beforeAll(async () => {
  fake = await startFakeGraph()
  channel = await createWhatsAppChannel(t.database.db, { graphUrl: fake.url, accessToken: TOKEN })
  fake.templates.push(
    wabaTemplate(1, 'order_update'),
    wabaTemplate(2, 'promo', {
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Oferta para {{nome}}' },
      ],
    }),
    wabaTemplate(3, 'pending_review', { status: 'PENDING' }),
    wabaTemplate(4, 'invoice_pdf', {
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Sua fatura' },
      ],
    }),
    wabaTemplate(5, 'welcome_en', { language: 'en', components: [{ type: 'BODY', text: 'Welcome!' }] }),
  )
})
afterAll(() => fake.close())

async function rowsOf(name: string) {
  return t.database.db
    .select()
    .from(chatTemplates)
    .where(and(eq(chatTemplates.channelId, channel.id), eq(chatTemplates.description, name)))
}

describe('template sync', () => {
  it('finds the placeholders of a text in order', () => {
    expect(placeholders('{{1}} e {{2}}, de novo {{1}}; {{ nome }}')).toEqual(['1', '2', 'nome'])
  })

  it('puts a text header first, its placeholder renamed {{header}} (Meta numbers it apart from the body’s); a URL button’s suffix is a parameter', () => {
    const mapped = mapTemplate({
      id: '7',
      name: 'shipped',
      language: 'pt_BR',
      status: 'APPROVED',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
        { type: 'BODY', text: 'Olá {{1}}, chega {{2}}.' },
        { type: 'FOOTER', text: 'Loja' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Ok' },
            { type: 'URL', text: 'Acompanhar', url: 'https://example.com/p/{{1}}' },
          ],
        },
      ],
    })
    expect(mapped).toMatchObject({ content: 'Pedido {{header}}\n\nOlá {{1}}, chega {{2}}.', params: ['header', '1', '2', 'button1'], templateType: 'TEXT' })
  })

  it('copies approved templates with their body, header type and parameters; skips what we cannot send', async () => {
    const result = await syncTemplates(t.app.deps, channel.id)
    expect(result).toEqual({ created: 4, updated: 0, skipped: 1 })
    const [order] = await rowsOf('order_update')
    expect(order).toMatchObject({
      language: 'pt_BR',
      category: 'UTILITY',
      templateType: 'TEXT',
      isActive: true,
      content: 'Olá {{1}}, seu pedido {{2}} está a caminho.',
    })
    const params = await t.database.db
      .select()
      .from(chatTemplatesParams)
      .where(eq(chatTemplatesParams.templateId, order.id))
      .orderBy(asc(chatTemplatesParams.position))
    expect(params.map((p) => p.name)).toEqual(['1', '2'])
    expect((await rowsOf('promo'))[0]).toMatchObject({ templateType: 'IMAGE', category: 'MARKETING' })
    expect((await rowsOf('pending_review'))[0]).toMatchObject({ isActive: false })
    expect((await rowsOf('welcome_en'))[0]).toMatchObject({ language: 'en_US' })
    expect(await rowsOf('invoice_pdf')).toEqual([])
  })

  it('a second sync updates in place and keeps the defaults an admin typed', async () => {
    const [order] = await rowsOf('order_update')
    await t.database.db
      .update(chatTemplatesParams)
      .set({ value: 'cliente' })
      .where(and(eq(chatTemplatesParams.templateId, order.id), eq(chatTemplatesParams.name, '1')))
    ;(fake.templates[2] as { status: string }).status = 'APPROVED'
    expect(await syncTemplates(t.app.deps, channel.id)).toEqual({ created: 0, updated: 4, skipped: 1 })
    expect(await rowsOf('order_update')).toHaveLength(1)
    expect((await rowsOf('pending_review'))[0].isActive).toBe(true)
    const params = await t.database.db
      .select()
      .from(chatTemplatesParams)
      .where(eq(chatTemplatesParams.templateId, order.id))
      .orderBy(asc(chatTemplatesParams.position))
    expect(params.map((p) => [p.name, p.value])).toEqual([
      ['1', 'cliente'],
      ['2', ''],
    ])
  })
})

describe('template sync on save', () => {
  it('a WhatsApp channel saved in the settings fetches its templates', async () => {
    const admin = await signedIn(t.app, 'admin')
    const res = await admin.post('/api/v1/chat/channels/', {
      description: 'WhatsApp vendas',
      type: 'whatsapp',
      phone_number: '+5511955550001',
      phone_number_id: '5550001',
      waba_id: '9990001',
      access_token: TOKEN,
      app_secret: 's',
      verify_token: 'v',
      graph_url: fake.url,
    })
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json().id as number
    const synced = async () => t.database.db.select({ name: chatTemplates.description }).from(chatTemplates).where(eq(chatTemplates.channelId, id))
    const deadline = Date.now() + 20_000
    while ((await synced()).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect((await synced()).map((r) => r.name).sort()).toEqual(['order_update', 'pending_review', 'promo', 'welcome_en'])
  })
})

describe('agents’ template calls', () => {
  it('GET /api/v1/chat/templates lists the channel’s active templates with content and params', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const res = await agent.get(`/api/v1/chat/templates?channel=${channel.id}`)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.results.map((r: { description: string }) => r.description)).toEqual(['order_update', 'pending_review', 'promo', 'welcome_en'])
    expect(body.results[0]).toMatchObject({
      channel: channel.id,
      template_type: 'TEXT',
      media: null,
      params: [
        { name: '1', value: 'cliente' },
        { name: '2', value: '' },
      ],
    })
  })

  it('templates offered to other teams are hidden unless ignore-team=true', async () => {
    const [promo] = await rowsOf('promo')
    const [other] = await t.database.db.insert(teams).values({ siteId: channel.siteId, name: 'Outra equipe' }).returning({ id: teams.id })
    await t.database.db.insert(chatTemplatesTeams).values({ siteId: channel.siteId, templateId: promo.id, teamId: other.id })
    const agent = await signedIn(t.app, 'agent1')
    const names = async (q: string) =>
      (await agent.get(`/api/v1/chat/templates?channel=${channel.id}${q}`)).json().results.map((r: { description: string }) => r.description)
    expect(await names('')).not.toContain('promo')
    expect(await names('&ignore-team=true')).toContain('promo')
  })

  it('GET /api/v1/chat/templates/{id} answers one template; an unknown id is 404; bad input 400', async () => {
    const [order] = await rowsOf('order_update')
    const agent = await signedIn(t.app, 'agent1')
    const res = await agent.get(`/api/v1/chat/templates/${order.id}`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: order.id, content: 'Olá {{1}}, seu pedido {{2}} está a caminho.', params: [{ name: '1' }, { name: '2' }] })
    expect((await agent.get('/api/v1/chat/templates/999999')).statusCode).toBe(404)
    expect((await agent.get('/api/v1/chat/templates/abc')).statusCode).toBe(400)
    expect((await agent.get(`/api/v1/chat/templates?channel=x`)).statusCode).toBe(400)
  })

  it('GET /api/v1/chat/templates/{id}/ (the spec’s path, shared with the settings catalogue) answers each audience', async () => {
    // A template with a name parameter the room's customer fills.
    const [greet] = await t.database.db
      .insert(chatTemplates)
      .values({ siteId: channel.siteId, channelId: channel.id, description: 'greet_name', language: 'pt_BR', content: 'Olá {{nome}}!' })
      .returning()
    await t.database.db.insert(chatTemplatesParams).values({ siteId: channel.siteId, templateId: greet.id, position: 0, name: 'nome', value: '' })
    const [room] = await t.database.db
      .insert(chatRooms)
      .values({ uid: randomUUID(), siteId: channel.siteId, channelId: channel.id, contact: '5511987650000', address: '5511987650000', title: 'Joana Prado' })
      .returning({ id: chatRooms.id })

    // The agent (sites.view_chat, not chat.view_template): the spec's answer, with the customer's name filled.
    const agent = await signedIn(t.app, 'agent1')
    const dialog = await agent.get(`/api/v1/chat/templates/${greet.id}/?step_id=${room.id}`)
    expect(dialog.statusCode).toBe(200)
    expect(dialog.json()).toEqual({
      id: greet.id,
      description: 'greet_name',
      channel: channel.id,
      language: 'pt_BR',
      template_type: 'TEXT',
      media: null,
      content: 'Olá {{nome}}!',
      params: [{ name: 'nome', value: 'Joana Prado' }],
    })
    expect((await agent.get(`/api/v1/chat/templates/${greet.id}/`)).json().params).toEqual([{ name: 'nome', value: '' }])
    // The agent may not change it: the entity's other methods keep their codenames.
    expect((await agent.request('DELETE', `/api/v1/chat/templates/${greet.id}/`)).statusCode).toBe(403)

    // The administrator (chat.view_template): the settings record, whose spec fields say the same.
    const admin = await signedIn(t.app, 'admin')
    const record = await admin.get(`/api/v1/chat/templates/${greet.id}/`)
    expect(record.statusCode).toBe(200)
    expect(record.json()).toMatchObject({
      id: greet.id,
      is_active: true,
      category: 'UTILITY',
      channel: channel.id,
      template_type: 'TEXT',
      content: 'Olá {{nome}}!',
      params: [expect.objectContaining({ name: 'nome', value: '' })],
    })
    expect(record.json()).toHaveProperty('created_at')
    // …and the spec's answer when naming a room, as the dialog does.
    expect((await admin.get(`/api/v1/chat/templates/${greet.id}/?step_id=${room.id}`)).json().params).toEqual([{ name: 'nome', value: 'Joana Prado' }])

    // An inactive template: not offered to the dialog (404), still in the catalogue.
    await t.database.db.update(chatTemplates).set({ isActive: false }).where(eq(chatTemplates.id, greet.id))
    expect((await agent.get(`/api/v1/chat/templates/${greet.id}/`)).statusCode).toBe(404)
    expect((await admin.get(`/api/v1/chat/templates/${greet.id}/`)).json()).toMatchObject({ is_active: false })
    expect((await agent.get('/api/v1/chat/templates/999999/')).statusCode).toBe(404)
    expect((await agent.get(`/api/v1/chat/templates/${greet.id}/?step_id=abc`)).statusCode).toBe(400)
  })

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/chat/templates', headers: { host: 'localhost' } })
    expect(res.statusCode).toBe(401)
  })
})
