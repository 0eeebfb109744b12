import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { AFTER_SERVICE_GRACE_SECONDS } from '../../contract/codes/after-service.ts'
import { callRecords, pauseReports, teams } from '../../server/db/schema/index.ts'
import { expireAfterServices, sweepAfterServices, usersInAfterService } from '../../server/telephony/control/after-service.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { demo, finishAfterServices, fromDevice, fromTrunk, newCallId, setAgent, stepsOf } from './call-control-helper.ts'
import { signedIn, useTestApp } from './helper.ts'
import type { TestClient } from './helper.ts'
import { listen, openSocket, sessionCookie } from './realtime/ws-helper.ts'

// After-service on the server (spec 000 §4, §7): born with the call's end, whoever hung up — the ACD offers no queue
// call to an agent in after-service, whatever status the browser reported; it ends with ?type=hangup, the socket's
// after_service_finished, or the server's afterServiceTimeout once its time and grace are over.

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
let agent1: TestClient
let clock = new Date()

const tabForm = (uid: string) => `/api/v1/service/action/tab-form/${encodeURIComponent(uid)}/`
const callEvent = async (callId: string, state: 'answered' | 'ended', by = '') => {
  control.event({ event: 'call', call_id: callId, state, code: 200, reason: 'OK', by, ts: clock.getTime() })
  await control.settled()
}

/** A customer calls the support queue; whoever the ACD offers it to answers; the customer hangs up after `talk` s. */
async function customerCall(talk = 20) {
  const callId = newCallId()
  const decision = await control.route(fromTrunk(d.trunk.id, '11987654321', '551130000001', callId))
  const offered = (await stepsOf(t.database.db, callId)).at(-1)!
  if (decision.action === 'reject') return { callId, offered: null, decision }
  await callEvent(callId, 'answered')
  clock = new Date(clock.getTime() + talk * 1000)
  await callEvent(callId, 'ended', 'caller')
  return { callId, offered, decision }
}

/** Who the support queue would offer a call to now (no call placed: the ACD's view). */
const inAfterService = () => usersInAfterService(t.database.db, d.site.id, clock)

beforeAll(async () => {
  d = await demo(t.database.db)
  control = createCallControl({ db: t.database.db, now: () => clock, random: () => 0 })
  await t.database.db
    .update(teams)
    .set({ enableAfterService: true, durationOfAfterService: 30, ignoreAfterServiceWithDurationShorterThan: 5, afterServiceMode: 'spec' })
    .where(eq(teams.siteId, d.site.id))
  agent1 = await signedIn(t.app, 'agent1')
})

describe('the ACD and after-service', () => {
  it('offers no queue call to an agent whose call the customer just hung up, though the browser still says not_inuse', async () => {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    const first = await customerCall()
    expect(first.offered?.userId).toBe(d.agent1.id)
    // 2 s later (28 s of after-service left) the browser reported not_inuse: the next caller is not offered agent1.
    clock = new Date(clock.getTime() + 2000)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    expect(await inAfterService()).toContain(d.agent1.id)
    const second = await customerCall()
    expect(second.offered).toBeNull()
    // agent2 is free: the call goes to agent2.
    await setAgent(t.database.db, d.agent2, 'not_inuse')
    const third = await customerCall()
    expect(third.offered?.userId).toBe(d.agent2.id)
    // agent1's webphone ends the after-service (?type=hangup): agent1 is offered calls again.
    const done = await agent1.post(`${tabForm(first.offered!.uid)}?type=hangup&after_service_type=3&after_service_duration=2`)
    expect(done.statusCode).toBe(200)
    expect(await inAfterService()).not.toContain(d.agent1.id)
    await setAgent(t.database.db, d.agent2, 'unavailable')
    const fourth = await customerCall()
    expect(fourth.offered?.userId).toBe(d.agent1.id)
  })

  it('ends by itself when the time and the grace are over; short calls, transferred calls and teams without it have none', async () => {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    await customerCall()
    clock = new Date(clock.getTime() + (30 + AFTER_SERVICE_GRACE_SECONDS - 1) * 1000)
    expect(await inAfterService()).toContain(d.agent1.id)
    clock = new Date(clock.getTime() + 1000)
    expect(await inAfterService()).not.toContain(d.agent1.id)

    // Shorter than ignore_after_service_with_duration_shorter_than (5 s): none.
    await finishAfterServices(t.database.db, d.site.id)
    await customerCall(3)
    expect(await inAfterService()).not.toContain(d.agent1.id)

    // A call the agent transferred (a step transferred from it): none.
    await finishAfterServices(t.database.db, d.site.id)
    const origin = await customerCall()
    const consult = newCallId()
    await control.route(fromDevice('10001', '10002', consult, { 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': origin.offered!.uid }))
    const [transfer] = await stepsOf(t.database.db, consult)
    expect(transfer!.transferOfUid).toBe(origin.offered!.uid)
    await callEvent(consult, 'ended', 'caller')
    expect(await inAfterService()).not.toContain(d.agent1.id)

    // The mandatory modes have no time limit: the after-service waits for the agent (4 h at most).
    await finishAfterServices(t.database.db, d.site.id)
    await t.database.db.update(teams).set({ afterServiceMode: 'mandatory' }).where(eq(teams.siteId, d.site.id))
    try {
      await customerCall()
      clock = new Date(clock.getTime() + 3600_000)
      expect(await inAfterService()).toContain(d.agent1.id)
      expect(await expireAfterServices(t.database.db, clock, d.site.id)).toEqual([])
    } finally {
      await t.database.db.update(teams).set({ afterServiceMode: 'spec' }).where(eq(teams.siteId, d.site.id))
    }

    // Without after-service on the team: none.
    await finishAfterServices(t.database.db, d.site.id)
    await t.database.db.update(teams).set({ enableAfterService: false }).where(eq(teams.siteId, d.site.id))
    try {
      await customerCall()
      expect(await inAfterService()).not.toContain(d.agent1.id)
    } finally {
      await t.database.db.update(teams).set({ enableAfterService: true }).where(eq(teams.siteId, d.site.id))
    }
  })
})

describe("the webphone's after-service and the server's afterServiceTimeout", () => {
  it('start → the socket timer → the server ends it past its time: the pause report ends and the agent hears afterServiceTimeout', async () => {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    const base = await listen(t.app)
    const socket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    try {
      // The step is recorded at the test's clock; the server's own sweep runs at the real time below.
      clock = new Date()
      const { offered } = await customerCall()
      const started = await agent1.post(`/api/v1/service/action/after-service/start/${offered!.uid}/`)
      expect(started.statusCode).toBe(200)
      const { id } = started.json() as { id: number }
      // Its pause report is for the reports: the console does not show it as the agent's pause ('Em pausa').
      const check = await agent1.get('/api/v1/agent/pause/check/')
      expect(check.statusCode).toBe(200)
      expect(check.json()).toBeNull()
      socket.send({ action: 'after_service_timer', timeout: 30, step_uid: offered!.uid, session_id: id })
      await socket.roundTrip()
      const [running] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, offered!.id))
      expect(running!.afterServiceStartedAt).toBeInstanceOf(Date)
      expect(running!.afterServiceFinishedAt).toBeNull()
      // A malformed timer frame is answered with an error, never a crash.
      socket.send({ action: 'after_service_timer', timeout: -1, step_uid: offered!.uid, session_id: id })
      expect((await socket.next('error')).request).toBe('after_service_timer')

      // Before its time nothing ends.
      expect(await sweepAfterServices(t.database.db, t.app.deps.bus, new Date(Date.now() + 5000), d.site.id)).toEqual([])
      const late = new Date(Date.now() + (30 + AFTER_SERVICE_GRACE_SECONDS + 60) * 1000)
      const expired = await sweepAfterServices(t.database.db, t.app.deps.bus, late, d.site.id)
      expect(expired).toContainEqual({ siteId: d.site.id, userId: d.agent1.id, uid: offered!.uid, reportId: id })
      expect(await socket.next('afterServiceTimeout')).toEqual({ action: 'afterServiceTimeout', uid: offered!.uid, session_id: id })
      const [report] = await t.database.db.select().from(pauseReports).where(eq(pauseReports.id, id))
      expect(report!.endedAt).toBeInstanceOf(Date)
      const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, offered!.id))
      expect(row).toMatchObject({ afterServiceType: 3 })
      expect(row!.afterServiceFinishedAt).toBeInstanceOf(Date)
      // Once ended it is not ended again.
      expect(await sweepAfterServices(t.database.db, t.app.deps.bus, late, d.site.id)).toEqual([])
    } finally {
      socket.close()
    }
  })

  it('a supervisor ends it: the step finishes, the agent hears afterServiceTimeout; an agent may not', async () => {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    const base = await listen(t.app)
    const socket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    try {
      clock = new Date()
      const { offered } = await customerCall()
      expect(await usersInAfterService(t.database.db, d.site.id, new Date())).toContain(d.agent1.id)
      const path = '/api/v1/agent/supervisor/end-after-service/'
      expect((await agent1.post(path, { user_id: d.agent1.id })).statusCode).toBe(403)
      const supervisor = await signedIn(t.app, 'supervisor')
      expect((await supervisor.post(path, { user_id: 999_999 })).statusCode).toBe(404)
      expect((await supervisor.post(path, { user_id: d.agent1.id })).statusCode).toBe(200)
      expect(await socket.next('afterServiceTimeout')).toEqual({ action: 'afterServiceTimeout', uid: offered!.uid, session_id: null })
      expect(await usersInAfterService(t.database.db, d.site.id, new Date())).not.toContain(d.agent1.id)
    } finally {
      socket.close()
    }
  })
})

describe("a team's wrap-up mode holds on the server too (any client)", () => {
  const hangup = (uid: string) => agent1.post(`${tabForm(uid)}?type=hangup&after_service_type=3&after_service_duration=4`)
  const setMode = (mode: string) => t.database.db.update(teams).set({ afterServiceMode: mode }).where(eq(teams.siteId, d.site.id))
  async function endedCall() {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')
    clock = new Date()
    const { offered } = await customerCall()
    // The call ended just now, by the server's clock.
    await t.database.db.update(callRecords).set({ endedAt: new Date() }).where(eq(callRecords.id, offered!.id))
    return offered!
  }
  const finished = async (id: number) => (await t.database.db.select().from(callRecords).where(eq(callRecords.id, id)))[0]!.afterServiceFinishedAt

  it('mandatory and mandatory_timeout: not ended before the call is classified (400, the step stays open), then ended', async () => {
    for (const mode of ['mandatory', 'mandatory_timeout']) {
      await setMode(mode)
      const step = await endedCall()
      const refused = await hangup(step.uid)
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toEqual({ detail: 'Classifique a chamada para encerrar o pós-atendimento.' })
      expect(await finished(step.id)).toBeNull()
      expect(await usersInAfterService(t.database.db, d.site.id, new Date())).toContain(d.agent1.id)
      await t.database.db.update(callRecords).set({ classifiedAt: new Date() }).where(eq(callRecords.id, step.id))
      expect((await hangup(step.uid)).statusCode).toBe(200)
      expect(await finished(step.id)).toBeInstanceOf(Date)
    }
  })

  it('mandatory_timeout ends unclassified once its time is over; mandatory_timeout_no_exit only then, classified or not', async () => {
    await setMode('mandatory_timeout')
    const timed = await endedCall()
    await t.database.db.update(callRecords).set({ endedAt: new Date(Date.now() - 31_000) }).where(eq(callRecords.id, timed.id))
    expect((await hangup(timed.uid)).statusCode).toBe(200)

    await setMode('mandatory_timeout_no_exit')
    const boxed = await endedCall()
    await t.database.db.update(callRecords).set({ classifiedAt: new Date() }).where(eq(callRecords.id, boxed.id))
    const early = await hangup(boxed.uid)
    expect(early.statusCode).toBe(400)
    expect(early.json()).toEqual({ detail: 'O pós-atendimento desta equipe não pode ser encerrado antes do tempo.' })
    // The socket's after_service_finished is refused the same way: the step stays open.
    const started = await agent1.post(`/api/v1/service/action/after-service/start/${boxed.uid}/`)
    const base = await listen(t.app)
    const socket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    try {
      socket.send({ action: 'after_service_finished', session_id: (started.json() as { id: number }).id })
      await socket.roundTrip()
      expect(await finished(boxed.id)).toBeNull()
    } finally {
      socket.close()
    }
    await t.database.db
      .update(callRecords)
      .set({ endedAt: new Date(Date.now() - 31_000), afterServiceStartedAt: new Date(Date.now() - 31_000) })
      .where(eq(callRecords.id, boxed.id))
    expect((await hangup(boxed.uid)).statusCode).toBe(200)
    expect(await finished(boxed.id)).toBeInstanceOf(Date)
  })

  it("the spec's mode and optional end at any time, classified or not", async () => {
    for (const mode of ['spec', 'optional']) {
      await setMode(mode)
      const step = await endedCall()
      expect((await hangup(step.uid)).statusCode).toBe(200)
    }
  })
})
