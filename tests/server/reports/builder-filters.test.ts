import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BuilderFilterChoices, BuilderPage, BuilderResult } from '../../../contract/api/builder.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import {
  activities,
  callRecords,
  chatQueues,
  chatRooms,
  crmLeads,
  crmMailings,
  pabxQueues,
  serviceClassifications,
  serviceShipmentsCampaigns,
  serviceShipmentsCampaignsMailings,
} from '../../../server/db/schema/index.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { demo } from '../call-control-helper.ts'
import { channel, message, room } from '../chat/chat-fixtures.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'

// The builder's campaign, classification and chat queue filters (issue 19 items 3/4): on a stored query (the query
// preview), and from the viewer's filter bar on a page — against hand-counted rows of the last hour, ids of another
// site refused, and another site's campaign never counting this site's rows.

const t = useTestApp()
let admin: TestClient
let other: TestClient
let f: {
  campaign: number
  clA: number
  clB: number
  cqA: number
  cqB: number
  support: number
  otherCampaign: number
  otherQueue: number
  page: number
  callsWidget: number
  chatsWidget: number
  leadsWidget: number
}

const run = async (client: TestClient, query: Record<string, unknown>): Promise<BuilderResult> => {
  const response = await client.post('/api/v1/builder/query/', { query: { period: 'last_7_days', measure: 'count', group_by: 'none', ...query }, tz: 'UTC' })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as BuilderResult
}
const total = async (query: Record<string, unknown>) => (await run(admin, query)).total

async function created(client: TestClient, path: string, body: Record<string, unknown>): Promise<number> {
  const response = await client.post(path, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id as number
}

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  const site = d.site.id
  admin = await signedIn(t.app, 'admin')
  const [clA, clB] = await db
    .insert(serviceClassifications)
    .values([
      { siteId: site, description: 'Venda' },
      { siteId: site, description: 'Dúvida' },
    ])
    .returning()
  const [cqA, cqB] = await db
    .insert(chatQueues)
    .values([
      { siteId: site, description: 'Chat Suporte' },
      { siteId: site, description: 'Chat Vendas' },
    ])
    .returning()
  // A campaign with mailing M1; M2 is in no campaign. Lead L1 in M1, L2 in M2 (both created now: the leads dataset).
  const [campaign] = await db.insert(serviceShipmentsCampaigns).values({ siteId: site, description: 'Campanha Filtros', queueId: d.support.id }).returning()
  const [m1, m2] = await db
    .insert(crmMailings)
    .values([
      { siteId: site, description: 'M1' },
      { siteId: site, description: 'M2' },
    ])
    .returning()
  await db.insert(serviceShipmentsCampaignsMailings).values({ siteId: site, campaignId: campaign!.id, mailingId: m1!.id })
  const [l1, l2] = await db
    .insert(crmLeads)
    .values([
      { siteId: site, mailingId: m1!.id, name: 'L1', phones: '1', status: 'pending', attempts: 1 },
      { siteId: site, mailingId: m2!.id, name: 'L2', phones: '2', status: 'pending', attempts: 0 },
    ])
    .returning()

  // Three calls an hour ago (one step each): c1 to L1 classified Venda, c2 to L2 classified Dúvida, c3 no lead Venda.
  const startedAt = new Date(Date.now() - 3_600_000)
  const call = (leadId: number | null, classificationId: number) => ({
    siteId: site,
    callId: `bfilters-${randomUUID()}`,
    step: 1,
    uid: randomUUID(),
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    decision: { action: 'relay' },
    queueId: d.support.id,
    userId: d.agent1.id,
    leadId,
    classification: { classification_id: classificationId },
    queueStartedAt: startedAt,
    startedAt,
    answeredAt: new Date(startedAt.getTime() + 5_000),
    endedAt: new Date(startedAt.getTime() + 35_000),
    answeredDuration: 30,
    totalDuration: 35,
  })
  await db.insert(callRecords).values([call(l1!.id, clA!.id), call(l2!.id, clB!.id), call(null, clA!.id)])

  // Three chats: r1 Chat Suporte classified Venda (2 messages), r2 Chat Suporte unclassified (1), r3 Chat Vendas Dúvida (1).
  const channelId = await channel(db, site)
  const chat = async (queueId: number, classificationId: number | null, messages: number) => {
    const row = await room(db, { siteId: site, channelId, userId: d.agent1.id, state: 'ended' })
    await db
      .update(chatRooms)
      .set({ queueId, classification: classificationId ? { classification_id: classificationId } : null })
      .where(eq(chatRooms.id, row.id))
    for (let i = 0; i < messages; i++) await message(db, row)
  }
  await chat(cqA!.id, clA!.id, 2)
  await chat(cqA!.id, null, 1)
  await chat(cqB!.id, clB!.id, 1)

  // Activities an hour ago: one on M1 (the campaign's), one on M2, one with no mailing.
  await db.insert(activities).values([
    { siteId: site, userId: d.agent1.id, start: startedAt, mailingId: m1!.id, destination: '1' },
    { siteId: site, userId: d.agent1.id, start: startedAt, mailingId: m2!.id, destination: '2' },
    { siteId: site, userId: d.agent1.id, start: startedAt, destination: '3' },
  ])

  // Another site: its campaign linked (by a row of its own site) to this site's M1, and a queue of its own.
  const site2 = await createSite(db, { domain: 'outra-bfilters.example', name: 'Outra' })
  const group = await createGroup(db, site2.id, 'Admin', [PERMISSIONS.viewReports, 'builder.view_query' as never])
  await createUser(db, { siteId: site2.id, username: 'chefe2', password: 'outra2025x', groupIds: [group] })
  const [pq2] = await db.insert(pabxQueues).values({ siteId: site2.id, description: 'Fila da outra' }).returning()
  const [c2] = await db.insert(serviceShipmentsCampaigns).values({ siteId: site2.id, description: 'Campanha da outra', queueId: pq2!.id }).returning()
  await db.insert(serviceShipmentsCampaignsMailings).values({ siteId: site2.id, campaignId: c2!.id, mailingId: m1!.id })
  const [q2] = await db.insert(chatQueues).values({ siteId: site2.id, description: 'Chat da outra' }).returning()
  other = new TestClient(t.app, { host: 'outra-bfilters.example' })
  expect((await other.login('chefe2', 'outra2025x')).statusCode).toBe(200)

  // A page: calls, chats and leads widgets, none with a filter of its own.
  const widget = async (description: string, dataset: string) => {
    const query = await created(admin, '/api/v1/builder/queries/', { description, dataset, period: 'last_7_days', measure: 'count', group_by: 'none' })
    return created(admin, '/api/v1/builder/widgets/', { description, type: 'number', query })
  }
  const callsWidget = await widget('Chamadas', 'calls')
  const chatsWidget = await widget('Chats', 'chats')
  const leadsWidget = await widget('Leads', 'leads')
  const page = await created(admin, '/api/v1/builder/report-pages/', {
    description: 'Filtros novos',
    is_active: true,
    position: 0,
    permission: PERMISSIONS.viewReports,
    refresh: 0,
    widgets: [callsWidget, chatsWidget, leadsWidget].map((w) => ({ widget: w, width: 4, height: 1 })),
  })
  f = {
    campaign: campaign!.id,
    clA: clA!.id,
    clB: clB!.id,
    cqA: cqA!.id,
    cqB: cqB!.id,
    support: d.support.id,
    otherCampaign: c2!.id,
    otherQueue: q2!.id,
    page,
    callsWidget,
    chatsWidget,
    leadsWidget,
  }
})

describe('a query’s campaign, classification and chat queue', () => {
  it('calls and steps: campaign = the lead is in one of its mailings; classification', async () => {
    for (const dataset of ['calls', 'steps']) {
      expect(await total({ dataset }), dataset).toBe(3)
      expect(await total({ dataset, campaign: f.campaign }), dataset).toBe(1)
      expect(await total({ dataset, classification: f.clA }), dataset).toBe(2)
      expect(await total({ dataset, classification: f.clB }), dataset).toBe(1)
      expect(await total({ dataset, campaign: f.campaign, classification: f.clB }), dataset).toBe(0)
    }
  })

  it('chats by chat queue and classification, messages by their room’s chat queue', async () => {
    expect(await total({ dataset: 'chats' })).toBe(3)
    expect(await total({ dataset: 'chats', chat_queue: f.cqA })).toBe(2)
    expect(await total({ dataset: 'chats', chat_queue: f.cqB })).toBe(1)
    expect(await total({ dataset: 'chats', classification: f.clA })).toBe(1)
    expect(await total({ dataset: 'chats', chat_queue: f.cqA, classification: f.clB })).toBe(0)
    expect(await total({ dataset: 'messages' })).toBe(4)
    expect(await total({ dataset: 'messages', chat_queue: f.cqA })).toBe(3)
    expect(await total({ dataset: 'messages', chat_queue: f.cqB })).toBe(1)
  })

  it('leads and activities by campaign (their mailing is one of the campaign’s)', async () => {
    expect(await total({ dataset: 'leads' })).toBe(2)
    expect(await total({ dataset: 'leads', campaign: f.campaign })).toBe(1)
    expect(await total({ dataset: 'activities' })).toBe(3)
    expect(await total({ dataset: 'activities', campaign: f.campaign })).toBe(1)
  })

  it('is stored with the query (chat_queue too) and applied on the page', async () => {
    const query = await created(admin, '/api/v1/builder/queries/', {
      description: 'Chats do Chat Vendas',
      dataset: 'chats',
      period: 'last_7_days',
      measure: 'count',
      group_by: 'none',
      chat_queue: f.cqB,
    })
    const stored = await admin.get(`/api/v1/builder/queries/${query}/`)
    expect(stored.json()).toMatchObject({ chat_queue: f.cqB })
    const widget = await created(admin, '/api/v1/builder/widgets/', { description: 'Chat Vendas', type: 'number', query })
    const page = await created(admin, '/api/v1/builder/report-pages/', {
      description: 'Chat Vendas',
      is_active: true,
      position: 0,
      permission: PERMISSIONS.viewReports,
      refresh: 0,
      widgets: [{ widget, width: 4, height: 1 }],
    })
    const answer = (await admin.get(`/api/v1/builder/pages/reports/${page}/?tz=UTC`)).json() as BuilderPage
    expect(answer.widgets[0]!.result!.total).toBe(1)
    expect(answer.filters.fields).toEqual(['team', 'agent', 'chat_queue', 'classification'])
    // The viewer's chat queue replaces the stored one.
    expect(((await admin.get(`/api/v1/builder/pages/reports/${page}/?tz=UTC&chat_queue=${f.cqA}`)).json() as BuilderPage).widgets[0]!.result!.total).toBe(2)
  })

  it('refuses a filter the dataset cannot take, malformed values and ids that are not the site’s (400, field errors)', async () => {
    const bad = async (query: Record<string, unknown>, field: string) => {
      const response = await admin.post('/api/v1/builder/query/', { query: { period: 'today', ...query }, tz: 'UTC' })
      expect(response.statusCode, JSON.stringify(query)).toBe(400)
      expect(Object.keys(response.json()), JSON.stringify(query)).toEqual([field])
    }
    await bad({ dataset: 'calls', chat_queue: f.cqA }, 'chat_queue')
    await bad({ dataset: 'chats', campaign: f.campaign }, 'campaign')
    await bad({ dataset: 'chats', queue: f.support }, 'queue')
    await bad({ dataset: 'pauses', classification: f.clA }, 'classification')
    // Malformed values fail the body's schema (the field's path in the body).
    await bad({ dataset: 'calls', campaign: 'x' }, 'query.campaign')
    await bad({ dataset: 'calls', classification: 0 }, 'query.classification')
    await bad({ dataset: 'chats', chat_queue: -1 }, 'query.chat_queue')
    await bad({ dataset: 'calls', campaign: f.otherCampaign }, 'campaign')
    await bad({ dataset: 'chats', chat_queue: f.otherQueue }, 'chat_queue')
    await bad({ dataset: 'calls', classification: 999_999 }, 'classification')
    // The settings form refuses another site's chat queue too.
    const form = await admin.post('/api/v1/builder/queries/', {
      description: 'x',
      dataset: 'chats',
      period: 'today',
      measure: 'count',
      group_by: 'none',
      chat_queue: f.otherQueue,
    })
    expect(form.statusCode).toBe(400)
  })

  it('another site’s campaign never counts this site’s calls, leads or activities', async () => {
    // Its campaign is linked (by its own row) to this site's mailing M1: it still reads its own site's rows only.
    for (const dataset of ['calls', 'steps', 'leads', 'activities'])
      expect(await (await run(other, { dataset, campaign: f.otherCampaign })).total, dataset).toBe(0)
  })
})

describe('the viewer’s filter bar', () => {
  const page = async (query = '') => {
    const response = await admin.get(`/api/v1/builder/pages/reports/${f.page}/?tz=UTC${query}`)
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as BuilderPage
  }
  const totals = (p: BuilderPage) => p.widgets.map((w) => w.result?.total ?? w.error)

  it('offers campaign, classification and chat queue when a query takes them, each applied where its dataset can', async () => {
    const plain = await page()
    expect(plain.filters).toEqual({ period: true, fields: ['team', 'agent', 'queue', 'chat_queue', 'campaign', 'classification'] })
    // Widgets: calls, chats, leads.
    expect(totals(plain)).toEqual([3, 3, 2])
    // Campaign: calls and leads take it; chats keep theirs.
    expect(totals(await page(`&campaign=${f.campaign}`))).toEqual([1, 3, 1])
    // Classification: calls and chats; leads keep theirs.
    expect(totals(await page(`&classification=${f.clA}`))).toEqual([2, 1, 2])
    // Chat queue: chats only.
    expect(totals(await page(`&chat_queue=${f.cqB}`))).toEqual([3, 1, 2])
    expect(totals(await page(`&campaign=${f.campaign}&classification=${f.clB}&chat_queue=${f.cqB}`))).toEqual([0, 1, 1])
  })

  it('lists the choices: the site’s chat queues, campaigns and classifications only', async () => {
    const choices = (await admin.get('/api/v1/builder/filters/')).json() as BuilderFilterChoices
    const ids = (list: { id: number }[]) => list.map((c) => c.id)
    expect(ids(choices.chat_queue)).toEqual(expect.arrayContaining([f.cqA, f.cqB]))
    expect(ids(choices.chat_queue)).not.toContain(f.otherQueue)
    expect(ids(choices.campaign)).toEqual(expect.arrayContaining([f.campaign]))
    expect(ids(choices.campaign)).not.toContain(f.otherCampaign)
    expect(ids(choices.classification)).toEqual(expect.arrayContaining([f.clA, f.clB]))
  })

  it('answers 400 with the field for malformed values and for ids of another site', async () => {
    for (const bad of [
      'campaign=abc',
      'classification=0',
      'chat_queue=-1',
      `campaign=${f.otherCampaign}`,
      `chat_queue=${f.otherQueue}`,
      'classification=999999',
    ]) {
      const response = await admin.get(`/api/v1/builder/pages/reports/${f.page}/?tz=UTC&${bad}`)
      expect(response.statusCode, bad).toBe(400)
      expect(Object.keys(response.json()), bad).toEqual([bad.split('=')[0]])
    }
  })
})
