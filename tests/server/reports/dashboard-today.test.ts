import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DashboardToday } from '../../../contract/api/dashboard.ts'
import { activities, callRecords, chatRooms, pauseReports } from '../../../server/db/schema/index.ts'
import { demo } from '../call-control-helper.ts'
import { channel } from '../chat/chat-fixtures.ts'
import { signedIn, useTestApp } from '../helper.ts'

// GET /api/v1/dashboard/today/ against hand-counted fixtures: 3 March 2025 in São Paulo (UTC-3), so a call at 02:30 UTC
// on the 4th is still the 3rd's and one at 03:30 UTC is not; pauses crossing midnight are clipped to the day.

const t = useTestApp()
const DAY = '/api/v1/dashboard/today/?tz=America/Sao_Paulo&date=2025-03-03'
const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  const d = await demo(t.database.db)
  const a1 = d.agent1.id
  const a2 = d.agent2.id
  const step = (callId: string, values: Partial<typeof callRecords.$inferInsert> & { startedAt: Date }) => ({
    siteId: d.site.id,
    callId,
    step: 1,
    uid: randomUUID(),
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    decision: { action: 'relay' },
    ...values,
  })
  await t.database.db.insert(callRecords).values([
    // A: to agent1 at 10:00 local, answered, 60 s, then 20 s of after-service.
    step('dash-a', {
      userId: a1,
      startedAt: at('2025-03-03T13:00:00Z'),
      answeredAt: at('2025-03-03T13:00:05Z'),
      endedAt: at('2025-03-03T13:01:05Z'),
      answeredDuration: 60,
      afterServiceStartedAt: at('2025-03-03T13:01:05Z'),
      afterServiceDuration: 20,
    }),
    // B: to agent1 at 23:30 local (02:30 UTC on the 4th), not answered.
    step('dash-b', { userId: a1, startedAt: at('2025-03-04T02:30:00Z'), endedAt: at('2025-03-04T02:30:30Z') }),
    // C: to agent1 at 00:30 local on the 4th: another day.
    step('dash-c', { userId: a1, startedAt: at('2025-03-04T03:30:00Z'), answeredAt: at('2025-03-04T03:30:02Z'), answeredDuration: 5 }),
    // D: agent1 dials out at 11:00 local: the trunk answers, 30 s.
    step('dash-d', {
      direction: 'outbound',
      callType: 2,
      kind: 'trunk',
      callerUserId: a1,
      startedAt: at('2025-03-03T14:00:00Z'),
      answeredAt: at('2025-03-03T14:00:10Z'),
      answeredDuration: 30,
    }),
    // E: to agent2, answered, 40 s: the site's, not agent1's.
    step('dash-e', { userId: a2, startedAt: at('2025-03-03T13:30:00Z'), answeredAt: at('2025-03-03T13:30:03Z'), answeredDuration: 40 }),
    // F: a ring-all offer to both at 12:00 local, answered by agent2 (50 s): a missed offer for agent1.
    step('dash-f', {
      userId: a2,
      offeredUserIds: [a1, a2],
      startedAt: at('2025-03-03T15:00:00Z'),
      answeredAt: at('2025-03-03T15:00:04Z'),
      answeredDuration: 50,
    }),
    // G: an internal call from agent2 to agent1, unanswered (a second step of it rang agent1 too).
    step('dash-g', { direction: 'internal', callType: 1, kind: 'device', callerUserId: a2, userId: a1, startedAt: at('2025-03-03T16:00:00Z') }),
  ])
  const [afterReport] = await t.database.db
    .insert(pauseReports)
    .values([
      // After-service's own pause report: counted as after-service, not as a pause.
      {
        siteId: d.site.id,
        userId: a1,
        description: 'Pós-atendimento',
        startedAt: at('2025-03-03T13:01:05Z'),
        endedAt: at('2025-03-03T13:01:25Z'),
        duration: 20,
      },
    ])
    .returning()
  await t.database.db.update(callRecords).set({ afterServicePauseReportId: afterReport!.id }).where(eq(callRecords.callId, 'dash-a'))
  await t.database.db.insert(pauseReports).values([
    { siteId: d.site.id, userId: a1, description: 'Almoço', startedAt: at('2025-03-03T15:00:00Z'), endedAt: at('2025-03-03T16:00:00Z'), duration: 3600 },
    // 23:00 local on the 2nd to 00:30 local on the 3rd: 30 minutes of the 3rd.
    { siteId: d.site.id, userId: a1, description: 'Banheiro', startedAt: at('2025-03-03T02:00:00Z'), endedAt: at('2025-03-03T03:30:00Z'), duration: 5400 },
    { siteId: d.site.id, userId: a1, description: 'Banheiro', startedAt: at('2025-03-03T18:00:00Z'), endedAt: at('2025-03-03T18:05:00Z'), duration: 300 },
    { siteId: d.site.id, userId: a2, description: 'Almoço', startedAt: at('2025-03-03T16:00:00Z'), endedAt: at('2025-03-03T16:30:00Z'), duration: 1800 },
  ])
  const channelId = await channel(t.database.db, d.site.id)
  const room = (userId: number, values: Partial<typeof chatRooms.$inferInsert>) => {
    const contact = `5511${Math.floor(Math.random() * 1e9)}`
    return { uid: randomUUID(), siteId: d.site.id, channelId, contact, address: contact, phone: contact, title: 'Cliente', userId, state: 'active', ...values }
  }
  await t.database.db.insert(chatRooms).values([
    room(a1, { startedAt: at('2025-03-03T13:50:00Z'), answeredAt: at('2025-03-03T14:00:00Z'), endedAt: at('2025-03-03T14:20:00Z'), state: 'ended' }),
    room(a1, { startedAt: at('2025-03-03T14:50:00Z'), answeredAt: at('2025-03-03T15:00:00Z') }),
    room(a2, { startedAt: at('2025-03-03T14:50:00Z'), answeredAt: at('2025-03-03T15:00:00Z'), endedAt: at('2025-03-03T15:10:00Z'), state: 'ended' }),
  ])
  const activity = (userId: number, start: string, values: Partial<typeof activities.$inferInsert> = {}) => ({
    siteId: d.site.id,
    userId,
    start: at(start),
    subject: `Retorno ${start}`,
    destination: '11999990000',
    ...values,
  })
  await t.database.db.insert(activities).values([
    activity(a1, '2025-03-03T20:00:00Z'),
    activity(a1, '2025-03-01T12:00:00Z'),
    activity(a1, '2025-03-03T12:00:00Z', { done: true }),
    activity(a1, '2025-03-04T12:00:00Z'),
    activity(a2, '2025-03-03T19:00:00Z'),
  ])
})

describe('GET /api/v1/dashboard/today/', () => {
  it("counts the agent's own day in their time zone", async () => {
    const agent = await signedIn(t.app, 'agent1')
    const res = await agent.get(DAY)
    expect(res.statusCode).toBe(200)
    const day = res.json() as DashboardToday
    expect(day.from).toBe('2025-03-03T03:00:00.000Z')
    expect(day.to).toBe('2025-03-04T03:00:00.000Z')
    // A, B, F offered to agent1 and G rang them (inbound for the agent); A answered; D placed and answered.
    expect(day.calls).toMatchObject({ inbound: 4, inbound_answered: 1, outbound: 1, outbound_answered: 1, internal: 0, talk_seconds: 90 })
    expect(day.calls.hours).toHaveLength(24)
    const byHour = Object.fromEntries(day.calls.hours.map((h, i) => [i, [h.answered, h.unanswered]]).filter(([, c]) => (c as number[]).some(Boolean)))
    expect(byHour).toEqual({ 10: [1, 0], 11: [1, 0], 12: [0, 1], 13: [0, 1], 23: [0, 1] })
    expect(day.chats).toEqual({ answered: 2, finished: 1, open: 1 })
    expect(day.pauses.count).toBe(3)
    expect(day.pauses.seconds).toBe(3600 + 1800 + 300)
    expect(day.pauses.by_reason).toEqual([
      { description: 'Almoço', count: 1, seconds: 3600 },
      { description: 'Banheiro', count: 2, seconds: 2100 },
    ])
    expect(day.after_service).toEqual({ count: 1, seconds: 20 })
    expect(day.activities.due_today).toBe(1)
    expect(day.activities.overdue).toBe(1)
    expect(day.activities.next.map((a) => a.start)).toEqual(['2025-03-01T12:00:00.000Z', '2025-03-03T20:00:00.000Z'])
  })

  it("gives a supervisor the site's day", async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const day = (await supervisor.get(`${DAY}&scope=site`)).json() as DashboardToday
    expect(day.scope).toBe('site')
    // A, B, E, F from outside (A, E, F answered), D out, G internal; talk 60 + 30 + 40 + 50.
    expect(day.calls).toMatchObject({ inbound: 4, inbound_answered: 3, outbound: 1, outbound_answered: 1, internal: 1, talk_seconds: 180 })
    expect(day.chats).toEqual({ answered: 3, finished: 2, open: 1 })
    expect(day.pauses.by_reason).toEqual([
      { description: 'Almoço', count: 2, seconds: 5400 },
      { description: 'Banheiro', count: 2, seconds: 2100 },
    ])
    expect(day.activities).toMatchObject({ due_today: 2, overdue: 1 })
  })

  it('has 23 hours on the day clocks spring forward', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const day = (await agent.get('/api/v1/dashboard/today/?tz=America/New_York&date=2025-03-09')).json() as DashboardToday
    expect(day.calls.hours).toHaveLength(23)
    expect(day.from).toBe('2025-03-09T05:00:00.000Z')
    expect(day.to).toBe('2025-03-10T04:00:00.000Z')
  })

  it("refuses the site's day to an agent and bad input with 400", async () => {
    const agent = await signedIn(t.app, 'agent1')
    expect((await agent.get(`${DAY}&scope=site`)).statusCode).toBe(403)
    for (const query of ['tz=Mars/Olympus', 'date=2025-13-40', 'scope=everyone', `tz=${'A'.repeat(200)}`]) {
      const res = await agent.get(`/api/v1/dashboard/today/?${query}`)
      expect(res.statusCode, query).toBe(400)
    }
    // Today by default, in UTC.
    const today = (await agent.get('/api/v1/dashboard/today/')).json() as DashboardToday
    expect(today.date).toBe(new Date().toISOString().slice(0, 10))
  })
})
