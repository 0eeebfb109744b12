import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { callRecords, pabxQueuesMembers, serviceTeamPermissions } from '../../server/db/schema/index.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { recordingsDir } from '../../server/telephony/control/routes.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { buildPcap } from './call-control-pcap.ts'
import { demo, deviceOf, failureOf, fromDevice, fromTrunk, newCallId, setAgent, stepsOf } from './call-control-helper.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'
import { escapedCallId } from '../../server/telephony/control/recordings/store.ts'

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
const T0 = Date.parse('2025-03-03T13:00:00Z')
let clock = new Date(T0)

const progress = (callId: string, state: string, at: number, extra: Record<string, unknown> = {}) =>
  control.event({
    event: 'call',
    call_id: callId,
    state,
    code: 0,
    reason: '',
    by: '',
    ts: at,
    ...extra,
  })

let queueDid = ''
const calls: Record<string, string> = {}

beforeAll(async () => {
  d = await demo(t.database.db)
  control = createCallControl({
    db: t.database.db,
    now: () => clock,
    random: () => 0,
  })
  await setAgent(t.database.db, d.agent1, 'not_inuse')
  await setAgent(t.database.db, d.agent2, 'not_inuse')
  await t.database.db.update(pabxQueuesMembers).set({ penalty: 0 })
  const inbound = await d.seed('pabx.inbound-routes', {
    description: 'Suporte direto',
    destination: { app: 'queue', appdata: d.support.id },
  })
  queueDid = '551160000000'
  await d.seed('pabx.numbers', {
    number: queueDid,
    description: 'Suporte',
    inbound_route: inbound,
  })
})

describe('call records from call events', () => {
  it('an answered queue call: ringing, answer, hang-up by the caller, with wait and served times', async () => {
    const callId = (calls.answered = newCallId())
    await control.route(fromTrunk(d.trunk.id, '11987654321', queueDid, callId))
    progress(callId, 'ringing', T0 + 1000)
    progress(callId, 'answered', T0 + 8000, { code: 200, reason: 'OK' })
    progress(callId, 'ended', T0 + 68_000, { code: 200, by: 'caller' })
    // Repeated events change nothing.
    progress(callId, 'answered', T0 + 9000, { code: 200 })
    progress(callId, 'ended', T0 + 99_000, { code: 200, by: 'callee' })
    await control.settled()
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({
      dialStatus: 200,
      totalDuration: 68,
      answeredDuration: 60,
      queueWait: 8,
      hungUpBy: 'caller',
      kind: 'queue',
      queueId: d.support.id,
    })
    expect(step!.ringingAt?.getTime()).toBe(T0 + 1000)
    expect(step!.answeredAt?.getTime()).toBe(T0 + 8000)
    expect(step!.endedAt?.getTime()).toBe(T0 + 68_000)
  })

  it('a busy member, then the next one cancelled by the caller', async () => {
    const callId = (calls.cancelled = newCallId())
    await control.route(fromTrunk(d.trunk.id, '11912345678', queueDid, callId))
    await control.failure(failureOf(callId, 486, 'Busy Here'))
    progress(callId, 'ringing', T0 + 3000)
    progress(callId, 'ended', T0 + 7000, {
      code: 487,
      reason: 'Request Terminated',
      by: 'caller',
    })
    await control.settled()
    const steps = await stepsOf(t.database.db, callId)
    expect(steps.map((s) => [s.dialStatus, s.dialStatusText, s.answeredAt, s.hungUpBy])).toEqual([
      [486, 'Busy Here', null, null],
      [487, 'Request Terminated', null, 'caller'],
    ])
    expect(steps[1]!.totalDuration).toBe(7)
  })

  it('a failed internal call', async () => {
    const callId = (calls.failed = newCallId())
    await control.route(fromDevice('10001', '10002', callId))
    progress(callId, 'failed', T0 + 2000, {
      code: 503,
      reason: 'Service Unavailable',
    })
    await control.settled()
    const [step] = await stepsOf(t.database.db, callId)
    expect(step).toMatchObject({
      dialStatus: 503,
      dialStatusText: 'Service Unavailable',
      totalDuration: 2,
      hungUpBy: null,
    })
    expect(await t.database.db.$count(callRecords, eq(callRecords.callId, callId))).toBe(1)
  })
})

describe('the report API', () => {
  it('lists calls for supervisors with filters, one row per call', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const all = await supervisor.get('/api/v1/report/calls/')
    expect(all.statusCode).toBe(200)
    const body = all.json()
    expect(body.count).toBe(3)
    const answered = body.results.find((r: { call_id: string }) => r.call_id === calls.answered)
    expect(answered).toMatchObject({
      call_type: 20,
      phone: '11987654321',
      phone_type: 'mobile',
      area_code: '11',
      dial_status: 200,
      total_duration: 68,
      total_answer_duration: 60,
      queue: d.support.id,
      queue_description: 'Suporte',
      did: queueDid,
      hung_up_by: 'caller',
      trunk: d.trunk.id,
    })
    const cancelled = body.results.find((r: { call_id: string }) => r.call_id === calls.cancelled)
    expect(cancelled).toMatchObject({ dial_status: 487, total_duration: 7 })
    const busy = await supervisor.get('/api/v1/report/calls/?dial_status=487,503')
    expect(
      busy
        .json()
        .results.map((r: { call_id: string }) => r.call_id)
        .sort(),
    ).toEqual([calls.cancelled, calls.failed].sort())
    expect((await supervisor.get('/api/v1/report/calls/?call_type=31')).json().count).toBe(1)
    expect((await supervisor.get('/api/v1/report/calls/?search=9123')).json().results[0].call_id).toBe(calls.cancelled)
    expect((await supervisor.get(`/api/v1/report/calls/?queue=${d.support.id}&limit=1`)).json()).toMatchObject({ count: 2 })
    expect((await supervisor.get('/api/v1/report/calls/?start_date=2025-03-04')).json().count).toBe(0)
    expect((await supervisor.get('/api/v1/report/calls/?start_date=2025-03-03&end_date=2025-03-03')).json().count).toBe(3)
    expect((await supervisor.get('/api/v1/report/calls/?dial_status=abc')).statusCode).toBe(400)
    const steps = await supervisor.get(`/api/v1/report/call-steps/${encodeURIComponent(calls.cancelled!)}/`)
    expect(steps.json().results.map((s: { step: number; dial_status: number }) => [s.step, s.dial_status])).toEqual([
      [1, 486],
      [2, 487],
    ])
  })

  it('shows agents only their own calls', async () => {
    // Longest idle: agent1 (first in the list) took the answered call; agent2 (idle longer then) was busy on the next,
    // which went on to agent1.
    expect((await stepsOf(t.database.db, calls.answered!))[0]!.userId).toBe(d.agent1.id)
    expect((await stepsOf(t.database.db, calls.cancelled!)).map((s) => s.userId)).toEqual([d.agent2.id, d.agent1.id])
    const ids = (body: { results: { call_id: string }[] }) => body.results.map((r) => r.call_id).sort()
    const agent1 = await signedIn(t.app, 'agent1')
    expect(ids((await agent1.get('/api/v1/report/calls/')).json())).toEqual([calls.answered, calls.cancelled, calls.failed].sort())
    const agent2 = await signedIn(t.app, 'agent2')
    expect(ids((await agent2.get('/api/v1/report/calls/')).json())).toEqual([calls.cancelled, calls.failed].sort())
    expect((await agent2.get(`/api/v1/report/call-steps/${encodeURIComponent(calls.answered!)}/`)).statusCode).toBe(404)
    expect((await agent2.get(`/api/v1/report/call-steps/${encodeURIComponent(calls.cancelled!)}/`)).statusCode).toBe(200)
    expect((await new TestClient(t.app).get('/api/v1/report/calls/')).statusCode).toBe(401)
  })

  it('keeps every site to its own calls', async () => {
    const site = await createSite(t.database.db, {
      domain: 'outra.example',
      name: 'Outra',
    })
    const group = await createGroup(t.database.db, site.id, 'Sup', [PERMISSIONS.viewSoftphone, PERMISSIONS.viewReports, PERMISSIONS.downloadMonitorFile])
    await createUser(t.database.db, {
      siteId: site.id,
      username: 'boss',
      password: 'outra2025x',
      groupIds: [group],
    })
    const boss = new TestClient(t.app, { host: 'outra.example' })
    expect((await boss.login('boss', 'outra2025x')).statusCode).toBe(200)
    expect((await boss.get('/api/v1/report/calls/')).json()).toEqual({
      count: 0,
      results: [],
    })
    expect((await boss.get(`/api/v1/report/call-steps/${encodeURIComponent(calls.answered!)}/`)).statusCode).toBe(404)
    expect((await boss.get(`/api/v1/report/recordings/${encodeURIComponent(calls.answered!)}/`)).statusCode).toBe(404)
  })

  it('streams a recording as mp3 (attachment with download=1), 404 with a detail when there is none', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const url = `/api/v1/report/recordings/${encodeURIComponent(calls.answered!)}/`
    const none = await supervisor.get(url)
    expect(none.statusCode).toBe(404)
    expect(none.json().detail).toMatch(/gravação/)
    const dir = path.join(recordingsDir(t.config.dataDir), 'pcaps')
    await mkdir(dir, { recursive: true })
    await writeFile(
      path.join(dir, `${escapedCallId(calls.answered!)}-0001.pcap`),
      buildPcap([
        {
          ssrc: 1,
          payloadType: 0,
          hz: 440,
          startSeconds: 0,
          seconds: 1,
          firstTimestamp: 0,
        },
      ]),
    )
    const played = await supervisor.get(url)
    expect(played.statusCode).toBe(200)
    expect(played.headers['content-type']).toBe('audio/mpeg')
    expect(played.headers['content-disposition']).toMatch(/^inline/)
    expect(played.rawPayload.length).toBeGreaterThan(1000)
    const downloaded = await supervisor.get(`${url}?download=1&extension=mp3`)
    expect(downloaded.headers['content-disposition']).toMatch(/^attachment; filename=".*\.mp3"/)
    // Agents lack download_monitor_file.
    expect((await (await signedIn(t.app, 'agent1')).get(url)).statusCode).toBe(403)
  })
})

describe('webphone lookups', () => {
  it("list the webphone routes of the caller's team (the settings list stays admin-only)", async () => {
    const agent1 = await signedIn(t.app, 'agent1')
    const routes = await agent1.get('/api/v1/pabx/outbound-routes/?webphone=true')
    expect(routes.statusCode).toBe(200)
    expect(routes.json()).toEqual({
      count: 1,
      results: [{ id: expect.any(Number), description: 'Saída Brasil' }],
    })
    expect((await agent1.get('/api/v1/pabx/outbound-routes/')).statusCode).toBe(403)
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get('/api/v1/pabx/outbound-routes/')).json().results[0]).toHaveProperty('dial_patterns')
  })

  it('answer the destinations an endpoint may transfer to or call', async () => {
    const agent1 = await signedIn(t.app, 'agent1')
    const queues = (await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10001/queue/transfer/')).json()
    expect(queues.results.map((r: { description: string }) => r.description).sort()).toEqual(['Suporte', 'Vendas'])
    const devices = (await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10001/pjsip/call/')).json()
    expect(devices.results).toEqual([
      {
        id: (await deviceOf(t.database.db, '10002')).id,
        description: expect.any(String),
        app: 'pjsip',
        appdata: expect.any(String),
      },
    ])
    // Team rules: only Vendas may be a transfer target; calling it is not allowed.
    await t.database.db.insert(serviceTeamPermissions).values({
      siteId: d.site.id,
      teamId: d.agent1.teamId!,
      destinationApp: 'queue',
      destinationAppdata: String(d.sales.id),
      allowCall: false,
      allowTransfer: true,
    })
    const transfer = (await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10001/queue/transfer/')).json()
    expect(transfer.results.map((r: { id: number }) => r.id)).toEqual([d.sales.id])
    expect((await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10001/queue/call/')).json()).toEqual({ count: 0, results: [] })
    // Someone else's endpoint, or an unknown app.
    expect((await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10002/queue/call/')).statusCode).toBe(404)
    expect((await agent1.get('/api/v1/pabx/action/endpoint/permission-apps/10001/number/call/')).statusCode).toBe(400)
  })
})
