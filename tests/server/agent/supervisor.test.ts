import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { pauseReports } from '../../../server/db/schema/agent.ts'
import { PAUSE_CODES } from '../../../contract/api/agent.ts'
import type { PauseResponse } from '../../../contract/api/agent.ts'
import { TestClient, useTestApp } from '../helper.ts'
import { FAST_TIMINGS, listen, openSocket } from '../realtime/ws-helper.ts'
import { AGENT, SUPERVISOR, pauseType, person, report, siteNamed } from './agent-helper.ts'

// Spec 000 §6 "a supervisor can pause an agent": the agent's sockets hear startPause / stopPause with who did it;
// the permission is sites.pause_agent; another site's agents and pause types do not exist for the caller.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const PAUSE = '/api/v1/agent/supervisor/pause/'
const UNPAUSE = '/api/v1/agent/supervisor/unpause/'
const CHECK = '/api/v1/agent/pause/check/'
let base: string
let siteId: number

beforeAll(async () => {
  base = await listen(t.app)
  siteId = (await siteNamed(t.database.db, 'localhost')).id
})

describe('supervisor pause and unpause', () => {
  it('pushes startPause (started_by: the supervisor) to every socket of the agent, and stopPause on unpause', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT, name: 'agent' })
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR, name: 'sup' })
    const type = await pauseType(t.database.db, siteId, { description: 'Feedback', agentCanStart: false, lockScreen: true })
    const tab = await openSocket(base, { cookie: agent.cookie })
    const browser2 = new TestClient(t.app)
    await browser2.login(agent.user.username, 'first1234')
    const otherBrowser = await openSocket(base, { cookie: `sessionid=${browser2.cookies.get('sessionid')}` })

    const response = await supervisor.client.post(PAUSE, { user_id: agent.user.id, pause_id: type.id })
    expect(response.statusCode).toBe(200)
    const body = response.json() as PauseResponse
    expect(body).toMatchObject({ success: true, code: PAUSE_CODES.ok, detail: 'Pausa iniciada.' })
    expect(body.pause).toMatchObject({ user: agent.user.id, started_by: supervisor.user.id, pending: false, description: 'Feedback' })

    for (const socket of [tab, otherBrowser]) {
      const pushed = await socket.next('startPause')
      expect(pushed.pause).toMatchObject({ id: body.pause!.id, user: agent.user.id, started_by: supervisor.user.id, lock_screen: true })
    }
    expect((await agent.client.get(CHECK)).json()).toMatchObject({ id: body.pause!.id, started_by: supervisor.user.id })

    const unpaused = (await supervisor.client.post(UNPAUSE, { user_id: agent.user.id })).json() as PauseResponse
    expect(unpaused).toMatchObject({ success: true, code: PAUSE_CODES.ok })
    const stop = await tab.next('stopPause')
    expect(stop).toMatchObject({ action: 'stopPause', stopped_by: supervisor.user.id, pause: { id: body.pause!.id } })
    expect((await agent.client.get(CHECK)).json()).toBeNull()
    expect(await report(t.database.db, body.pause!.id)).toMatchObject({ stoppedBy: supervisor.user.id })

    expect((await supervisor.client.post(UNPAUSE, { user_id: agent.user.id })).json()).toMatchObject({
      success: false,
      code: PAUSE_CODES.notPaused,
    })
    tab.close()
    otherBrowser.close()
  })

  it("replaces a pause the agent is on; the agent's own stop of it still applies the maximum", async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const own = await pauseType(t.database.db, siteId, { description: 'Café' })
    const imposed = await pauseType(t.database.db, siteId, { description: 'Reunião' })
    const first = ((await agent.client.post('/api/v1/agent/pause/start/', { pause_id: own.id })).json() as PauseResponse).pause!
    const second = ((await supervisor.client.post(PAUSE, { user_id: agent.user.id, pause_id: imposed.id })).json() as PauseResponse).pause!
    expect(second.id).not.toBe(first.id)
    expect(await report(t.database.db, first.id)).toMatchObject({ stoppedBy: supervisor.user.id })
    expect(await report(t.database.db, second.id)).toMatchObject({ previousReportId: first.id, startedBy: supervisor.user.id })
    expect((await agent.client.post('/api/v1/agent/pause/stop/')).json()).toMatchObject({ success: true })
  })

  it('makes the pause pending while the agent is on a call; it starts when the agent reports an available status', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const type = await pauseType(t.database.db, siteId)
    const socket = await openSocket(base, { cookie: agent.cookie })
    socket.send({ action: 'change_state', channel: 'telephony', status: 'busy' })
    await socket.roundTrip()

    const body = (await supervisor.client.post(PAUSE, { user_id: agent.user.id, pause_id: type.id })).json() as PauseResponse
    expect(body).toMatchObject({ success: true, detail: 'A pausa começará quando o agente ficar disponível.' })
    expect(body.pause).toMatchObject({ pending: true, started_time: null, started_timestamp: null, seconds: 0 })
    expect((await socket.next('pause')).pause).toMatchObject({ id: body.pause!.id, pending: true })
    expect(socket.has('startPause')).toBe(false)

    socket.send({ action: 'change_state', channel: 'telephony', status: 'after_service' })
    await socket.roundTrip()
    expect(socket.has('startPause')).toBe(false)
    socket.send({ action: 'change_state', channel: 'telephony', status: 'not_inuse' })
    const started = await socket.next('startPause')
    expect(started.pause).toMatchObject({ id: body.pause!.id, pending: false, started_by: supervisor.user.id })
    expect((await report(t.database.db, body.pause!.id)).startedAt).toBeInstanceOf(Date)
    socket.close()
  })

  it('needs sites.pause_agent: an agent (even a dashboard supervisor without it) gets 403 and nothing changes', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const peer = await person(t.app, t.database.db, { permissions: [...AGENT, 'sites.view_dashboard_supervisor'] })
    const type = await pauseType(t.database.db, siteId)
    expect((await peer.client.post(PAUSE, { user_id: agent.user.id, pause_id: type.id })).statusCode).toBe(403)
    expect((await peer.client.post(UNPAUSE, { user_id: agent.user.id })).statusCode).toBe(403)
    expect(await t.database.db.select().from(pauseReports).where(eq(pauseReports.userId, agent.user.id))).toEqual([])
  })

  it('isolates sites: a supervisor of site B cannot pause site A’s agent (404), nor use site A’s pause types', async () => {
    const agentA = await person(t.app, t.database.db, { permissions: AGENT })
    const siteB = await siteNamed(t.database.db, 'site-b.test')
    const supervisorB = await person(t.app, t.database.db, { permissions: SUPERVISOR, domain: 'site-b.test' })
    const agentB = await person(t.app, t.database.db, { permissions: AGENT, domain: 'site-b.test' })
    const typeA = await pauseType(t.database.db, siteId)
    const typeB = await pauseType(t.database.db, siteB.id)
    const socketA = await openSocket(base, { cookie: agentA.cookie })

    const crossUser = await supervisorB.client.post(PAUSE, { user_id: agentA.user.id, pause_id: typeB.id })
    expect(crossUser.statusCode).toBe(404)
    expect(crossUser.json()).toEqual({ detail: 'Não encontrado.' })
    expect((await supervisorB.client.post(UNPAUSE, { user_id: agentA.user.id })).statusCode).toBe(404)
    expect((await supervisorB.client.post(PAUSE, { user_id: agentB.user.id, pause_id: typeA.id })).statusCode).toBe(404)
    expect(await t.database.db.select().from(pauseReports).where(eq(pauseReports.userId, agentA.user.id))).toEqual([])
    expect(await t.database.db.select().from(pauseReports).where(eq(pauseReports.userId, agentB.user.id))).toEqual([])
    await socketA.roundTrip()
    expect(socketA.received).toEqual([])

    // Their own agent on their own site works.
    expect((await supervisorB.client.post(PAUSE, { user_id: agentB.user.id, pause_id: typeB.id })).json()).toMatchObject({ success: true })
    socketA.close()
  })

  it('validates the body (400 with field errors)', async () => {
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const response = await supervisor.client.post(PAUSE, { user_id: 'x' })
    expect(response.statusCode).toBe(400)
    expect(Object.keys(response.json()).sort()).toEqual(['pause_id', 'user_id'])
  })
})
