import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportFilters, ReportId, ReportPage } from '../../../contract/api/reports.ts'
import type { Db } from '../../../server/db/client.ts'
import { callRecords } from '../../../server/db/schema/index.ts'
import { reportPage, resolveReport } from '../../../server/reports/engine.ts'
import { rebuildHours, refreshHours } from '../../../server/reports/hours.ts'
import { runQuery } from '../../../server/reports/builder.ts'
import type { BuilderQuery } from '../../../contract/api/builder.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { demo } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'

// The pre-aggregated call hours (server/reports/hours.ts) against hand-counted calls, and against the raw rows: the
// calls report (by day) and agent productivity (by agent) give the same figures from the hours as from call_records,
// in São Paulo (UTC-3), in UTC and in Kolkata (UTC+5:30, read raw), with calls crossing midnight; a call written
// after the last refresh (its hour dirty) counts at once; a refresh that dies or races a write leaves the hour dirty.
// Then KPI, queue service level and the builder's calls queries, the same way, with a queue call entering before
// midnight and rung after it, a later step of a call in another hour, a queue's target changed, Kolkata and a DST day.

const t = useTestApp()
const at = (iso: string) => new Date(iso)
let db: Db
let site: number
let a1: number
let a2: number
let support: number

type Step = Partial<typeof callRecords.$inferInsert> & { callId: string; step: number; startedAt: Date }
const stepRow = (s: Step) => ({
  siteId: site,
  uid: randomUUID(),
  direction: 'inbound',
  callType: 20,
  kind: 'queue',
  phone: '5511999990000',
  decision: {},
  ...s,
})

async function page(id: ReportId, filters: Partial<ReportFilters>, hourly: boolean) {
  const resolved = await resolveReport(db, site, id, { tz: 'America/Sao_Paulo', ...filters } as ReportFilters, 'en-US', new Date(), { hourly })
  return { hourly: resolved.ctx.hourly, page: await reportPage(db, resolved, 'en-US', { offset: 0, limit: 25 }) }
}
const totals = (r: ReportPage) => Object.fromEntries(r.totals.map((x) => [x.key, x.value]))
const figures = (r: ReportPage) => ({ totals: totals(r), chart: r.chart, count: r.count, rows: r.results })

const THREE_DAYS = { date_from: '2025-03-02', date_to: '2025-03-04' }

/** The calls report and agent productivity, from the hours and from the raw rows: the same figures. */
async function both(id: ReportId, filters: Partial<ReportFilters>) {
  const hours = await page(id, filters, true)
  const raw = await page(id, filters, false)
  expect(figures(hours.page)).toEqual(figures(raw.page))
  return hours
}

beforeAll(async () => {
  db = t.database.db
  const d = await demo(db)
  site = d.site.id
  a1 = d.agent1.id
  a2 = d.agent2.id
  support = d.support.id
  // Hand-counted (São Paulo days): the 2nd C5; the 3rd C1, C4 and C2 (23:50 to 00:10); the 4th C3.
  await db.insert(callRecords).values([
    // C1: rings agent1 20 s, agent2 answers after 25 s in the queue, talks 60 s.
    stepRow({
      callId: 'h-c1',
      step: 1,
      queueId: support,
      userId: a1,
      startedAt: at('2025-03-03T12:00:00Z'),
      queueStartedAt: at('2025-03-03T12:00:00Z'),
      endedAt: at('2025-03-03T12:00:20Z'),
      dialStatus: 480,
    }),
    stepRow({
      callId: 'h-c1',
      step: 2,
      queueId: support,
      userId: a2,
      startedAt: at('2025-03-03T12:00:20Z'),
      queueStartedAt: at('2025-03-03T12:00:00Z'),
      answeredAt: at('2025-03-03T12:00:25Z'),
      endedAt: at('2025-03-03T12:01:25Z'),
      answeredDuration: 60,
      dialStatus: 200,
    }),
    // C2: 23:50 local on the 3rd (02:50 UTC on the 4th), agent1 answers after 10 s and talks past midnight (1190 s).
    stepRow({
      callId: 'h-c2',
      step: 1,
      queueId: support,
      userId: a1,
      startedAt: at('2025-03-04T02:50:00Z'),
      queueStartedAt: at('2025-03-04T02:50:00Z'),
      answeredAt: at('2025-03-04T02:50:10Z'),
      endedAt: at('2025-03-04T03:10:00Z'),
      answeredDuration: 1190,
      dialStatus: 200,
    }),
    // C3: 00:05 local on the 4th, abandoned after 60 s.
    stepRow({
      callId: 'h-c3',
      step: 1,
      queueId: support,
      userId: a1,
      startedAt: at('2025-03-04T03:05:00Z'),
      queueStartedAt: at('2025-03-04T03:05:00Z'),
      endedAt: at('2025-03-04T03:06:00Z'),
      dialStatus: 487,
    }),
    // C4: agent1 places a call at 12:00 local, answered, 30 s.
    stepRow({
      callId: 'h-c4',
      step: 1,
      direction: 'outbound',
      kind: 'trunk',
      callType: 2,
      callerUserId: a1,
      startedAt: at('2025-03-03T15:00:00Z'),
      answeredAt: at('2025-03-03T15:00:05Z'),
      endedAt: at('2025-03-03T15:00:35Z'),
      answeredDuration: 30,
      dialStatus: 200,
    }),
    // C5: 20:30 local on the 2nd (23:30 UTC), internal to agent2, not answered.
    stepRow({
      callId: 'h-c5',
      step: 1,
      direction: 'internal',
      kind: 'device',
      callType: 1,
      userId: a2,
      startedAt: at('2025-03-02T23:30:00Z'),
      endedAt: at('2025-03-02T23:30:30Z'),
      dialStatus: 480,
    }),
  ])
})

const name = (r: ReportPage, agent: string) => r.results.find((row) => String(row.agent).startsWith(agent))

describe('the hours against hand-counted calls and the raw rows', () => {
  it('every write marked its hours dirty; a refresh cleans them and the table holds the calls', async () => {
    const dirty = await db.execute(sql`select count(*)::int as n from report_hours where site_id = ${site} and dirty`)
    expect((dirty as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(5)
    expect(await refreshHours(db, { siteId: site })).toBe(5)
    const sums = await db.execute(sql`select sum(calls)::int as calls, sum(calls_answered)::int as answered from report_call_hours where site_id = ${site}`)
    expect((sums as unknown as { rows: unknown[] }).rows[0]).toEqual({ calls: 5, answered: 3 })
  })

  it('the calls report by São Paulo day: a call from 23:50 to 00:10 is the first day’s', async () => {
    const { hourly, page: r } = await both('calls', THREE_DAYS)
    expect(hourly).toBe(true)
    expect(totals(r)).toEqual({ calls: 5, calls_answered: 3, calls_unanswered: 2, average_wait: 32, average_talk: 427 })
    expect(r.chart.labels).toEqual(['2025-03-02', '2025-03-03', '2025-03-04'])
    expect(r.chart.series.map((s) => s.values)).toEqual([
      [0, 3, 0],
      [1, 0, 1],
    ])
  })

  it('the same calls by UTC day', async () => {
    const { hourly, page: r } = await both('calls', { tz: 'UTC', date_from: '2025-03-03', date_to: '2025-03-03' })
    expect(hourly).toBe(true)
    expect(totals(r)).toEqual({ calls: 2, calls_answered: 2, calls_unanswered: 0, average_wait: 25, average_talk: 45 })
  })

  it('Kolkata (UTC+5:30): days start on a half hour, so the report reads the raw rows', async () => {
    const { hourly, page: r } = await both('calls', { tz: 'Asia/Kolkata', date_from: '2025-03-03', date_to: '2025-03-03' })
    expect(hourly).toBe(false)
    expect(totals(r)).toMatchObject({ calls: 3, calls_answered: 2, calls_unanswered: 1 })
  })

  it('agent productivity from the hours: answered, placed and talk per agent', async () => {
    const { page: r } = await both('agent-productivity', THREE_DAYS)
    expect(name(r, 'Ana')).toMatchObject({ calls_answered: 1, calls_placed: 1, talk: 1220, average_talk: 610 })
    expect(r.results).toHaveLength(2)
    expect(totals(r)).toMatchObject({ agents: 2, calls_answered: 2, calls_placed: 1, talk: 1280 })
  })

  it('a filter the hours cannot answer (the queue) reads the raw rows, with the same figures', async () => {
    const { page: r } = await both('calls', { ...THREE_DAYS, queue: support })
    expect(totals(r)).toMatchObject({ calls: 3, calls_answered: 2 })
  })

  it('the page reads the table: a tampered bucket shows, and a rebuild of the period repairs it', async () => {
    await db.execute(sql`update report_call_hours set calls = calls + 100 where site_id = ${site} and hour = '2025-03-03T12:00:00Z'`)
    expect(totals((await page('calls', THREE_DAYS, true)).page).calls).toBe(105)
    expect(await rebuildHours(db, site, at('2025-03-02T03:00:00Z'), at('2025-03-05T03:00:00Z'))).toBe(5)
    expect(totals((await page('calls', THREE_DAYS, true)).page).calls).toBe(5)
  })
})

describe('writes after the refresh, crashes and races', () => {
  it('a call written after the last refresh counts at once (its hour dirty, read raw), and the same after a refresh', async () => {
    // The process dies right after the call write, before any refresh: the hour was marked in the write's own transaction.
    await db.insert(callRecords).values(
      stepRow({
        callId: 'h-c6',
        step: 1,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-03T18:30:00Z'),
        queueStartedAt: at('2025-03-03T18:30:00Z'),
        answeredAt: at('2025-03-03T18:30:04Z'),
        endedAt: at('2025-03-03T18:31:00Z'),
        answeredDuration: 56,
        dialStatus: 200,
      }),
    )
    const { page: before } = await both('calls', THREE_DAYS)
    expect(totals(before)).toMatchObject({ calls: 6, calls_answered: 4 })
    // A later step of an old call (a transfer's) marks its step 1's hour too.
    await refreshHours(db, { siteId: site })
    await db.insert(callRecords).values(
      stepRow({
        callId: 'h-c3',
        step: 2,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-04T03:06:00Z'),
        answeredAt: at('2025-03-04T03:06:02Z'),
        endedAt: at('2025-03-04T03:07:00Z'),
        answeredDuration: 58,
        dialStatus: 200,
      }),
    )
    const dirty = await db.execute(sql`select hour from report_hours where site_id = ${site} and dirty order by hour`)
    expect((dirty as unknown as { rows: { hour: unknown }[] }).rows.map((r) => new Date(r.hour as string).toISOString())).toEqual(['2025-03-04T03:00:00.000Z'])
    const { page: after } = await both('calls', THREE_DAYS)
    expect(totals(after)).toMatchObject({ calls: 6, calls_answered: 5, calls_unanswered: 1 })
    await refreshHours(db, { siteId: site })
    const { page: refreshed } = await both('calls', THREE_DAYS)
    expect(totals(refreshed)).toEqual(totals(after))
  })

  it('a refresh that dies before its commit leaves the hours dirty and the figures right', async () => {
    await db.execute(sql`update call_records set answered_duration = 70 where site_id = ${site} and call_id = 'h-c1' and step = 2`)
    await expect(
      refreshHours(db, {
        siteId: site,
        afterCompute: async () => {
          throw new Error('killed')
        },
      }),
    ).rejects.toThrow('killed')
    const { page: r } = await both('agent-productivity', THREE_DAYS)
    expect(totals(r)).toMatchObject({ talk: 1290 + 58 + 56 })
    expect(await refreshHours(db, { siteId: site })).toBe(1)
    await both('agent-productivity', THREE_DAYS)
  })

  it('a write that lands while a refresh computes keeps its hour dirty (the version moved)', async () => {
    await db.execute(sql`update call_records set answered_duration = 80 where site_id = ${site} and call_id = 'h-c1' and step = 2`)
    const cleaned = await refreshHours(db, {
      siteId: site,
      afterCompute: async (tx) => {
        await tx.execute(sql`update call_records set answered_duration = 90 where site_id = ${site} and call_id = 'h-c1' and step = 2`)
      },
    })
    expect(cleaned).toBe(0)
    const { page: r } = await both('agent-productivity', THREE_DAYS)
    expect(totals(r)).toMatchObject({ talk: 1310 + 58 + 56 })
    expect(await refreshHours(db, { siteId: site })).toBe(1)
    const { page: again } = await both('agent-productivity', THREE_DAYS)
    expect(totals(again)).toEqual(totals(r))
  })

  it("another site's calls never reach this site's hours", async () => {
    const other = await createSite(db, { domain: `hours-${randomUUID().slice(0, 8)}.example`, name: 'Other' })
    await db.insert(callRecords).values({
      ...stepRow({ callId: 'h-x', step: 1, startedAt: at('2025-03-03T12:10:00Z'), answeredAt: at('2025-03-03T12:10:01Z'), answeredDuration: 5 }),
      siteId: other.id,
    })
    await refreshHours(db)
    const { page: r } = await both('calls', THREE_DAYS)
    expect(totals(r).calls).toBe(6)
  })

  it('the report page route answers from the hours with the same figures', async () => {
    const client = await signedIn(t.app, 'supervisor')
    const res = await client.get('/api/v1/report/pages/calls/?tz=America/Sao_Paulo&date_from=2025-03-02&date_to=2025-03-04')
    expect(res.statusCode, res.body).toBe(200)
    const { totals: got, chart, count } = figures(res.json() as ReportPage)
    const raw = figures((await page('calls', THREE_DAYS, false)).page)
    expect({ got, values: chart.series.map((s) => s.values), count }).toEqual({
      got: raw.totals,
      values: raw.chart.series.map((s) => s.values),
      count: raw.count,
    })
  })
})

/** The KPI (by day and agent) and the queue service level, from the hours and raw, must agree; plus the builder. */
async function queueReports(filters: Partial<ReportFilters>) {
  const kpi = await both('kpi', filters)
  const levels = await both('queue-service-level', filters)
  return { kpi: kpi.page, levels: levels.page, hourly: kpi.hourly }
}

const NOW = new Date('2025-03-10T12:00:00Z')
async function query(q: Partial<BuilderQuery>, tz = 'America/Sao_Paulo') {
  const full = { measure: 'count', group_by: 'none', period: 'last_30_days', limit: 30, ...q } as BuilderQuery
  const hours = await runQuery(db, site, full, tz, 'en-US', NOW, { hourly: true })
  const raw = await runQuery(db, site, full, tz, 'en-US', NOW, { hourly: false })
  expect(hours).toEqual(raw)
  return hours
}

describe('KPI, queue service level and the builder from the hours', () => {
  beforeAll(async () => {
    await db.execute(sql`update pabx_queues set service_level = 20 where id = ${support}`)
    await refreshHours(db, { siteId: site })
  })

  it('KPI and queue service level: hand-counted, the same from the hours as raw', async () => {
    const { kpi, levels, hourly } = await queueReports(THREE_DAYS)
    expect(hourly).toBe(true)
    // Support received C1 (25 s), C2 (10 s), C3 (a later step answered it 2 s after it was rung, 62 s after it entered)
    // and C6 (4 s): all answered; within 20 s: C2, C3 (its own step's wait) and C6.
    expect(totals(levels)).toMatchObject({ calls_offered: 4, calls_answered: 4, abandoned: 0, service_level: 75 })
    expect(totals(kpi)).toMatchObject({ calls_offered: 4, calls_answered: 4, abandoned: 0, service_level: 75 })
    expect(kpi.results.map((r) => [r.day, r.agent, r.calls_offered, r.missed])).toEqual([
      ['2025-03-03', 'Ana Agente', 1, 1],
      ['2025-03-03', 'Bruno Agente', 2, 0],
      ['2025-03-04', 'Ana Agente', 0, 1],
      ['2025-03-04', 'Bruno Agente', 1, 0],
    ])
  })

  it('a queue call entering before midnight and rung after it: the day it entered, in a report of either day', async () => {
    await db.insert(callRecords).values([
      stepRow({
        callId: 'h-q1',
        step: 1,
        queueId: support,
        userId: a1,
        startedAt: at('2025-03-05T03:00:05Z'),
        queueStartedAt: at('2025-03-05T02:59:50Z'),
        endedAt: at('2025-03-05T03:00:25Z'),
        dialStatus: 480,
      }),
      stepRow({
        callId: 'h-q1',
        step: 2,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-05T03:00:25Z'),
        queueStartedAt: at('2025-03-05T02:59:50Z'),
        answeredAt: at('2025-03-05T03:00:30Z'),
        endedAt: at('2025-03-05T03:01:10Z'),
        answeredDuration: 40,
        dialStatus: 200,
      }),
    ])
    await refreshHours(db, { siteId: site })
    const day5 = await queueReports({ date_from: '2025-03-05', date_to: '2025-03-05' })
    expect(day5.hourly).toBe(true)
    // Its steps started on the 5th (São Paulo), so the 5th's report holds it — on the 4th, the day it entered the queue.
    expect(day5.kpi.results.map((r) => [r.day, r.agent, r.calls_answered, r.service_level])).toEqual([
      ['2025-03-04', 'Ana Agente', 0, null],
      ['2025-03-04', 'Bruno Agente', 1, 0],
    ])
    expect(totals(day5.levels)).toMatchObject({ calls_offered: 1, service_level: 0 })
    const both4and5 = await queueReports({ date_from: '2025-03-04', date_to: '2025-03-05' })
    expect(totals(both4and5.kpi)).toMatchObject({ calls_offered: 2, calls_answered: 2 })
  })

  it("a later step in another hour dirties the hour where its call's queue figures are (every step's hour of the call)", async () => {
    await db.insert(callRecords).values([
      stepRow({ callId: 'h-q2', step: 1, kind: 'ivr', startedAt: at('2025-03-03T16:50:00Z'), endedAt: at('2025-03-03T17:00:00Z') }),
      stepRow({
        callId: 'h-q2',
        step: 2,
        queueId: support,
        userId: a1,
        startedAt: at('2025-03-03T17:00:10Z'),
        queueStartedAt: at('2025-03-03T17:00:00Z'),
        endedAt: at('2025-03-03T17:00:30Z'),
        dialStatus: 480,
      }),
    ])
    await refreshHours(db, { siteId: site })
    expect(totals((await queueReports(THREE_DAYS)).levels)).toMatchObject({ calls_offered: 5, calls_answered: 4, abandoned: 1 })
    await db.insert(callRecords).values(
      stepRow({
        callId: 'h-q2',
        step: 3,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-03T18:00:05Z'),
        queueStartedAt: at('2025-03-03T17:00:00Z'),
        answeredAt: at('2025-03-03T18:00:10Z'),
        endedAt: at('2025-03-03T18:01:00Z'),
        answeredDuration: 50,
        dialStatus: 200,
      }),
    )
    const dirty = await db.execute(sql`select hour from report_hours where site_id = ${site} and dirty order by hour`)
    expect((dirty as unknown as { rows: { hour: unknown }[] }).rows.map((r) => new Date(r.hour as string).toISOString())).toEqual([
      '2025-03-03T16:00:00.000Z',
      '2025-03-03T17:00:00.000Z',
      '2025-03-03T18:00:00.000Z',
    ])
    expect(totals((await queueReports(THREE_DAYS)).levels)).toMatchObject({ calls_offered: 5, calls_answered: 5, abandoned: 0 })
    await refreshHours(db, { siteId: site })
    const { kpi } = await queueReports(THREE_DAYS)
    expect(totals(kpi)).toMatchObject({ calls_offered: 5, calls_answered: 5 })
  })

  it("a queue's target changed: its hours are dirty (read raw), then rebuilt with the new target", async () => {
    await db.execute(sql`update pabx_queues set service_level = 30 where id = ${support}`)
    const dirty = await db.execute(sql`select count(*)::int as n from report_hours where site_id = ${site} and dirty`)
    expect((dirty as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThan(0)
    // Within 30 s now: C1 (25 s) too.
    expect(totals((await queueReports(THREE_DAYS)).levels)).toMatchObject({ calls_offered: 5, service_level: 80 })
    await refreshHours(db, { siteId: site })
    expect(totals((await queueReports(THREE_DAYS)).kpi)).toMatchObject({ service_level: 80 })
  })

  it('Kolkata reads raw; a DST day (New York, 23 hours) from the hours', async () => {
    expect((await queueReports({ tz: 'Asia/Kolkata', ...THREE_DAYS })).hourly).toBe(false)
    await db.insert(callRecords).values([
      // 01:30 EST and 03:30 EDT on 9 March (the clocks skip 02:00–03:00), 23:30 EDT on the 9th.
      stepRow({
        callId: 'h-ny1',
        step: 1,
        queueId: support,
        userId: a1,
        startedAt: at('2025-03-09T06:30:00Z'),
        queueStartedAt: at('2025-03-09T06:30:00Z'),
        answeredAt: at('2025-03-09T06:30:05Z'),
        endedAt: at('2025-03-09T06:31:00Z'),
        answeredDuration: 55,
        dialStatus: 200,
      }),
      stepRow({
        callId: 'h-ny2',
        step: 1,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-09T07:30:00Z'),
        queueStartedAt: at('2025-03-09T07:30:00Z'),
        endedAt: at('2025-03-09T07:31:00Z'),
        dialStatus: 487,
      }),
      stepRow({
        callId: 'h-ny3',
        step: 1,
        queueId: support,
        userId: a2,
        startedAt: at('2025-03-10T03:30:00Z'),
        queueStartedAt: at('2025-03-10T03:30:00Z'),
        answeredAt: at('2025-03-10T03:30:45Z'),
        endedAt: at('2025-03-10T03:32:00Z'),
        answeredDuration: 75,
        dialStatus: 200,
      }),
    ])
    await refreshHours(db, { siteId: site })
    const ny = { tz: 'America/New_York', date_from: '2025-03-09', date_to: '2025-03-10' }
    const { kpi, levels, hourly } = await queueReports(ny)
    expect(hourly).toBe(true)
    expect(kpi.chart.labels).toEqual(['2025-03-09', '2025-03-10'])
    expect(kpi.chart.series.map((x) => x.values)).toEqual([
      [2, 0],
      [1, 0],
    ])
    expect(totals(levels)).toMatchObject({ calls_offered: 3, calls_answered: 2, abandoned: 1, service_level: 33.3 })
    const byDay = await query({ dataset: 'calls', group_by: 'day', period: 'last_7_days' }, 'America/New_York')
    expect(byDay.groups.find((g) => g.label === '2025-03-09')?.value).toBe(3)
  })

  it('the builder: calls by day, hour and agent, sums and averages of wait and talk, and the queues — the same from the hours', async () => {
    expect((await query({ dataset: 'calls', group_by: 'day' })).total).toBe(11)
    await query({ dataset: 'calls', group_by: 'hour', measure: 'sum', measure_field: 'talk' })
    const wait = await query({ dataset: 'calls', group_by: 'agent', measure: 'avg', measure_field: 'wait' })
    expect(wait.groups.length).toBeGreaterThan(1)
    await query({ dataset: 'calls', group_by: 'none', measure: 'sum', measure_field: 'wait' })
    await query({ dataset: 'calls', group_by: 'agent', measure: 'avg', measure_field: 'talk' }, 'UTC')
    // Not from the hours (a filter, the duration), the same path both ways.
    await query({ dataset: 'calls', group_by: 'day', queue: support })
    await query({ dataset: 'calls', group_by: 'agent', measure: 'max', measure_field: 'duration' })
    const queues = await query({ dataset: 'queues', group_by: 'queue', measure: 'sum', measure_field: 'calls_offered' })
    expect(queues.total).toBe(9)
    await query({ dataset: 'agents', group_by: 'agent', measure: 'sum', measure_field: 'calls_answered' })
  })
})
