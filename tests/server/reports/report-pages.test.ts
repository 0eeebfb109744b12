import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportPage } from '../../../contract/api/reports.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { callRecords, chatRooms, pabxQueues, pauseReports, serviceClassifications } from '../../../server/db/schema/index.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { demo } from '../call-control-helper.ts'
import { channel } from '../chat/chat-fixtures.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'

// The report pages against hand-counted fixtures: 3 March 2025 in São Paulo (UTC-3, from 03:00 UTC on the 3rd to
// 03:00 UTC on the 4th). Call B starts at 23:50 local and ends at 00:10 local on the 4th: it is the 3rd's, whole.

const t = useTestApp()
const at = (iso: string) => new Date(iso)
const DAY = 'tz=America/Sao_Paulo&date_from=2025-03-03&date_to=2025-03-03'
const page = (id: string, extra = '') => `/api/v1/report/pages/${id}/?${DAY}${extra}`
let ids: { a1: number; a2: number; support: number; sales: number; clsA: number; clsB: number; team: number | null }

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  const a1 = d.agent1.id
  const a2 = d.agent2.id
  await db.update(pabxQueues).set({ serviceLevel: 20 }).where(eq(pabxQueues.siteId, d.site.id))
  const [clsA, clsB] = await db
    .insert(serviceClassifications)
    .values([
      { siteId: d.site.id, description: 'Venda feita' },
      { siteId: d.site.id, description: 'Sem interesse' },
    ])
    .returning()
  ids = { a1, a2, support: d.support.id, sales: d.sales.id, clsA: clsA!.id, clsB: clsB!.id, team: d.agent1.teamId }
  const step = (callId: string, n: number, values: Partial<typeof callRecords.$inferInsert> & { startedAt: Date }) => ({
    siteId: d.site.id,
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
    // A: Suporte → agent1 at 10:00 local, answered after 10 s, 60 s of talk, classified "Venda feita", 20 s after-service.
    step('rep-a', 1, {
      userId: a1,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-03T13:00:00Z'),
      startedAt: at('2025-03-03T13:00:00Z'),
      answeredAt: at('2025-03-03T13:00:10Z'),
      endedAt: at('2025-03-03T13:01:10Z'),
      answeredDuration: 60,
      totalDuration: 70,
      classification: { classification_id: clsA!.id },
      afterServiceStartedAt: at('2025-03-03T13:01:10Z'),
      afterServiceDuration: 20,
    }),
    // B: Suporte at 23:50 local: agent2 lets it ring 30 s, agent1 answers at 23:51 (60 s after it queued), talks
    // until 00:10 local on the 4th (1,140 s); its after-service starts on the 4th.
    step('rep-b', 1, {
      userId: a2,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-04T02:50:00Z'),
      startedAt: at('2025-03-04T02:50:00Z'),
      endedAt: at('2025-03-04T02:50:30Z'),
      dialStatus: 480,
      totalDuration: 30,
    }),
    step('rep-b', 2, {
      userId: a1,
      queueId: d.support.id,
      queueStartedAt: at('2025-03-04T02:50:00Z'),
      startedAt: at('2025-03-04T02:50:30Z'),
      answeredAt: at('2025-03-04T02:51:00Z'),
      endedAt: at('2025-03-04T03:10:00Z'),
      answeredDuration: 1140,
      dialStatus: 200,
      afterServiceStartedAt: at('2025-03-04T03:10:00Z'),
      afterServiceDuration: 15,
    }),
    // C: 00:30 local on the 4th: another day.
    step('rep-c', 1, { userId: a1, queueId: d.sales.id, startedAt: at('2025-03-04T03:30:00Z'), answeredAt: at('2025-03-04T03:30:02Z'), answeredDuration: 5 }),
    // D: agent1 dials out at 11:00 local: 30 s, classified "Sem interesse".
    step('rep-d', 1, {
      direction: 'outbound',
      callType: 2,
      kind: 'trunk',
      callerUserId: a1,
      startedAt: at('2025-03-03T14:00:00Z'),
      answeredAt: at('2025-03-03T14:00:10Z'),
      endedAt: at('2025-03-03T14:00:40Z'),
      answeredDuration: 30,
      classification: { classification_id: clsB!.id },
    }),
    // G: agent1 dials out at 14:00 local, nobody answers.
    step('rep-g', 1, {
      direction: 'outbound',
      callType: 2,
      kind: 'trunk',
      callerUserId: a1,
      startedAt: at('2025-03-03T17:00:00Z'),
      endedAt: at('2025-03-03T17:00:20Z'),
    }),
    // E: Vendas → agent2 at 12:00 local, abandoned after 45 s.
    step('rep-e', 1, {
      userId: a2,
      queueId: d.sales.id,
      queueStartedAt: at('2025-03-03T15:00:00Z'),
      startedAt: at('2025-03-03T15:00:00Z'),
      endedAt: at('2025-03-03T15:00:45Z'),
    }),
    // F: 23:30 local on the 2nd: the day before.
    step('rep-f', 1, { userId: a1, queueId: d.support.id, startedAt: at('2025-03-03T02:30:00Z'), answeredAt: at('2025-03-03T02:30:05Z'), answeredDuration: 9 }),
  ])
  const [afterReport] = await db
    .insert(pauseReports)
    .values({
      siteId: d.site.id,
      userId: a1,
      description: 'Pós-atendimento',
      startedAt: at('2025-03-03T13:01:10Z'),
      endedAt: at('2025-03-03T13:01:30Z'),
      duration: 20,
    })
    .returning()
  await db.update(callRecords).set({ afterServicePauseReportId: afterReport!.id }).where(eq(callRecords.callId, 'rep-a'))
  await db.insert(pauseReports).values([
    { siteId: d.site.id, userId: a1, description: 'Almoço', startedAt: at('2025-03-03T15:00:00Z'), endedAt: at('2025-03-03T16:00:00Z'), duration: 3600 },
    // 23:30 local to 00:30 local: the 3rd's (it started then), all of it.
    {
      siteId: d.site.id,
      userId: a1,
      description: 'Banheiro',
      startedAt: at('2025-03-04T02:30:00Z'),
      endedAt: at('2025-03-04T03:30:00Z'),
      duration: 3600,
      exceeded: true,
      justification: '=HYPERLINK("http://x";"clique")',
    },
    { siteId: d.site.id, userId: a2, description: 'Almoço', startedAt: at('2025-03-03T16:00:00Z'), endedAt: at('2025-03-03T16:30:00Z'), duration: 1800 },
    // 23:00 local on the 2nd: not the 3rd's.
    { siteId: d.site.id, userId: a1, description: 'Banheiro', startedAt: at('2025-03-03T02:00:00Z'), endedAt: at('2025-03-03T02:10:00Z'), duration: 600 },
  ])
  const channelId = await channel(db, d.site.id)
  const room = (userId: number, values: Partial<typeof chatRooms.$inferInsert>) => {
    const contact = `5511${Math.floor(Math.random() * 1e9)}`
    return { uid: randomUUID(), siteId: d.site.id, channelId, contact, address: contact, phone: contact, title: 'Cliente', userId, state: 'active', ...values }
  }
  await db.insert(chatRooms).values([
    // Queued at 10:50 local, answered 10 minutes later, ended 30 minutes after it started; classified "Venda feita".
    room(a1, {
      startedAt: at('2025-03-03T13:50:00Z'),
      queuedAt: at('2025-03-03T13:50:00Z'),
      answeredAt: at('2025-03-03T14:00:00Z'),
      endedAt: at('2025-03-03T14:20:00Z'),
      state: 'ended',
      classification: { classification_id: clsA!.id },
    }),
    room(a2, { startedAt: at('2025-03-03T14:50:00Z'), state: 'queued' }),
    room(a1, { startedAt: at('2025-03-04T03:30:00Z'), answeredAt: at('2025-03-04T03:31:00Z') }),
  ])
})

async function report(id: string, extra = '', user: 'supervisor' | 'admin' = 'supervisor'): Promise<ReportPage> {
  const client = await signedIn(t.app, user)
  const res = await client.get(page(id, extra))
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ReportPage
}
const totals = (r: ReportPage) => Object.fromEntries(r.totals.map((x) => [x.key, x.value]))

describe('GET /api/v1/report/pages/', () => {
  it('lists the reports for holders of sites.view_reports and refuses the others', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const list = await supervisor.get('/api/v1/report/pages/')
    expect(list.statusCode).toBe(200)
    const body = list.json() as { count: number; results: { id: string; title: string; filters: string[] }[] }
    expect(body.results.map((r) => r.id)).toEqual([
      'calls',
      'call-steps',
      'chats',
      'pauses',
      'after-service',
      'agent-productivity',
      'queue-service-level',
      'classifications',
      'nps',
      'kpi',
      'agent-status',
      'dialer-results',
    ])
    const choices = (await supervisor.get('/api/v1/report/filters/')).json() as Record<string, { id: number; description: string }[]>
    expect(choices.queue!.map((q) => q.description)).toEqual(expect.arrayContaining(['Suporte', 'Vendas']))
    expect(choices.classification!.map((c) => c.description)).toEqual(['Dúvida', 'Reclamação', 'Sem interesse', 'Venda', 'Venda feita'])
    expect(choices.agent!.map((a) => a.id)).toEqual(expect.arrayContaining([ids.a1, ids.a2]))
    expect(body.results[0]).toMatchObject({ title: 'Chamadas', filters: ['team', 'agent', 'queue', 'campaign', 'classification'] })
    const agent = await signedIn(t.app, 'agent1')
    for (const path of [
      '/api/v1/report/pages/',
      '/api/v1/report/filters/',
      page('calls'),
      `/api/v1/report/pages/calls/csv/?${DAY}`,
      '/api/v1/report/processing-queue/',
    ]) {
      expect((await agent.get(path)).statusCode).toBe(403)
    }
  })
})

describe('the datasets, hand-counted', () => {
  it('calls: one row per call started in the day, the one crossing midnight whole', async () => {
    const r = await report('calls')
    expect(r.from).toBe('2025-03-03T03:00:00.000Z')
    expect(r.to).toBe('2025-03-04T03:00:00.000Z')
    expect(r.count).toBe(5)
    expect(r.results.map((row) => row.call_id)).toEqual(['rep-b', 'rep-g', 'rep-e', 'rep-d', 'rep-a'])
    // wait: A 10 s, B 60 s, E 45 s (D and G went through no queue); talk of the answered A, B, D: 60 + 1,140 + 30.
    expect(totals(r)).toEqual({ calls: 5, calls_answered: 3, calls_unanswered: 2, average_wait: 38, average_talk: 410 })
    const b = r.results[0]!
    expect(b).toMatchObject({
      started_at: '2025-03-04T02:50:00.000Z',
      direction: 'Entrada',
      answered: true,
      wait: 60,
      talk: 1140,
      duration: 1200,
      queue: 'Suporte',
    })
    expect(r.chart).toMatchObject({ by: 'day', labels: ['2025-03-03'] })
    expect(r.chart.series.map((s) => [s.key, s.values])).toEqual([
      ['calls_answered', [3]],
      ['calls_unanswered', [2]],
    ])
    expect((await report('calls', `&agent=${ids.a1}`)).count).toBe(4)
    expect((await report('calls', `&agent=${ids.a2}`)).results.map((row) => row.call_id)).toEqual(['rep-b', 'rep-e'])
    expect((await report('calls', `&queue=${ids.support}`)).count).toBe(2)
    expect((await report('calls', `&classification=${ids.clsA}`)).results.map((row) => row.call_id)).toEqual(['rep-a'])
    // The next day has C only (B belongs to the 3rd); a UTC reader's 3rd has A, D, E and F (23:30 local on the 2nd).
    const next = await signedIn(t.app, 'supervisor')
    const fourth = (await next.get('/api/v1/report/pages/calls/?tz=America/Sao_Paulo&date_from=2025-03-04')).json() as ReportPage
    expect(fourth.results.map((row) => row.call_id)).toEqual(['rep-c'])
    const utc = (await next.get('/api/v1/report/pages/calls/?date_from=2025-03-03&date_to=2025-03-03')).json() as ReportPage
    expect(utc.results.map((row) => row.call_id).sort()).toEqual(['rep-a', 'rep-d', 'rep-e', 'rep-f', 'rep-g'])
  })

  it('call steps: every step of the day', async () => {
    const r = await report('call-steps')
    expect(r.count).toBe(6)
    expect(totals(r)).toEqual({ steps: 6, calls_answered: 3, average_talk: 410 })
    expect(r.results[1]).toMatchObject({ call_id: 'rep-b', step: 1, kind: 'Fila', status: '480', talk: 0 })
  })

  it('chats: waits and durations', async () => {
    const r = await report('chats')
    expect(r.count).toBe(2)
    expect(totals(r)).toEqual({ chats: 2, chats_answered: 1, average_wait: 600, average_duration: 1800 })
    expect((await report('chats', `&agent=${ids.a2}`)).count).toBe(1)
  })

  it('pauses: not after-service, the one crossing midnight on the day it started', async () => {
    const r = await report('pauses')
    expect(totals(r)).toEqual({ pauses: 3, pause_time: 9000, exceeded: 1 })
    expect(r.chart).toMatchObject({ by: 'label', labels: ['Almoço', 'Banheiro'] })
    expect(r.chart.series[0]!.values).toEqual([5400, 3600])
    expect((await report('pauses', `&agent=${ids.a2}`)).count).toBe(1)
  })

  it('after-service: on the day it started', async () => {
    const r = await report('after-service')
    expect(totals(r)).toEqual({ after_service: 1, after_service_time: 20, average_after_service: 20 })
    expect(r.results[0]).toMatchObject({ call_id: 'rep-a', duration: 20, classification: 'Venda feita' })
  })

  it('agent productivity: per agent', async () => {
    const r = await report('agent-productivity')
    // The average talk is over the calls talked (G, placed and not answered, is not one).
    const agent1 = r.results.find((row) => row.calls_placed === 2)!
    expect(agent1).toMatchObject({
      calls_answered: 2,
      calls_placed: 2,
      talk: 1230,
      average_talk: 410,
      chats_answered: 1,
      pauses: 2,
      pause_time: 7200,
      after_service: 1,
      after_service_time: 20,
    })
    expect(r.count).toBe(2)
    expect(totals(r)).toMatchObject({ agents: 2, calls_answered: 2, calls_placed: 2, talk: 1230, chats_answered: 1, pause_time: 9000, after_service_time: 20 })
    expect((await report('agent-productivity', `&agent=${ids.a2}`)).results).toEqual([
      expect.objectContaining({ calls_answered: 0, pauses: 1, pause_time: 1800 }),
    ])
  })

  it('queue service level: answered within the queue target over the calls received', async () => {
    const r = await report('queue-service-level')
    expect(r.results).toEqual([
      expect.objectContaining({ queue: 'Suporte', calls_offered: 2, calls_answered: 2, abandoned: 0, in_target: 1, target: 20, service_level: 50 }),
      expect.objectContaining({ queue: 'Vendas', calls_offered: 1, calls_answered: 0, abandoned: 1, in_target: 0, service_level: 0 }),
    ])
    expect(totals(r)).toEqual({ calls_offered: 3, calls_answered: 2, abandoned: 1, service_level: 33.3 })
  })

  it('classifications: calls and chats by the classification chosen', async () => {
    const r = await report('classifications')
    expect(r.results).toEqual([
      expect.objectContaining({ classification: 'Sem interesse', calls: 1, chats: 0, total: 1 }),
      expect.objectContaining({ classification: 'Venda feita', calls: 1, chats: 1, total: 2 }),
    ])
    expect(totals(r)).toEqual({ calls: 2, chats: 1, total: 3 })
  })
})

describe('filters and scoping', () => {
  it('answers 400 with field errors for bad filters', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const bad = async (path: string) => {
      const res = await supervisor.get(path)
      expect(res.statusCode, path).toBe(400)
      return res.json() as Record<string, string[]>
    }
    expect(Object.keys(await bad(page('pauses', '&queue=1')))).toEqual(['queue'])
    expect(Object.keys(await bad('/api/v1/report/pages/calls/?date_from=2025-03-05&date_to=2025-03-01'))).toEqual(['date_to'])
    expect(Object.keys(await bad('/api/v1/report/pages/calls/?date_from=2024-01-01&date_to=2025-03-01'))).toEqual(['date_to'])
    expect(Object.keys(await bad('/api/v1/report/pages/calls/?tz=Mars/Olympus'))).toEqual(['tz'])
    expect(Object.keys(await bad('/api/v1/report/pages/calls/?date_from=2025-02-30'))).toEqual(['date_from'])
    expect(Object.keys(await bad('/api/v1/report/pages/calls/?agent=abc'))).toEqual(['agent'])
    expect(Object.keys(await bad('/api/v1/report/pages/nope/'))).toEqual(['id'])
    expect(Object.keys(await bad(`/api/v1/report/pages/calls/csv/?${DAY}&campaign=-1`))).toEqual(['campaign'])
  })

  it("keeps each site to its own records, and a supervisor reads a call's steps", async () => {
    const site = await createSite(t.database.db, { domain: 'outra-relatorio.example', name: 'Outra' })
    const group = await createGroup(t.database.db, site.id, 'Sup', [PERMISSIONS.viewReports])
    await createUser(t.database.db, { siteId: site.id, username: 'chefe', password: 'outra2025x', groupIds: [group] })
    await t.database.db.insert(callRecords).values({
      siteId: site.id,
      callId: 'other-site-call',
      step: 1,
      uid: randomUUID(),
      direction: 'inbound',
      callType: 20,
      kind: 'queue',
      startedAt: at('2025-03-03T13:00:00Z'),
      decision: { action: 'relay' },
    })
    const boss = new TestClient(t.app, { host: 'outra-relatorio.example' })
    expect((await boss.login('chefe', 'outra2025x')).statusCode).toBe(200)
    const theirs = (await boss.get(page('calls'))).json() as ReportPage
    expect(theirs.results.map((row) => row.call_id)).toEqual(['other-site-call'])
    const ours = await report('calls')
    expect(ours.results.map((row) => row.call_id)).not.toContain('other-site-call')
    // Another site's filter ids match nothing here.
    expect((await boss.get(page('calls', `&agent=${ids.a1}`))).json()).toMatchObject({ count: 0 })
    // The call steps of spec 001 §7, for a holder of sites.view_reports without the softphone.
    expect((await boss.get('/api/v1/report/call-steps/other-site-call/')).json()).toMatchObject({ count: 1 })
    expect((await boss.get('/api/v1/report/call-steps/rep-a/')).statusCode).toBe(404)
  })
})
