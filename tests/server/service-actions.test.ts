import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  activities,
  callRecords,
  pauseReports,
  serviceClassifications,
  serviceForms,
  serviceSubClassifications,
  serviceUnions,
  teams,
} from '../../server/db/schema/index.ts'
import { createCallControl } from '../../server/telephony/control/index.ts'
import type { CallControlService } from '../../server/telephony/control/index.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { demo, finishAfterServices, fromDevice, fromTrunk, newCallId, setAgent, stepsOf } from './call-control-helper.ts'
import { signedIn, useTestApp } from './helper.ts'
import type { TestClient } from './helper.ts'
import { listen, openSocket, sessionCookie } from './realtime/ws-helper.ts'

// The webphone's server calls (spec 000 §7 service actions, transfer cancel, pendencies; the socket's webphone_answer
// and after_service_finished) over call steps that the real call control records.

const t = useTestApp()
let d: Awaited<ReturnType<typeof demo>>
let control: CallControlService
let agent1: TestClient
let agent2: TestClient
let chain: { classification: number; sub: number; otherSub: number }
let formId = 0

const tabForm = (uid: string) => `/api/v1/service/action/tab-form/${encodeURIComponent(uid)}/`
const answer = async (callId: string) => {
  control.event({ event: 'call', call_id: callId, state: 'answered', code: 200, reason: 'OK', by: 'callee', ts: Date.now() })
  await control.settled()
}
const end = async (callId: string) => {
  control.event({ event: 'call', call_id: callId, state: 'ended', code: 200, reason: '', by: 'caller', ts: Date.now() })
  await control.settled()
}

/** agent1's device calls agent2's; answered, and hung up unless `open`. */
async function internalCall(open = false) {
  const callId = newCallId()
  await control.route(fromDevice('10001', '10002', callId))
  await answer(callId)
  if (!open) await end(callId)
  const [step] = await stepsOf(t.database.db, callId)
  return { callId, step: step! }
}

/** A customer calls the support queue's DID; agent1 (the only available member) answers. */
async function queueCall(phone = '11987654321') {
  // The previous calls' after-service is over (the team's 30 s would keep agent1 from the queue).
  await finishAfterServices(t.database.db, d.site.id)
  await setAgent(t.database.db, d.agent1, 'not_inuse')
  await setAgent(t.database.db, d.agent2, 'unavailable')
  const callId = newCallId()
  await control.route(fromTrunk(d.trunk.id, phone, '551130000001', callId))
  await answer(callId)
  await end(callId)
  const steps = await stepsOf(t.database.db, callId)
  const step = steps.find((s) => s.userId === d.agent1.id)!
  expect(step).toBeDefined()
  return { callId, step }
}

beforeAll(async () => {
  d = await demo(t.database.db)
  const db = t.database.db
  control = createCallControl({ db, random: () => 0 })
  await setAgent(db, d.agent1, 'not_inuse')
  await setAgent(db, d.agent2, 'not_inuse')
  // agent1's team: after-service of 30 s, inbound calls need a classification, comments of 3 to 50 characters.
  await db
    .update(teams)
    .set({
      enableAfterService: true,
      durationOfAfterService: 30,
      enableClassifications: ['20-21'],
      enableComment: true,
      minimumCommentSize: 3,
      maximumCommentSize: 50,
      ignoreAfterServiceUnaccepted: true,
    })
    .where(eq(teams.id, d.agent1.teamId!))
  const [doubt] = await db.select().from(serviceClassifications).where(eq(serviceClassifications.description, 'Dúvida'))
  const [solved] = await db.select().from(serviceSubClassifications).where(eq(serviceSubClassifications.description, 'Resolvido'))
  const [sold] = await db.select().from(serviceSubClassifications).where(eq(serviceSubClassifications.description, 'Venda realizada'))
  const [union] = await db
    .select()
    .from(serviceUnions)
    .where(and(eq(serviceUnions.classificationId, doubt!.id), eq(serviceUnions.subClassificationId, solved!.id)))
  expect(union).toBeDefined()
  chain = { classification: doubt!.id, sub: solved!.id, otherSub: sold!.id }
  formId = await d.seed('service.forms', { description: 'Cadastro', fields: [{ name: 'nome', label: 'Nome', type: 'text' }] })
  agent1 = await signedIn(t.app, 'agent1')
  agent2 = await signedIn(t.app, 'agent2')
})

describe('call control names the step to both devices', () => {
  it('a relay carries X-Atende-Uid toward the callee and the uid for the replies toward the caller', async () => {
    const callId = newCallId()
    const decision = await control.route(fromDevice('10001', '10002', callId))
    const [step] = await stepsOf(t.database.db, callId)
    expect(decision).toMatchObject({ action: 'relay', uid: step!.uid })
    expect((decision as { headers: string }).headers).toContain(`X-Atende-Uid: ${step!.uid}\r\n`)
    // A repeated question gets the same uid.
    expect(await control.route(fromDevice('10001', '10002', callId))).toEqual(decision)
    await end(callId)
  })
})

describe('GET tab-form: the call metadata', () => {
  it('is 404 until the step exists, then answers form, activity, data and the team after-service', async () => {
    expect((await agent1.get(tabForm('not-yet@test'))).statusCode).toBe(404)
    const { callId, step } = await internalCall()
    const callee = await agent2.get(tabForm(step.uid))
    expect(callee.statusCode).toBe(200)
    expect(callee.json()).toMatchObject({
      success: true,
      form: null,
      activity: null,
      data: { uid: step.uid, call_id: callId, call_type: 30, phone: '10001', queue: null, direction: 'internal' },
      classified: false,
      form_sent: false,
    })
    // The caller sees the call it placed (type 31, the number it dialled), by uid or by the SIP Call-ID.
    const caller = await agent1.get(tabForm(callId))
    expect(caller.statusCode).toBe(200)
    expect(caller.json()).toMatchObject({ data: { uid: step.uid, call_type: 31, phone: '10002' }, afterService: { active: true, seconds: 30 } })
  })

  it("names the activity a call works when the caller's webphone dialled it for one of the caller's own activities", async () => {
    const db = t.database.db
    const [own] = await db.insert(activities).values({ siteId: d.site.id, userId: d.agent1.id, destination: '01130001111', start: new Date() }).returning()
    const [others] = await db.insert(activities).values({ siteId: d.site.id, userId: d.agent2.id, destination: '01130002222', start: new Date() }).returning()
    const dialled = async (headers: Record<string, string>) => {
      const callId = newCallId()
      expect((await control.route(fromDevice('10001', '01130001111', callId, headers))).action).toBe('relay')
      await answer(callId)
      await end(callId)
      const [step] = await stepsOf(db, callId)
      return step!
    }
    const step = await dialled({ 'X-Atende-Activity': String(own!.id) })
    expect(step.activityId).toBe(own!.id)
    expect((await agent1.get(tabForm(step.uid))).json()).toMatchObject({ activity: own!.id, data: { call_type: 10, phone: '01130001111' } })
    // Another agent's activity, a made-up id or garbage: the call goes on, working no activity.
    for (const value of [String(others!.id), '999999', 'x; drop', '']) expect((await dialled({ 'X-Atende-Activity': value })).activityId).toBeNull()
  })

  it('carries the queue, the customer number and the call type of a queue call', async () => {
    const { step } = await queueCall('11955554444')
    const body = (await agent1.get(tabForm(step.uid))).json()
    expect(body.data).toMatchObject({ queue: d.support.id, queue_name: 'Suporte', phone: '11955554444', call_type: 20, direction: 'inbound' })
  })

  it("another agent's step and another site's step are 404; without the webphone permission 403", async () => {
    const { step } = await queueCall()
    expect((await agent2.get(tabForm(step.uid))).statusCode).toBe(404)
    const other = await createSite(t.database.db, { domain: 'outro.example', name: 'Outro' })
    const [foreign] = await t.database.db
      .insert(callRecords)
      .values({
        siteId: other.id,
        callId: newCallId(),
        step: 1,
        uid: '00000000-0000-4000-8000-000000000001',
        direction: 'inbound',
        callType: 20,
        kind: 'queue',
        userId: d.agent1.id,
        startedAt: new Date(),
        decision: { action: 'reject', code: 480, reason: 'x' },
      })
      .returning()
    expect((await agent1.get(tabForm(foreign!.uid))).statusCode).toBe(404)
    expect((await agent1.get(tabForm(foreign!.callId))).statusCode).toBe(404)
    const admin = await signedIn(t.app, 'admin')
    const roles = (await admin.get('/api/v1/business/profile/')).json().roles as string[]
    if (!roles.includes('sites.view_softphone')) expect((await admin.get(tabForm(step.uid))).statusCode).toBe(403)
  })
})

describe('POST tab-form: classification, form, hangup', () => {
  it('checks the chain and the team comment rule, then stores the classification', async () => {
    const { step } = await queueCall()
    const url = `${tabForm(step.uid)}?type=classification`
    const unknown = await agent1.post(url, { classification_id: 999_999, comment: 'ok ok' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toHaveProperty('classification_id')
    const notUnion = await agent1.post(url, { classification_id: chain.classification, sub_classification_id: chain.otherSub, comment: 'ok ok' })
    expect(notUnion.statusCode).toBe(400)
    expect(notUnion.json()).toHaveProperty('sub_classification_id')
    const short = await agent1.post(url, { classification_id: chain.classification, comment: 'no' }, { headers: { 'accept-language': 'en-US' } })
    expect(short.statusCode).toBe(400)
    expect(short.json()).toEqual({ comment: ['This field is shorter than the allowed minimum of 3'] })
    const missing = await agent1.post(url, { comment: 'abc' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toHaveProperty('classification_id')

    const ok = await agent1.post(url, { classification_id: chain.classification, sub_classification_id: chain.sub, comment: 'Resolvido na hora' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ success: true, detail: 'Classificação salva.', activity: null })
    const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
    expect(row!.classification).toMatchObject({
      queue_id: d.support.id,
      classification_id: chain.classification,
      sub_classification_id: chain.sub,
      comment: 'Resolvido na hora',
      classified_by: d.agent1.id,
    })
    expect(row!.classifiedAt).toBeInstanceOf(Date)
    expect((await agent1.get(tabForm(step.uid))).json().classified).toBe(true)
    // The calls screen shows it by name, with the comment.
    const calls = (await agent1.get(`/api/v1/report/calls/?search=${encodeURIComponent(step.phone)}`)).json() as {
      results: { call_id: string; classification: string | null; sub_classification: string | null; comment: string }[]
    }
    expect(calls.results.find((call) => call.call_id === step.callId)).toMatchObject({
      classification: 'Dúvida',
      sub_classification: 'Resolvido',
      comment: 'Resolvido na hora',
    })
  })

  it('stores a form once: a form already sent is not overwritten', async () => {
    const { step } = await queueCall()
    const url = `${tabForm(step.uid)}?type=form&form_id=${formId}`
    const first = await agent1.post(url, { nome: 'Ana' })
    expect(first.json()).toEqual({ success: true, detail: 'Formulário salvo.' })
    const again = await agent1.post(url, { nome: 'Outra' })
    expect(again.statusCode).toBe(200)
    expect(again.json().detail).toBe('O formulário desta chamada já foi enviado.')
    const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
    expect(row).toMatchObject({ formId, formValues: { nome: 'Ana' } })
    expect((await agent1.post(`${tabForm(step.uid)}?type=form&form_id=999999`, { nome: 'x' })).json()).toHaveProperty('form_id')
    expect((await agent1.post(`${tabForm(step.uid)}?type=form`, { nome: 'x' })).json()).toHaveProperty('form_id')
    expect((await agent1.post(`${tabForm(step.uid)}?type=other`, {})).statusCode).toBe(400)
    const [other] = await t.database.db.select().from(serviceForms).where(eq(serviceForms.id, formId))
    expect(other).toBeDefined()
  })
})

describe('after-service', () => {
  it('starts a pause report, answers the same one when asked again, and ends it with ?type=hangup', async () => {
    const { step } = await queueCall()
    const url = `/api/v1/service/action/after-service/start/${step.uid}/`
    const started = await agent1.post(url)
    expect(started.statusCode).toBe(200)
    const { id, ignore_after_service_dial_status } = started.json()
    expect(ignore_after_service_dial_status).toBe(false)
    expect((await agent1.post(url)).json().id).toBe(id)
    const [report] = await t.database.db.select().from(pauseReports).where(eq(pauseReports.id, id))
    expect(report).toMatchObject({ userId: d.agent1.id, description: 'Pós-atendimento', maximumDuration: 30, endedAt: null, allowIncomingCall: false })
    // Open after-service is a pendency.
    const pending = (await agent1.get('/api/v1/agent/pendencies/')).json().calls as { uid: string; after_service_finished: boolean }[]
    expect(pending.find((c) => c.uid === step.uid)).toMatchObject({ after_service_finished: false })

    const done = await agent1.post(`${tabForm(step.uid)}?type=hangup&after_service_type=3&after_service_duration=25`)
    expect(done.json()).toEqual({ success: true, detail: 'Pós-atendimento encerrado.' })
    const [ended] = await t.database.db.select().from(pauseReports).where(eq(pauseReports.id, id))
    expect(ended!.endedAt).toBeInstanceOf(Date)
    const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
    expect(row).toMatchObject({ afterServiceType: 3, afterServiceDuration: 25, afterServicePauseReportId: id })
    expect(row!.afterServiceFinishedAt).toBeInstanceOf(Date)
    expect((await agent1.post(`${tabForm(step.uid)}?type=hangup&after_service_duration=abc`)).json()).toHaveProperty('after_service_duration')
  })

  it('is ignored for an unanswered call when the team says so, and refused when the team has none', async () => {
    await finishAfterServices(t.database.db, d.site.id)
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    const callId = newCallId()
    await control.route(fromTrunk(d.trunk.id, '11911112222', '551130000001', callId))
    const [step] = (await stepsOf(t.database.db, callId)).filter((s) => s.userId === d.agent1.id)
    const url = `/api/v1/service/action/after-service/start/${step!.uid}/`
    expect((await agent1.post(url)).json()).toEqual({ id: null, ignore_after_service_dial_status: true })
    await t.database.db.update(teams).set({ enableAfterService: false }).where(eq(teams.id, d.agent1.teamId!))
    try {
      const refused = await agent1.post(url)
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toEqual({ detail: 'Esta chamada não tem Pós-atendimento' })
    } finally {
      await t.database.db.update(teams).set({ enableAfterService: true }).where(eq(teams.id, d.agent1.teamId!))
    }
    expect((await agent2.post(url)).statusCode).toBe(404)
    await end(callId)
  })
})

describe('GET /v1/agent/pendencies/', () => {
  it('lists answered calls still to classify (by the team kinds), newest first, and drops them once classified', async () => {
    const { step } = await queueCall('11933332222')
    const internal = await internalCall()
    const calls = (await agent1.get('/api/v1/agent/pendencies/')).json().calls as { uid: string; classified: boolean; call_type: number; phone: string }[]
    expect(calls.find((c) => c.uid === step.uid)).toMatchObject({ classified: false, call_type: 20, phone: '11933332222' })
    // Internal calls need no classification in this team.
    expect(calls.some((c) => c.uid === internal.step.uid)).toBe(false)
    await agent1.post(`${tabForm(step.uid)}?type=classification`, { classification_id: chain.classification, comment: 'feito' })
    const after = (await agent1.get('/api/v1/agent/pendencies/')).json().calls as { uid: string }[]
    expect(after.some((c) => c.uid === step.uid)).toBe(false)
    // agent2 has none of agent1's.
    const other = (await agent2.get('/api/v1/agent/pendencies/')).json().calls as { uid: string }[]
    expect(other.some((c) => c.uid === step.uid)).toBe(false)
  })
})

describe('transfers', () => {
  it('an attended transfer call links to its origin; transfer/cancel marks both cancelled', async () => {
    const origin = await internalCall()
    // agent2 holds agent1 and dials an outside number as an attended transfer of the call.
    const callId = newCallId()
    const decision = await control.route(fromDevice('10002', '01133334444', callId, { 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': origin.step.uid }))
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({ transferOfUid: origin.step.uid, transferType: 'attend', phone: '01133334444' })
    expect(decision.action).toBe('relay')
    if (decision.action === 'relay') expect(decision.headers).toContain(`X-Atende-Parent-Uid: ${origin.step.uid}\r\n`)

    const invalid = await agent2.post('/api/v1/agent/transfer/cancel/', { step_id: origin.step.uid, type: 'sideways' })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toHaveProperty('type')
    const foreign = await agent2.post('/api/v1/agent/transfer/cancel/', { step_id: '00000000-0000-4000-8000-000000000001', type: 'attend' })
    expect(foreign.statusCode).toBe(404)

    const cancelled = await agent2.post('/api/v1/agent/transfer/cancel/', { step_id: origin.step.uid, type: 'attend', app: 'number', appdata: '01133334444' })
    expect(cancelled.statusCode).toBe(200)
    expect(cancelled.json()).toEqual({ success: true, detail: 'Transferência cancelada.', cancelled: 1 })
    const [o] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, origin.step.id))
    expect(o).toMatchObject({ transferType: 'attend', transferApp: 'number', transferAppdata: '01133334444' })
    expect(o!.transferCancelledAt).toBeInstanceOf(Date)
    const [c] = await stepsOf(t.database.db, callId)
    expect(c!.transferCancelledAt).toBeInstanceOf(Date)
    await end(callId)
  })

  it('a parent uid named by a device that was not on that call is not linked', async () => {
    const { step } = await queueCall()
    const callId = newCallId()
    await control.route(fromDevice('10002', '01133334444', callId, { 'X-Atende-Transfer': 'attend', 'X-Atende-Parent-Uid': step.uid }))
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({ transferOfUid: null, transferType: 'attend' })
    await end(callId)
  })

  it('blind: the transferee INVITE to *8<destination> is routed as a dial of the destination, linked to the call it is on', async () => {
    const origin = await internalCall(true)
    expect(origin.step.answeredAt).toBeInstanceOf(Date)
    const callId = newCallId()
    // agent1 REFERred agent2 to *801133334444: agent2's phone dials it while still on the origin call.
    const decision = await control.route(fromDevice('10002', '*801133334444', callId))
    const [child] = await stepsOf(t.database.db, callId)
    expect(child).toMatchObject({ transferOfUid: origin.step.uid, transferType: 'blind', callee: expect.not.stringContaining('*8'), phone: '01133334444' })
    const plain = newCallId()
    const expected = await control.route(fromDevice('10002', '01133334444', plain))
    expect(decision.action).toBe('relay')
    expect(expected.action).toBe('relay')
    if (decision.action === 'relay' && expected.action === 'relay') {
      expect(decision.ruri).toBe(expected.ruri)
      expect(decision.headers).toContain('X-Atende-Transfer: blind\r\n')
      expect(decision.headers).toContain(`X-Atende-Parent-Uid: ${origin.step.uid}\r\n`)
    }
    await end(origin.callId)
    await end(callId)
    await end(plain)
  })
})

describe('the service socket', () => {
  it('webphone_answer records the agent answer time once; after_service_finished ends the after-service', async () => {
    const base = await listen(t.app)
    const socket = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    try {
      const { step } = await queueCall()
      socket.send({ action: 'webphone_answer', uid: step.uid, call_id: 'in-1' })
      await socket.roundTrip()
      const [first] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
      expect(first!.agentAnsweredAt).toBeInstanceOf(Date)
      socket.send({ action: 'webphone_answer', uid: step.uid, call_id: 'in-1' })
      await socket.roundTrip()
      const [second] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
      expect(second!.agentAnsweredAt!.getTime()).toBe(first!.agentAnsweredAt!.getTime())
      socket.send({ action: 'webphone_answer', call_id: 'in-1' })
      expect((await socket.next('error')).request).toBe('webphone_answer')

      const { id } = (await agent1.post(`/api/v1/service/action/after-service/start/${step.uid}/`)).json()
      socket.send({ action: 'after_service_finished', session_id: id })
      await socket.roundTrip()
      const [report] = await t.database.db.select().from(pauseReports).where(eq(pauseReports.id, id))
      expect(report!.endedAt).toBeInstanceOf(Date)
      const [row] = await t.database.db.select().from(callRecords).where(eq(callRecords.id, step.id))
      expect(row!.afterServiceFinishedAt).toBeInstanceOf(Date)
    } finally {
      socket.close()
    }
  })
})
