import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportPage } from '../../../contract/api/reports.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import {
  agentStatusEvents,
  callRecords,
  chatNpsSurveys,
  chatRooms,
  crmLeads,
  crmMailings,
  dialerLeadStates,
  pabxQueues,
  pauseReports,
  serviceShipmentsCampaigns,
  serviceShipmentsCampaignsMailings,
  telephonyNpsAnswers,
} from '../../../server/db/schema/index.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { demo } from '../call-control-helper.ts'
import { channel } from '../chat/chat-fixtures.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'

// The NPS, KPI, agent status timeline and dialer results reports against hand-counted fixtures: 3 March 2025 in São
// Paulo (UTC-3: from 03:00 UTC on the 3rd to 03:00 UTC on the 4th), with events just before and after both midnights,
// another site's rows that must never show, and the permission.

const t = useTestApp()
const at = (iso: string) => new Date(iso)
const SP = 'tz=America/Sao_Paulo'
const DAY = `${SP}&date_from=2025-03-03&date_to=2025-03-03`
let ids: { a1: number; a2: number; support: number; sales: number; campaign: number; siteId: number }
let other: TestClient

async function report(id: string, extra = '', period = DAY): Promise<ReportPage> {
  const client = await signedIn(t.app, 'supervisor')
  const res = await client.get(`/api/v1/report/pages/${id}/?${period}${extra}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ReportPage
}
const totals = (r: ReportPage) => Object.fromEntries(r.totals.map((x) => [x.key, x.value]))

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  const a1 = d.agent1.id
  const a2 = d.agent2.id
  const site = d.site.id
  await db.update(pabxQueues).set({ serviceLevel: 20 }).where(eq(pabxQueues.siteId, site))

  // ---- NPS: keypad answers (two questions of one call) and chat surveys (0–10 and 1–5 scales).
  await db.insert(telephonyNpsAnswers).values([
    { siteId: site, callId: 'nps-1', userId: a1, queueId: d.support.id, question: 0, scale: '0-10', score: 10, answeredAt: at('2025-03-03T13:05:00Z') },
    { siteId: site, callId: 'nps-1', userId: a1, queueId: d.support.id, question: 1, scale: '0-10', score: 6, answeredAt: at('2025-03-03T13:05:10Z') },
    { siteId: site, callId: 'nps-2', userId: a2, queueId: d.sales.id, question: 0, scale: '0-10', score: 8, answeredAt: at('2025-03-03T15:10:00Z') },
    // 23:59 local: the 3rd's; 00:10 local on the 4th: not.
    { siteId: site, callId: 'nps-4', userId: a2, queueId: d.support.id, question: 0, scale: '0-10', score: 9, answeredAt: at('2025-03-04T02:59:00Z') },
    { siteId: site, callId: 'nps-3', userId: a1, queueId: d.support.id, question: 0, scale: '0-10', score: 0, answeredAt: at('2025-03-04T03:10:00Z') },
  ])
  const channelId = await channel(db, site)
  const room = async (userId: number) => {
    const contact = `5511${Math.floor(Math.random() * 1e9)}`
    const [row] = await db
      .insert(chatRooms)
      .values({
        uid: randomUUID(),
        siteId: site,
        channelId,
        contact,
        address: contact,
        phone: contact,
        title: 'Cliente',
        userId,
        state: 'ended',
        startedAt: at('2025-03-03T14:00:00Z'),
      })
      .returning()
    return row!
  }
  const r1 = await room(a1)
  const r2 = await room(a2)
  await db.insert(chatNpsSurveys).values([
    {
      siteId: site,
      roomId: r1.id,
      channelId,
      contact: r1.contact,
      userId: a1,
      scale: '1-5',
      state: 'answered',
      score: 5,
      comment: 'Ótimo',
      sentAt: at('2025-03-03T14:20:00Z'),
      expiresAt: at('2025-03-03T15:20:00Z'),
      answeredAt: at('2025-03-03T14:30:00Z'),
    },
    // Scored, its comment still awaited: on the day it was sent.
    {
      siteId: site,
      roomId: r2.id,
      channelId,
      contact: r2.contact,
      userId: a2,
      scale: '0-10',
      state: 'comment',
      score: 3,
      sentAt: at('2025-03-03T14:40:00Z'),
      expiresAt: at('2025-03-03T15:40:00Z'),
    },
  ])

  // ---- The status timeline: agent1 offline since the 2nd, then a day of work; a pause across midnight.
  const status = (userId: number, value: string, iso: string, ch = 'telephony') => ({ siteId: site, userId, channel: ch, status: value, at: at(iso) })
  await db.insert(agentStatusEvents).values([
    status(a1, 'unavailable', '2025-03-02T20:00:00Z'),
    status(a1, 'not_inuse', '2025-03-03T12:00:00Z'),
    status(a1, 'inuse', '2025-03-03T13:00:00Z'),
    status(a1, 'after_service', '2025-03-03T13:01:10Z'),
    status(a1, 'not_inuse', '2025-03-03T13:01:30Z'),
    status(a1, 'paused', '2025-03-03T15:00:00Z'),
    status(a1, 'not_inuse', '2025-03-03T16:00:00Z'),
    status(a1, 'paused', '2025-03-04T02:30:00Z'),
    status(a1, 'not_inuse', '2025-03-04T03:30:00Z'),
    status(a1, 'unavailable', '2025-03-04T05:00:00Z'),
    // The chat channel's statuses are not the telephony timeline.
    status(a1, 'busy', '2025-03-03T18:00:00Z', 'chat'),
    status(a2, 'not_inuse', '2025-03-03T14:00:00Z'),
  ])
  await db.insert(pauseReports).values([
    { siteId: site, userId: a1, description: 'Almoço', startedAt: at('2025-03-03T15:00:00Z'), endedAt: at('2025-03-03T16:00:00Z'), duration: 3600 },
    { siteId: site, userId: a1, description: 'Banheiro', startedAt: at('2025-03-04T02:30:00Z'), endedAt: at('2025-03-04T03:30:00Z'), duration: 3600 },
  ])

  // ---- KPI: queue calls (Suporte and Vendas, target 20 s).
  const step = (callId: string, n: number, values: Partial<typeof callRecords.$inferInsert> & { startedAt: Date }) => ({
    siteId: site,
    callId,
    step: n,
    uid: randomUUID(),
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    decision: { action: 'relay' },
    ...values,
  })
  await db.insert(callRecords).values([
    // K1: agent2 lets it ring 15 s, agent1 answers 25 s after it queued (out of target), 100 s talk, 30 s after-service.
    step('kpi-1', 1, {
      userId: a2,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-03T13:00:00Z'),
      startedAt: at('2025-03-03T13:00:00Z'),
      endedAt: at('2025-03-03T13:00:15Z'),
    }),
    step('kpi-1', 2, {
      userId: a1,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-03T13:00:00Z'),
      startedAt: at('2025-03-03T13:00:15Z'),
      answeredAt: at('2025-03-03T13:00:25Z'),
      answeredDuration: 100,
      afterServiceStartedAt: at('2025-03-03T13:02:05Z'),
      afterServiceDuration: 30,
    }),
    // K2: agent1 answers in 5 s, 200 s talk, no after-service.
    step('kpi-2', 1, {
      userId: a1,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-03T14:00:00Z'),
      startedAt: at('2025-03-03T14:00:00Z'),
      answeredAt: at('2025-03-03T14:00:05Z'),
      answeredDuration: 200,
    }),
    // K3: Vendas, agent2 rung, the caller gives up after 40 s.
    step('kpi-3', 1, {
      userId: a2,
      queueId: d.sales.id,
      queueStartedAt: at('2025-03-03T15:00:00Z'),
      startedAt: at('2025-03-03T15:00:00Z'),
      endedAt: at('2025-03-03T15:00:40Z'),
    }),
    // K4: 23:55 local, agent2 answers in 10 s and talks past midnight (600 s), 60 s after-service: the 3rd's.
    step('kpi-4', 1, {
      userId: a2,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-04T02:55:00Z'),
      startedAt: at('2025-03-04T02:55:00Z'),
      answeredAt: at('2025-03-04T02:55:10Z'),
      answeredDuration: 600,
      afterServiceStartedAt: at('2025-03-04T03:05:10Z'),
      afterServiceDuration: 60,
    }),
    // K5: 00:05 local on the 4th.
    step('kpi-5', 1, {
      userId: a1,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-04T03:05:00Z'),
      startedAt: at('2025-03-04T03:05:00Z'),
      answeredAt: at('2025-03-04T03:05:03Z'),
      answeredDuration: 50,
    }),
  ])

  // ---- Dialer: a campaign with two mailings.
  const [campaign] = await db
    .insert(serviceShipmentsCampaigns)
    .values({ siteId: site, description: 'Campanha Março', queueId: d.support.id, maxAttempts: 3 })
    .returning()
  const [listA, listB] = await db
    .insert(crmMailings)
    .values([
      { siteId: site, description: 'Lista A' },
      { siteId: site, description: 'Lista B' },
    ])
    .returning()
  await db.insert(serviceShipmentsCampaignsMailings).values([
    { siteId: site, campaignId: campaign!.id, mailingId: listA!.id },
    { siteId: site, campaignId: campaign!.id, mailingId: listB!.id },
  ])
  const [l1, l2, l3, l4, l5] = await db
    .insert(crmLeads)
    .values([
      { siteId: site, mailingId: listA!.id, name: 'L1', phones: '1', status: 'done', attempts: 2 },
      { siteId: site, mailingId: listA!.id, name: 'L2', phones: '2', status: 'pending', attempts: 1 },
      { siteId: site, mailingId: listA!.id, name: 'L3', phones: '3', status: 'blocked', attempts: 0 },
      { siteId: site, mailingId: listA!.id, name: 'L4', phones: '4', status: 'pending', attempts: 0 },
      { siteId: site, mailingId: listB!.id, name: 'L5', phones: '5', status: 'failed', attempts: 3 },
    ])
    .returning()
  const dial = (callId: string, leadId: number, mailing: number, iso: string, dialStatus: number, extra: Partial<typeof callRecords.$inferInsert> = {}) =>
    step(callId, 1, {
      direction: 'outbound',
      callType: 12,
      kind: 'trunk',
      leadId,
      startedAt: at(iso),
      dialStatus,
      decision: { dialer: campaign!.id, campaign: campaign!.id, mailing },
      ...extra,
    })
  await db.insert(callRecords).values([
    dial('dl-1', l1!.id, listA!.id, '2025-03-03T13:00:00Z', 200, { answeredAt: at('2025-03-03T13:00:10Z') }),
    dial('dl-2', l2!.id, listA!.id, '2025-03-03T13:10:00Z', 486),
    dial('dl-3', l1!.id, listA!.id, '2025-03-03T13:20:00Z', 200, { answeredAt: at('2025-03-03T13:20:10Z'), dialStatusText: 'Abandoned' }),
    dial('dl-4', l4!.id, listA!.id, '2025-03-03T13:30:00Z', 552),
    dial('dl-5', l2!.id, listA!.id, '2025-03-03T13:40:00Z', 510),
    dial('dl-6', l4!.id, listA!.id, '2025-03-03T13:50:00Z', 559),
    dial('dl-7', l5!.id, listB!.id, '2025-03-03T14:00:00Z', 480),
    // 00:10 local on the 4th.
    dial('dl-8', l2!.id, listA!.id, '2025-03-04T03:10:00Z', 200, { answeredAt: at('2025-03-04T03:10:05Z') }),
    // A preview call (type 18) call control recorded: no campaign on it, the mailing's campaign.
    dial('dl-9', l4!.id, listA!.id, '2025-03-03T16:00:00Z', 487, { callType: 18, decision: { action: 'relay' } }),
  ])
  await db.insert(dialerLeadStates).values({ leadId: l3!.id, siteId: site, campaignId: campaign!.id, lastStatus: 609, lastDialAt: at('2025-03-03T14:30:00Z') })

  ids = { a1, a2, support: d.support.id, sales: d.sales.id, campaign: campaign!.id, siteId: site }

  // ---- Another site, with rows of every kind on the same day.
  const site2 = await createSite(db, { domain: 'outra-datasets.example', name: 'Outra' })
  const group = await createGroup(db, site2.id, 'Sup', [PERMISSIONS.viewReports])
  const boss = await createUser(db, { siteId: site2.id, username: 'chefe2', password: 'outra2025x', groupIds: [group] })
  await db
    .insert(telephonyNpsAnswers)
    .values({ siteId: site2.id, callId: 'nps-other', userId: boss.id, question: 0, scale: '0-10', score: 1, answeredAt: at('2025-03-03T13:05:00Z') })
  await db.insert(agentStatusEvents).values({ siteId: site2.id, userId: boss.id, channel: 'telephony', status: 'inuse', at: at('2025-03-03T13:00:00Z') })
  const [q2] = await db.insert(pabxQueues).values({ siteId: site2.id, description: 'Fila da outra' }).returning()
  await db
    .insert(callRecords)
    .values({ ...step('kpi-other', 1, { userId: boss.id, queueId: q2!.id, startedAt: at('2025-03-03T13:00:00Z') }), siteId: site2.id })
  const [c2] = await db.insert(serviceShipmentsCampaigns).values({ siteId: site2.id, description: 'Campanha da outra', queueId: q2!.id }).returning()
  const [m2] = await db.insert(crmMailings).values({ siteId: site2.id, description: 'Lista da outra' }).returning()
  await db.insert(serviceShipmentsCampaignsMailings).values({ siteId: site2.id, campaignId: c2!.id, mailingId: m2!.id })
  other = new TestClient(t.app, { host: 'outra-datasets.example' })
  expect((await other.login('chefe2', 'outra2025x')).statusCode).toBe(200)
})

describe('NPS', () => {
  it('counts promoters, passives and detractors per scale, NPS = % promoters − % detractors, the score distribution', async () => {
    const r = await report('nps')
    // 10, 6, 8, 9 by keypad; 5 (of 1–5) and 3 by chat. 00:10 on the 4th is not the 3rd's.
    expect(r.count).toBe(6)
    expect(totals(r)).toEqual({ answers: 6, promoters: 3, passives: 1, detractors: 2, nps: 16.7, average_score: 6.8 })
    expect(r.chart.labels).toEqual(['3', '5', '6', '8', '9', '10'])
    expect(r.chart.series[0]!.values).toEqual([1, 1, 1, 1, 1, 1])
    expect(r.results[0]).toMatchObject({
      source: 'Telefonia',
      question: 1,
      score: 9,
      category: 'Promotor',
      agent: 'Bruno Agente',
      queue: 'Suporte',
      reference: 'nps-4',
    })
    const chat = r.results.find((row) => row.source === 'Chat' && row.score === 5)!
    expect(chat).toMatchObject({ scale: '1-5', category: 'Promotor', comment: 'Ótimo', agent: 'Ana Agente' })
    expect(r.results.find((row) => row.score === 6)).toMatchObject({ question: 2, category: 'Detrator' })
    // Per agent and per (telephony) queue.
    expect(totals(await report('nps', `&agent=${ids.a1}`))).toMatchObject({ answers: 3, promoters: 2, detractors: 1, nps: 33.3 })
    expect(totals(await report('nps', `&queue=${ids.support}`))).toMatchObject({ answers: 3, promoters: 2, detractors: 1, nps: 33.3 })
    expect(totals(await report('nps', `&queue=${ids.sales}`))).toMatchObject({ answers: 1, passives: 1, nps: 0 })
    // The next day: the 00:10 answer only.
    expect((await report('nps', '', `${SP}&date_from=2025-03-04`)).results.map((row) => row.reference)).toEqual(['nps-3'])
  })
})

describe('agent status timeline', () => {
  it('one row per status interval, the status held since the day before and a pause split at midnight', async () => {
    const r = await report('agent-status')
    const ana = r.results.filter((row) => row.agent === 'Ana Agente').reverse()
    expect(ana.map((row) => [row.status, row.duration, row.reason])).toEqual([
      ['Desconectado', 32400, ''],
      ['Disponível', 3600, ''],
      ['Em ligação', 70, ''],
      ['Pós-atendimento', 20, ''],
      ['Disponível', 7110, ''],
      ['Em pausa', 3600, 'Almoço'],
      ['Disponível', 37800, ''],
      ['Em pausa', 1800, 'Banheiro'],
    ])
    expect(ana[0]).toMatchObject({ started_at: '2025-03-03T03:00:00.000Z', ended_at: '2025-03-03T12:00:00.000Z', detail: 'Indisponível' })
    expect(ana[7]).toMatchObject({ started_at: '2025-03-04T02:30:00.000Z', ended_at: '2025-03-04T03:00:00.000Z' })
    // agent2: available from 11:00 local to the end of the day.
    expect(r.results.filter((row) => row.agent === 'Bruno Agente').map((row) => row.duration)).toEqual([46800])
    expect(r.count).toBe(9)
    expect(totals(r)).toEqual({
      intervals: 9,
      available_time: 48510 + 46800,
      call_time: 70,
      after_service_time: 20,
      pause_time: 5400,
      offline_time: 32400,
    })
    expect(r.chart.labels).toEqual(['Ana Agente', 'Bruno Agente'])

    // The 4th: the pause's other half first, then available, then offline to the end of the day.
    const next = await report('agent-status', `&agent=${ids.a1}`, `${SP}&date_from=2025-03-04`)
    expect(next.results.reverse().map((row) => [row.status, row.started_at, row.duration, row.reason])).toEqual([
      ['Em pausa', '2025-03-04T03:00:00.000Z', 1800, 'Banheiro'],
      ['Disponível', '2025-03-04T03:30:00.000Z', 5400, ''],
      ['Desconectado', '2025-03-04T05:00:00.000Z', 79200, ''],
    ])
    // In UTC the 3rd is another cut: the 03:00–12:00 offline stretch starts at 00:00 UTC (since the 2nd's 20:00).
    const utc = await report('agent-status', `&agent=${ids.a1}`, 'date_from=2025-03-03&date_to=2025-03-03')
    expect(utc.results.at(-1)).toMatchObject({ status: 'Desconectado', started_at: '2025-03-03T00:00:00.000Z', duration: 12 * 3600 })
  })
})

describe('KPI', () => {
  it('per day and agent: received, answered, abandoned, service level, ATT/ACW/AHT, occupancy, pauses', async () => {
    const r = await report('kpi')
    const row = (agent: string) => r.results.find((x) => x.agent === agent)!
    expect(r.results.map((x) => x.agent)).toEqual(['(nenhum agente)', 'Ana Agente', 'Bruno Agente'])
    expect(row('Ana Agente')).toMatchObject({
      day: '2025-03-03',
      calls_offered: 2,
      calls_answered: 2,
      abandoned: 0,
      missed: 0,
      service_level: 50,
      att: 150,
      acw: 30,
      aht: 180,
      occupancy: 0.2,
      pauses: 2,
      pause_time: 7200,
    })
    // K4 crossed midnight: the 3rd's; agent2 let K1 and K3 ring.
    expect(row('Bruno Agente')).toMatchObject({ calls_offered: 1, calls_answered: 1, missed: 2, service_level: 100, att: 600, acw: 60, aht: 660, occupancy: 0 })
    expect(row('(nenhum agente)')).toMatchObject({ calls_offered: 1, calls_answered: 0, abandoned: 1, service_level: 0, att: null })
    expect(totals(r)).toEqual({
      calls_offered: 4,
      calls_answered: 3,
      abandoned: 1,
      service_level: 50,
      att: 300,
      acw: 45,
      aht: 345,
      occupancy: 0.1,
      pause_time: 7200,
    })
    expect(r.chart).toMatchObject({ by: 'day', labels: ['2025-03-03'] })
    expect(r.chart.series.map((s) => s.values)).toEqual([[3], [1]])

    expect(totals(await report('kpi', `&queue=${ids.sales}`))).toMatchObject({ calls_offered: 1, calls_answered: 0, abandoned: 1, service_level: 0 })
    const bruno = await report('kpi', `&agent=${ids.a2}`)
    expect(bruno.results).toEqual([expect.objectContaining({ agent: 'Bruno Agente', calls_offered: 1, missed: 2 })])
    // The 4th: K5 only.
    expect(totals(await report('kpi', '', `${SP}&date_from=2025-03-04`))).toMatchObject({ calls_offered: 1, calls_answered: 1, att: 50 })
  })
})

describe('dialer results', () => {
  it('per campaign and mailing: attempts by dial status, answered, abandoned, leads done and remaining', async () => {
    const r = await report('dialer-results')
    expect(r.results).toEqual([
      expect.objectContaining({
        campaign: 'Campanha Março',
        mailing: 'Lista A',
        attempts: 7,
        calls_answered: 2,
        abandoned: 1,
        abandon_rate: 50,
        busy: 1,
        no_answer: 1,
        blacklisted: 1,
        voicemail: 1,
        fax: 1,
        uncertain: 1,
        statuses: '200 × 2, 486 × 1, 487 × 1, 510 × 1, 552 × 1, 559 × 1, 609 × 1',
        leads_total: 4,
        leads_done: 1,
        leads_remaining: 2,
      }),
      expect.objectContaining({
        mailing: 'Lista B',
        attempts: 1,
        calls_answered: 0,
        abandon_rate: null,
        no_answer: 1,
        statuses: '480 × 1',
        leads_total: 1,
        leads_remaining: 0,
      }),
    ])
    expect(totals(r)).toEqual({ attempts: 8, calls_answered: 2, abandoned: 1, abandon_rate: 50, blacklisted: 1, leads_done: 1, leads_remaining: 2 })
    expect(r.chart.labels).toEqual(['Campanha Março'])
    expect((await report('dialer-results', `&campaign=${ids.campaign}`)).count).toBe(2)
    expect((await report('dialer-results', `&campaign=${ids.campaign + 1000}`)).count).toBe(0)
    expect((await report('dialer-results', '', `${SP}&date_from=2025-03-04`)).results[0]).toMatchObject({ attempts: 1, calls_answered: 1 })
    // The CSV writes the percent with the decimal comma of pt-BR.
    const client = await signedIn(t.app, 'supervisor')
    const csv = await client.get(`/api/v1/report/pages/dialer-results/csv/?${DAY}`)
    expect(csv.body).toContain('Campanha Março;Lista A;7;2;1;50;1;1;1;1;1;1;200 × 2, 486 × 1, 487 × 1, 510 × 1, 552 × 1, 559 × 1, 609 × 1;4;1;2')
  })
})

describe('permission and site scoping', () => {
  it('needs sites.view_reports', async () => {
    const agent = await signedIn(t.app, 'agent1')
    for (const id of ['nps', 'kpi', 'agent-status', 'dialer-results']) {
      expect((await agent.get(`/api/v1/report/pages/${id}/?${DAY}`)).statusCode).toBe(403)
      expect((await agent.get(`/api/v1/report/pages/${id}/csv/?${DAY}`)).statusCode).toBe(403)
    }
  })

  it("never shows another site's rows, either way", async () => {
    for (const id of ['nps', 'kpi', 'agent-status', 'dialer-results']) {
      const theirs = (await other.get(`/api/v1/report/pages/${id}/?${DAY}`)).json() as ReportPage
      const ours = await report(id)
      const text = JSON.stringify(ours.results)
      expect(text).not.toMatch(/outra|nps-other|chefe2/)
      expect(JSON.stringify(theirs.results)).not.toMatch(/Ana Agente|Bruno Agente|Campanha Março|Lista A|nps-1/)
    }
    expect(((await other.get(`/api/v1/report/pages/nps/?${DAY}`)).json() as ReportPage).count).toBe(1)
    expect(((await other.get(`/api/v1/report/pages/dialer-results/?${DAY}`)).json() as ReportPage).results).toEqual([
      expect.objectContaining({ campaign: 'Campanha da outra', attempts: 0 }),
    ])
    // Our agent's id on their site matches nothing.
    expect(((await other.get(`/api/v1/report/pages/agent-status/?${DAY}&agent=${ids.a1}`)).json() as ReportPage).count).toBe(0)
    expect(((await other.get(`/api/v1/report/pages/kpi/?${DAY}&agent=${ids.a1}`)).json() as ReportPage).count).toBe(0)
  })
})
