import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DashboardToday } from '../../../contract/api/dashboard.ts'
import type { ReportPage } from '../../../contract/api/reports.ts'
import { callRecords } from '../../../server/db/schema/index.ts'
import { refreshHours } from '../../../server/reports/hours.ts'
import { demo } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'

// A queue caller answered through the media app is one call in every count (server/reports/call-key.ts), while a
// transfer stays a call of its own. Hand-counted fixtures on 7 April 2025 in São Paulo (UTC-3), as call control and
// the media app's brain write them:
// - M: the customer's call `m-caller` (inbound, the support queue's step held in the app: decision.media; the brain
//   wrote agent1 and answered_at on it when it bridged, and Kamailio's end gave it 60 s) and the app's bridge leg
//   `m-leg` (its own Call-ID, parent_uid = the caller's step 1, the same queue, agent1 answered, 60 s).
// - X: `x-1` an inbound support call agent1 answered (30 s), blind-transferred to agent2: `x-2` (internal, agent1 the
//   caller, parent_uid null and transfer_of_uid = x-1's step, agent2 answered, 40 s).

const t = useTestApp()
const at = (iso: string) => new Date(iso)
const SP = 'tz=America/Sao_Paulo'
let ids: { a1: number; a2: number; support: number; site: number }

beforeAll(async () => {
  const d = await demo(t.database.db)
  ids = { a1: d.agent1.id, a2: d.agent2.id, support: d.support.id, site: d.site.id }
  const base = {
    siteId: d.site.id,
    step: 1,
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    decision: { action: 'relay' },
  }
  const callerUid = randomUUID()
  const x1Uid = randomUUID()
  await t.database.db.insert(callRecords).values([
    {
      ...base,
      callId: 'm-caller',
      uid: callerUid,
      queueId: d.support.id,
      queueStartedAt: at('2025-04-07T13:00:00Z'),
      userId: ids.a1,
      deviceId: d.agent1.deviceId,
      startedAt: at('2025-04-07T13:00:00Z'),
      answeredAt: at('2025-04-07T13:00:30Z'),
      endedAt: at('2025-04-07T13:01:30Z'),
      answeredDuration: 60,
      totalDuration: 90,
      queueWait: 30,
      dialStatus: 200,
      decision: { action: 'relay', media: true },
    },
    {
      ...base,
      callId: 'm-leg',
      uid: randomUUID(),
      parentUid: callerUid,
      queueId: d.support.id,
      queueStartedAt: at('2025-04-07T13:00:00Z'),
      userId: ids.a1,
      offeredUserIds: [ids.a1],
      startedAt: at('2025-04-07T13:00:28Z'),
      answeredAt: at('2025-04-07T13:00:30Z'),
      endedAt: at('2025-04-07T13:01:30Z'),
      answeredDuration: 60,
      totalDuration: 62,
      queueWait: 30,
      dialStatus: 200,
    },
    {
      ...base,
      callId: 'x-1',
      uid: x1Uid,
      queueId: d.support.id,
      userId: ids.a1,
      startedAt: at('2025-04-07T14:00:00Z'),
      answeredAt: at('2025-04-07T14:00:05Z'),
      endedAt: at('2025-04-07T14:00:35Z'),
      answeredDuration: 30,
      dialStatus: 200,
    },
    {
      ...base,
      callId: 'x-2',
      uid: randomUUID(),
      direction: 'internal',
      callType: 1,
      kind: 'device',
      phone: '',
      callerUserId: ids.a1,
      userId: ids.a2,
      transferOfUid: x1Uid,
      transferType: 'blind',
      startedAt: at('2025-04-07T14:00:35Z'),
      answeredAt: at('2025-04-07T14:00:40Z'),
      endedAt: at('2025-04-07T14:01:20Z'),
      answeredDuration: 40,
      dialStatus: 200,
    },
  ])
})

async function today(user: 'agent1' | 'agent2' | 'supervisor', scope: 'me' | 'site'): Promise<DashboardToday['calls']> {
  const client = await signedIn(t.app, user)
  const res = await client.get(`/api/v1/dashboard/today/?${SP}&date=2025-04-07&scope=${scope}`)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as DashboardToday).calls
}

async function report(id: string): Promise<ReportPage> {
  const client = await signedIn(t.app, 'supervisor')
  const res = await client.get(`/api/v1/report/pages/${id}/?${SP}&date_from=2025-04-07&date_to=2025-04-07`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as ReportPage
}

describe('a queue caller answered through the media app', () => {
  it("counts once in the agent's day and the site's; the transfer as its own call", async () => {
    // agent1: M (inbound, answered, 60 s), x-1 (inbound, answered, 30 s), x-2 placed by them (outbound for the
    // agent, answered by agent2, 40 s). Before the fix M counted twice: inbound 3, talk 190.
    expect(await today('agent1', 'me')).toMatchObject({ inbound: 2, inbound_answered: 2, outbound: 1, outbound_answered: 1, internal: 0, talk_seconds: 130 })
    // agent2: x-2 only.
    expect(await today('agent2', 'me')).toMatchObject({ inbound: 1, inbound_answered: 1, outbound: 0, talk_seconds: 40 })
    // The site: M and x-1 inbound, x-2 internal.
    const site = await today('supervisor', 'site')
    expect(site).toMatchObject({ inbound: 2, inbound_answered: 2, outbound: 0, internal: 1, talk_seconds: 130 })
    const hours = Object.fromEntries(site.hours.map((h, i) => [i, [h.answered, h.unanswered]]).filter(([, c]) => (c as number[]).some(Boolean)))
    expect(hours).toEqual({ 10: [1, 0], 11: [2, 0] })
  })

  it('is one row of the calls report (its talk once), one call of the queue and of the agent', async () => {
    const calls = await report('calls')
    expect(calls.results.map((r) => r.call_id).sort()).toEqual(['m-caller', 'x-1', 'x-2'])
    expect(calls.results.find((r) => r.call_id === 'm-caller')).toMatchObject({ agent: 'Ana Agente', answered: true, wait: 30, talk: 60, duration: 90 })
    expect(calls.results.find((r) => r.call_id === 'x-2')).toMatchObject({ agent: 'Bruno Agente', talk: 40 })

    const queues = await report('queue-service-level')
    expect(queues.results).toEqual([expect.objectContaining({ calls_offered: 2, calls_answered: 2, abandoned: 0 })])

    const agents = await report('agent-productivity')
    const row = (agent: string) => agents.results.find((x) => x.agent === agent)!
    expect(row('Ana Agente')).toMatchObject({ calls_answered: 2, calls_placed: 1, talk: 130 })
    expect(row('Bruno Agente')).toMatchObject({ calls_answered: 1, calls_placed: 0, talk: 40 })

    const kpi = await report('kpi')
    expect(kpi.results.find((x) => x.agent === 'Ana Agente')).toMatchObject({ calls_offered: 2, calls_answered: 2, missed: 0, att: 45 })
  })

  it('counts the same from the pre-aggregated hours as from the raw rows', async () => {
    const seen = async () => {
      const calls = await report('calls')
      return { agents: (await report('agent-productivity')).results, totals: calls.totals, chart: calls.chart, count: calls.count }
    }
    const raw = await seen()
    // Every hour of the fixtures is dirty (the trigger); once refreshed, the pages read report_call_hours.
    expect(await refreshHours(t.database.db, { siteId: ids.site })).toBeGreaterThan(0)
    const hourly = await seen()
    expect(hourly).toEqual(raw)
    expect(hourly.agents.find((x) => x.agent === 'Ana Agente')).toMatchObject({ calls_answered: 2, calls_placed: 1, talk: 130 })
  })
})
