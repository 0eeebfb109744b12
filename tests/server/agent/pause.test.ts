import { beforeAll, describe, expect, it } from 'vitest'
import { and, eq, isNull } from 'drizzle-orm'
import { pauseReports } from '../../../server/db/schema/agent.ts'
import { callRecords } from '../../../server/db/schema/index.ts'
import { PAUSE_CODES } from '../../../contract/api/agent.ts'
import type { Pause, PauseResponse } from '../../../contract/api/agent.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { TestClient, useTestApp } from '../helper.ts'
import { FAST_TIMINGS, listen, openSocket } from '../realtime/ws-helper.ts'
import { AGENT, backdate, pauseType, person, report, restrictToTeam, siteNamed, team } from './agent-helper.ts'

// Spec 000 §3 pause, §4 "Pause (break)", §7 "Agent channel and pause": start, stop, check, swap, exceeded pauses.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const START = '/api/v1/agent/pause/start/'
const STOP = '/api/v1/agent/pause/stop/'
const CHECK = '/api/v1/agent/pause/check/'
let base: string
let siteId: number

beforeAll(async () => {
  base = await listen(t.app)
  siteId = (await siteNamed(t.database.db, 'localhost')).id
})

const agent = () => person(t.app, t.database.db, { permissions: AGENT, name: 'pause' })

describe('pause start, check, stop', () => {
  it('starts a pause: the answer and the check describe the running report with the spec fields', async () => {
    const { user, client } = await agent()
    const type = await pauseType(t.database.db, siteId, { description: 'Almoço', maximumDuration: 3600, lockScreen: true, allowOutgoingChat: true })
    expect((await client.get(CHECK)).json()).toBeNull()

    const response = await client.post(START, { pause_id: type.id })
    expect(response.statusCode).toBe(200)
    const body = response.json() as PauseResponse
    expect(body).toMatchObject({ success: true, code: PAUSE_CODES.ok, detail: 'Pausa iniciada.' })
    const pause = body.pause!
    expect(pause).toMatchObject({
      pause_id: type.id,
      description: 'Almoço',
      maximum_duration: 3600,
      seconds: 0,
      exceeded: false,
      user: user.id,
      started_by: user.id,
      pending: false,
      enable_webphone: true,
      enable_webchat: true,
      allow_incoming_chat: false,
      allow_outgoing_chat: true,
      lock_screen: true,
    })
    expect(Object.keys(pause).sort()).toEqual(
      [
        'id',
        'pause_id',
        'description',
        'started_time',
        'started_timestamp',
        'maximum_duration',
        'seconds',
        'exceeded',
        'user',
        'started_by',
        'pending',
        'enable_webphone',
        'enable_webchat',
        'allow_incoming_call',
        'allow_outgoing_call',
        'allow_incoming_chat',
        'allow_outgoing_chat',
        'lock_screen',
      ].sort(),
    )
    expect(pause.started_timestamp).toBe(Math.floor(Date.parse(pause.started_time!) / 1000))
    expect(Math.abs(pause.started_timestamp! - Date.now() / 1000)).toBeLessThan(5)

    const check = (await client.get(CHECK)).json() as Pause
    expect(check).toMatchObject({ id: pause.id, pause_id: type.id, description: 'Almoço' })
    const row = await report(t.database.db, pause.id)
    expect(row).toMatchObject({ userId: user.id, siteId, pauseId: type.id, startedBy: user.id, endedAt: null })
  })

  it('refuses a second start while a pause runs (code 3) and stops (pause ended, duration kept); a second stop is code 4', async () => {
    const { user, client } = await agent()
    const type = await pauseType(t.database.db, siteId)
    const first = (await client.post(START, { pause_id: type.id })).json() as PauseResponse
    const again = (await client.post(START, { pause_id: type.id })).json() as PauseResponse
    expect(again).toMatchObject({ success: false, code: PAUSE_CODES.alreadyPaused, detail: 'Já existe uma pausa em andamento.' })
    expect(again.pause?.id).toBe(first.pause!.id)

    await backdate(t.database.db, first.pause!.id, 42)
    const stopped = (await client.post(STOP)).json() as PauseResponse
    expect(stopped).toMatchObject({ success: true, code: PAUSE_CODES.ok, detail: 'Pausa encerrada.' })
    expect(stopped.pause).toMatchObject({ id: first.pause!.id, seconds: 42 })
    expect((await client.get(CHECK)).json()).toBeNull()
    const row = await report(t.database.db, first.pause!.id)
    expect(row).toMatchObject({ duration: 42, exceeded: false, justification: '', stoppedBy: user.id })
    expect(row.endedAt).toBeInstanceOf(Date)

    expect((await client.post(STOP, {})).json()).toEqual({ success: false, pause: null, detail: 'Nenhuma pausa em andamento.', code: PAUSE_CODES.notPaused })
  })

  it('refuses a pause during an after-service whose own pause report is open (code 2, not a 500), and starts it once that ended', async () => {
    const { user, client } = await agent()
    const type = await pauseType(t.database.db, siteId)
    // The after-service's pause report (the team's after-service pause), tied to the call it follows.
    const held = (await client.post(START, { pause_id: type.id })).json() as PauseResponse
    const now = new Date()
    await t.database.db.insert(callRecords).values({
      siteId,
      callId: `after-service-${held.pause!.id}`,
      step: 1,
      uid: `after-service-${held.pause!.id}`,
      direction: 'outbound',
      callType: 10,
      kind: 'external',
      phone: '11987654321',
      decision: { action: 'relay' },
      userId: user.id,
      startedAt: now,
      answeredAt: now,
      endedAt: now,
      answeredDuration: 5,
      totalDuration: 5,
      afterServicePauseReportId: held.pause!.id,
    })
    expect((await client.get(CHECK)).json()).toBeNull()
    const refused = await client.post(START, { pause_id: type.id })
    expect(refused.statusCode).toBe(200)
    expect(refused.json()).toMatchObject({ success: false, code: PAUSE_CODES.notAllowed, pause: null })
    await t.database.db.update(pauseReports).set({ endedAt: new Date() }).where(eq(pauseReports.id, held.pause!.id))
    expect((await client.post(START, { pause_id: type.id })).json()).toMatchObject({ success: true, code: PAUSE_CODES.ok })
  })

  it('swaps with report_pause_id: the running pause ends and the new one records which it replaced', async () => {
    const { client } = await agent()
    const coffee = await pauseType(t.database.db, siteId, { description: 'Café' })
    const training = await pauseType(t.database.db, siteId, { description: 'Treinamento', enableWebphone: false })
    const first = ((await client.post(START, { pause_id: coffee.id })).json() as PauseResponse).pause!

    const swapped = (await client.post(`${START}?report_pause_id=${first.id}`, { pause_id: training.id })).json() as PauseResponse
    expect(swapped).toMatchObject({ success: true, code: PAUSE_CODES.ok })
    expect(swapped.pause).toMatchObject({ pause_id: training.id, description: 'Treinamento', enable_webphone: false })
    expect((await report(t.database.db, first.id)).endedAt).toBeInstanceOf(Date)
    expect((await report(t.database.db, swapped.pause!.id)).previousReportId).toBe(first.id)
    expect(((await client.get(CHECK)).json() as Pause).id).toBe(swapped.pause!.id)

    // The machine's swap: stop first, then start naming the stopped report.
    expect((await client.post(STOP)).json()).toMatchObject({ success: true })
    const after = (await client.post(`${START}?report_pause_id=${swapped.pause!.id}`, { pause_id: coffee.id })).json() as PauseResponse
    expect(after).toMatchObject({ success: true })
    expect((await report(t.database.db, after.pause!.id)).previousReportId).toBe(swapped.pause!.id)
  })

  it('answers code 6 when report_pause_id names another pause than the running one, and 404 for a report of someone else', async () => {
    const { client } = await agent()
    const other = await agent()
    const type = await pauseType(t.database.db, siteId)
    const old = ((await client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    await client.post(STOP)
    const running = ((await client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    const mismatch = (await client.post(`${START}?report_pause_id=${old.id}`, { pause_id: type.id })).json() as PauseResponse
    expect(mismatch).toMatchObject({ success: false, code: PAUSE_CODES.reportMismatch })
    expect(mismatch.pause?.id).toBe(running.id)

    const theirs = ((await other.client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    const response = await client.post(`${START}?report_pause_id=${theirs.id}`, { pause_id: type.id })
    expect(response.statusCode).toBe(404)
    expect((await other.client.get(CHECK)).json()).toMatchObject({ id: theirs.id })
  })
})

describe('exceeded pause (code 5)', () => {
  it('refuses a stop without a reason once the maximum passed; with a reason it stops and keeps the justification', async () => {
    const { client } = await agent()
    const type = await pauseType(t.database.db, siteId, { maximumDuration: 60 })
    const pause = ((await client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    await backdate(t.database.db, pause.id, 125)

    for (const body of [undefined, {}, { reason: '   ' }]) {
      const refused = (await client.post(STOP, body)).json() as PauseResponse
      expect(refused).toMatchObject({ success: false, code: PAUSE_CODES.exceeded, detail: 'Pausa excedente: informe a justificativa.' })
      expect(refused.pause).toMatchObject({ id: pause.id, exceeded: true, maximum_duration: 60 })
      expect(refused.pause!.seconds).toBeGreaterThanOrEqual(125)
    }
    expect((await client.get(CHECK)).json()).toMatchObject({ id: pause.id, exceeded: true })

    const stopped = (await client.post(STOP, { reason: '  Fila de atendimento longa  ' })).json() as PauseResponse
    expect(stopped).toMatchObject({ success: true, code: PAUSE_CODES.ok })
    const row = await report(t.database.db, pause.id)
    expect(row).toMatchObject({ exceeded: true, justification: 'Fila de atendimento longa' })
    expect(row.duration).toBeGreaterThanOrEqual(125)
  })

  it('a pause with no maximum (0) never exceeds', async () => {
    const { client } = await agent()
    const type = await pauseType(t.database.db, siteId, { maximumDuration: 0 })
    const pause = ((await client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    await backdate(t.database.db, pause.id, 86_400)
    expect((await client.post(STOP)).json()).toMatchObject({ success: true })
    expect((await report(t.database.db, pause.id)).exceeded).toBe(false)
  })

  it('a swap away from an exceeded pause needs the reason too (sent with the start)', async () => {
    const { client } = await agent()
    const short = await pauseType(t.database.db, siteId, { maximumDuration: 10 })
    const next = await pauseType(t.database.db, siteId)
    const pause = ((await client.post(START, { pause_id: short.id })).json() as PauseResponse).pause!
    await backdate(t.database.db, pause.id, 30)
    const refused = (await client.post(`${START}?report_pause_id=${pause.id}`, { pause_id: next.id })).json() as PauseResponse
    expect(refused).toMatchObject({ success: false, code: PAUSE_CODES.exceeded })
    const swapped = (await client.post(`${START}?report_pause_id=${pause.id}`, { pause_id: next.id, reason: 'reunião' })).json() as PauseResponse
    expect(swapped).toMatchObject({ success: true })
    expect(await report(t.database.db, pause.id)).toMatchObject({ exceeded: true, justification: 'reunião' })
  })
})

describe('which pauses an agent may start', () => {
  it('refuses inactive types, types agents may not start, and types of other teams (code 2)', async () => {
    const sales = await team(t.database.db, siteId, `Vendas ${Date.now()}`)
    const support = await team(t.database.db, siteId, `Suporte ${Date.now()}`)
    const { client } = await person(t.app, t.database.db, { permissions: AGENT, teamId: support.id })
    const inactive = await pauseType(t.database.db, siteId, { isActive: false })
    const supervisorsOnly = await pauseType(t.database.db, siteId, { agentCanStart: false })
    const salesOnly = await pauseType(t.database.db, siteId)
    await restrictToTeam(t.database.db, salesOnly.id, sales.id, siteId)
    const supportToo = await pauseType(t.database.db, siteId)
    await restrictToTeam(t.database.db, supportToo.id, support.id, siteId)

    for (const type of [inactive, supervisorsOnly, salesOnly]) {
      expect((await client.post(START, { pause_id: type.id })).json()).toEqual({
        success: false,
        pause: null,
        detail: 'Esta pausa não está disponível para você.',
        code: PAUSE_CODES.notAllowed,
      })
    }
    expect((await client.get(CHECK)).json()).toBeNull()
    expect((await client.post(START, { pause_id: supportToo.id })).json()).toMatchObject({ success: true })
  })

  it("lists in the profile exactly the types the agent may start (the pause widget's select)", async () => {
    const site = await siteNamed(t.database.db, 'pause-profile.test')
    const mine = await team(t.database.db, site.id, 'Mine')
    const theirs = await team(t.database.db, site.id, 'Theirs')
    const { client } = await person(t.app, t.database.db, { permissions: AGENT, domain: 'pause-profile.test', teamId: mine.id })
    const everyone = await pauseType(t.database.db, site.id, { description: 'B Café', color: '#795548', lockScreen: true })
    await pauseType(t.database.db, site.id, { description: 'C Inativa', isActive: false })
    await pauseType(t.database.db, site.id, { description: 'D Supervisor', agentCanStart: false })
    const forMine = await pauseType(t.database.db, site.id, { description: 'A Treino' })
    await restrictToTeam(t.database.db, forMine.id, mine.id, site.id)
    const forTheirs = await pauseType(t.database.db, site.id, { description: 'E Vendas' })
    await restrictToTeam(t.database.db, forTheirs.id, theirs.id, site.id)
    await pauseType(t.database.db, siteId, { description: 'F other site' })

    const profile = (await client.get('/api/v1/business/profile/')).json()
    expect(profile.pauses.map((p: { id: number }) => p.id)).toEqual([forMine.id, everyone.id])
    expect(profile.pauses[1]).toEqual({
      id: everyone.id,
      description: 'B Café',
      maximum_duration: 900,
      color: '#795548',
      productive: false,
      enable_webphone: true,
      allow_incoming_call: false,
      allow_outgoing_call: false,
      enable_webchat: true,
      allow_incoming_chat: false,
      allow_outgoing_chat: false,
      lock_screen: true,
    })
  })

  it('lists to an agent of no team only the types that name no team', async () => {
    const site = await siteNamed(t.database.db, 'pause-teamless.test')
    const some = await team(t.database.db, site.id, 'Some')
    const { client } = await person(t.app, t.database.db, { permissions: AGENT, domain: 'pause-teamless.test', teamId: null })
    const everyone = await pauseType(t.database.db, site.id, { description: 'Café' })
    const restricted = await pauseType(t.database.db, site.id, { description: 'Treino' })
    await restrictToTeam(t.database.db, restricted.id, some.id, site.id)

    const profile = (await client.get('/api/v1/business/profile/')).json()
    expect(profile.team).toBeNull()
    expect(profile.pauses.map((p: { id: number }) => p.id)).toEqual([everyone.id])
  })

  it('answers 404 for an unknown pause type or one of another site, 400 for bad input', async () => {
    const { client } = await agent()
    const elsewhere = await siteNamed(t.database.db, 'pause-other.test')
    const foreign = await pauseType(t.database.db, elsewhere.id)
    expect((await client.post(START, { pause_id: foreign.id })).statusCode).toBe(404)
    expect((await client.post(START, { pause_id: 999_999 })).statusCode).toBe(404)
    const missing = await client.post(START, {})
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ pause_id: ['Este campo é obrigatório'] })
    expect((await client.post(START, { pause_id: 'abc' })).json()).toHaveProperty('pause_id')
    expect((await client.post(`${START}?report_pause_id=x`, { pause_id: foreign.id })).json()).toHaveProperty('report_pause_id')
    expect((await client.post(STOP, { reason: 'x'.repeat(1001) })).json()).toEqual({ reason: ['Este campo é maior do que o permitido que é 1000'] })
    expect(
      await t.database.db
        .select()
        .from(pauseReports)
        .where(and(eq(pauseReports.pauseId, foreign.id), isNull(pauseReports.endedAt))),
    ).toEqual([])
  })
})

describe('pause permissions', () => {
  it('needs sites.view_take_break (403 without, 401 signed out)', async () => {
    const { client } = await person(t.app, t.database.db, { permissions: [PERMISSIONS.viewSoftphone] })
    const type = await pauseType(t.database.db, siteId)
    expect((await client.post(START, { pause_id: type.id })).statusCode).toBe(403)
    expect((await client.post(STOP)).statusCode).toBe(403)
    expect((await client.get(CHECK)).statusCode).toBe(403)
    const anonymous = new TestClient(t.app)
    expect((await anonymous.get(CHECK)).statusCode).toBe(401)
    expect((await anonymous.post(START, { pause_id: type.id })).statusCode).toBe(401)
  })

  it('refuses a cookie request without the CSRF header', async () => {
    const { client } = await agent()
    const type = await pauseType(t.database.db, siteId)
    expect((await client.post(START, { pause_id: type.id }, { csrf: false })).statusCode).toBe(403)
  })
})

describe('pauses on the service socket', () => {
  it('get_pauses answers the running pause; a start and a stop over REST sync every socket of the agent', async () => {
    const { client, cookie } = await agent()
    const type = await pauseType(t.database.db, siteId, { description: 'Banheiro' })
    const tab1 = await openSocket(base, { cookie })
    const tab2 = await openSocket(base, { cookie })
    tab1.send({ action: 'get_pauses' })
    expect(await tab1.next('pause')).toEqual({ action: 'pause', pause: null })

    const started = ((await client.post(START, { pause_id: type.id })).json() as PauseResponse).pause!
    for (const tab of [tab1, tab2]) expect((await tab.next('pause')).pause).toMatchObject({ id: started.id, description: 'Banheiro' })
    tab1.send({ action: 'get_pauses' })
    expect((await tab1.next('pause')).pause).toMatchObject({ id: started.id, pending: false })

    // start_pause naming the running pause is fine; naming another resyncs the sender.
    tab1.send({ action: 'start_pause', id: started.id })
    await tab1.roundTrip()
    expect(tab1.received).toEqual([])
    tab1.send({ action: 'start_pause', id: started.id + 1000 })
    expect((await tab1.next('pause')).pause).toMatchObject({ id: started.id })

    await client.post(STOP)
    for (const tab of [tab1, tab2]) expect(await tab.next('pause')).toEqual({ action: 'pause', pause: null })
    tab1.close()
    tab2.close()
  })
})
