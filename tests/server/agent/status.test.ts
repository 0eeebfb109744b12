import { beforeAll, describe, expect, it } from 'vitest'
import { and, asc, eq } from 'drizzle-orm'
import { agentStates, agentStatusEvents } from '../../../server/db/schema/agent.ts'
import type { AgentStatusListResponse, ChannelResponse, PauseResponse } from '../../../contract/api/agent.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { useTestApp } from '../helper.ts'
import { FAST_TIMINGS, listen, openSocket } from '../realtime/ws-helper.ts'
import { AGENT, SUPERVISOR, pauseType, person, siteNamed } from './agent-helper.ts'

// Agent status (spec 000 §4 aggregate status, spec 001 §4 webchat status): change_state on the service socket is kept
// as the current status plus a timeline and goes to the site's supervisors; the channel login calls of spec 000 §7.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const STATUS = '/api/v1/agent/status/'
let base: string
let siteId: number

beforeAll(async () => {
  base = await listen(t.app)
  siteId = (await siteNamed(t.database.db, 'localhost')).id
})

const timeline = (userId: number) =>
  t.database.db
    .select({ channel: agentStatusEvents.channel, status: agentStatusEvents.status, previous: agentStatusEvents.previousStatus })
    .from(agentStatusEvents)
    .where(eq(agentStatusEvents.userId, userId))
    .orderBy(asc(agentStatusEvents.id))

describe('change_state', () => {
  it('keeps the current status per channel and a timeline row per change; a repeat changes nothing', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const socket = await openSocket(base, { cookie: agent.cookie })
    for (const frame of [
      { channel: 'telephony', status: 'unavailable' },
      { channel: 'telephony', status: 'not_inuse' },
      { channel: 'telephony', status: 'not_inuse' },
      { channel: 'chat', status: 'busy' },
      { channel: 'telephony', status: 'ringing' },
    ]) {
      socket.send({ action: 'change_state', ...frame })
    }
    await socket.roundTrip()
    const [state] = await t.database.db.select().from(agentStates).where(eq(agentStates.userId, agent.user.id))
    expect(state).toMatchObject({ siteId, telephonyStatus: 'ringing', chatStatus: 'busy' })
    expect(await timeline(agent.user.id)).toEqual([
      { channel: 'telephony', status: 'unavailable', previous: null },
      { channel: 'telephony', status: 'not_inuse', previous: 'unavailable' },
      { channel: 'chat', status: 'busy', previous: null },
      { channel: 'telephony', status: 'ringing', previous: 'not_inuse' },
    ])
    expect(socket.received).toEqual([])
    socket.close()
  })

  it("goes to every supervisor socket of the agent's site, and to no agent's or other site's supervisor", async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const colleague = await person(t.app, t.database.db, { permissions: AGENT })
    const foreignSupervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR, domain: 'status-b.test' })
    const watching = [await openSocket(base, { cookie: supervisor.cookie }), await openSocket(base, { cookie: supervisor.cookie })]
    const colleagueSocket = await openSocket(base, { cookie: colleague.cookie })
    const foreignSocket = await openSocket(base, { cookie: foreignSupervisor.cookie, host: 'status-b.test' })
    const socket = await openSocket(base, { cookie: agent.cookie })

    socket.send({ action: 'change_state', channel: 'telephony', status: 'do_not_disturb' })
    for (const watcher of watching) {
      const frame = await watcher.next('agentStatus')
      expect(frame).toMatchObject({ action: 'agentStatus', user: agent.user.id, channel: 'telephony', status: 'do_not_disturb', previous: null })
      expect(Date.parse(frame.changed_at)).not.toBeNaN()
    }
    await colleagueSocket.roundTrip()
    await foreignSocket.roundTrip()
    expect(colleagueSocket.received).toEqual([])
    expect(foreignSocket.received).toEqual([])
    for (const s of [...watching, colleagueSocket, foreignSocket, socket]) s.close()
  })
})

describe('GET /api/v1/agent/status/', () => {
  it("lists the site's active users with current statuses, channel logins and pause, for supervisors only", async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT, name: 'listed' })
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const foreign = await person(t.app, t.database.db, { permissions: AGENT, domain: 'status-c.test' })
    const socket = await openSocket(base, { cookie: agent.cookie })
    socket.send({ action: 'change_state', channel: 'telephony', status: 'busy' })
    await socket.roundTrip()
    await agent.client.post('/api/v1/agent/channel/login/?channel=chat')
    const type = await pauseType(t.database.db, siteId, { description: 'Ginástica laboral', enableWebphone: false })
    const pause = ((await agent.client.post('/api/v1/agent/pause/start/', { pause_id: type.id })).json() as PauseResponse).pause!

    const response = await supervisor.client.get(STATUS)
    expect(response.statusCode).toBe(200)
    const body = response.json() as AgentStatusListResponse
    expect(body.count).toBe(body.results.length)
    const row = body.results.find((r) => r.user === agent.user.id)
    expect(row).toMatchObject({
      username: agent.user.username,
      telephony_status: 'busy',
      // The chat ACD computes the webchat status (spec 001 §4): signed in to chat, on a pause that enables webchat.
      chat_status: 'paused',
      login_channel_telephony: false,
      login_channel_chat: true,
      pause: { id: pause.id, description: 'Ginástica laboral' },
    })
    expect(body.results.some((r) => r.user === foreign.user.id)).toBe(false)
    expect((await agent.client.get(STATUS)).statusCode).toBe(403)
    socket.close()
  })

  it('filters by team and validates the filter', async () => {
    const supervisor = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    expect(((await supervisor.client.get(`${STATUS}?team=999999`)).json() as AgentStatusListResponse).results).toEqual([])
    expect((await supervisor.client.get(`${STATUS}?team=abc`)).statusCode).toBe(400)
  })
})

describe('agent channel login and logout', () => {
  it('sets userextra login_channel_* (shown in the profile) and tells the sockets to refetch the user', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const socket = await openSocket(base, { cookie: agent.cookie })
    const login = await agent.client.post('/api/v1/agent/channel/login/?channel=telephony&logged_in_by=system')
    expect(login.statusCode).toBe(200)
    expect(login.json()).toEqual({
      success: true,
      channel: 'telephony',
      logged_in: true,
      logged_in_by: 'system',
      login_channel_telephony: true,
      login_channel_chat: false,
    } satisfies ChannelResponse)
    expect(await socket.next('updateUser')).toEqual({ action: 'updateUser' })
    expect((await agent.client.get('/api/v1/business/profile/')).json().userextra).toMatchObject({ login_channel_telephony: true })

    const logout = (await agent.client.post('/api/v1/agent/channel/logout/?channel=telephony')).json() as ChannelResponse
    expect(logout).toMatchObject({ success: true, logged_in: false, logged_in_by: null, login_channel_telephony: false })
    const [state] = await t.database.db
      .select()
      .from(agentStates)
      .where(and(eq(agentStates.userId, agent.user.id)))
    expect(state).toBeUndefined()
    socket.close()
  })

  it('validates the query and needs the channel’s own permission', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    expect((await agent.client.post('/api/v1/agent/channel/login/')).json()).toEqual({ channel: ['Este campo é obrigatório'] })
    expect((await agent.client.post('/api/v1/agent/channel/login/?channel=fax')).statusCode).toBe(400)
    expect((await agent.client.post('/api/v1/agent/channel/login/?channel=chat&logged_in_by=robot')).statusCode).toBe(400)
    const phoneOnly = await person(t.app, t.database.db, { permissions: [PERMISSIONS.viewSoftphone] })
    expect((await phoneOnly.client.post('/api/v1/agent/channel/login/?channel=chat')).statusCode).toBe(403)
    expect((await phoneOnly.client.post('/api/v1/agent/channel/login/?channel=telephony')).statusCode).toBe(200)
  })

  it('answers pendencies with no calls until telephony exists', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    expect((await agent.client.get('/api/v1/agent/pendencies/')).json()).toEqual({ calls: [] })
  })
})
