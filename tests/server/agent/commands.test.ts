import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { authTokens, sessions } from '../../../server/db/schema/index.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { DEFAULT_REALTIME_TIMINGS } from '../../../server/config.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'
import { listen, openSocket } from '../realtime/ws-helper.ts'
import { AGENT, SUPERVISOR, person } from './agent-helper.ts'

// A supervisor's remote commands (spec 000 §4 Logout, §7 dnd, refresh, openUrl, logout) reach every socket of the
// agent through the bus; sites.command_agent; another site's agent is 404. A user disabled or deleted in the settings
// loses sessions, tokens and sockets at once: the sweep runs every 15 s here, so only the bus can close them in time.
const t = useTestApp({ config: { realtime: DEFAULT_REALTIME_TIMINGS } })
const COMMANDER = [...SUPERVISOR, PERMISSIONS.commandAgent]
const path = (name: string) => `/api/v1/agent/supervisor/${name}/`
let base: string

beforeAll(async () => {
  base = await listen(t.app)
})

describe('remote commands', () => {
  it('delivers dnd, refresh, openUrl and logout to every socket of the agent and only to them', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT, name: 'agent' })
    const bystander = await person(t.app, t.database.db, { permissions: AGENT })
    const supervisor = await person(t.app, t.database.db, { permissions: COMMANDER, name: 'sup' })
    const tab = await openSocket(base, { cookie: agent.cookie })
    const secondTab = await openSocket(base, { cookie: agent.cookie })
    const other = await openSocket(base, { cookie: bystander.cookie })

    const dnd = await supervisor.client.post(path('dnd'), { user_id: agent.user.id, dnd: true })
    expect(dnd.statusCode).toBe(200)
    expect(dnd.json()).toEqual({ success: true, detail: 'Comando enviado.' })
    for (const socket of [tab, secondTab]) expect(await socket.next('dnd')).toEqual({ action: 'dnd', dnd: true })
    await supervisor.client.post(path('dnd'), { user_id: agent.user.id, dnd: false })
    expect(await tab.next('dnd')).toEqual({ action: 'dnd', dnd: false })

    expect((await supervisor.client.post(path('refresh'), { user_id: agent.user.id })).statusCode).toBe(200)
    expect(await tab.next('refresh')).toEqual({ action: 'refresh' })

    const url = 'https://intranet.example/avisos?id=3'
    expect((await supervisor.client.post(path('open-url'), { user_id: agent.user.id, url })).statusCode).toBe(200)
    expect(await tab.next('openUrl')).toEqual({ action: 'openUrl', url })

    expect((await supervisor.client.post(path('logout'), { user_id: agent.user.id })).statusCode).toBe(200)
    for (const socket of [tab, secondTab]) expect(await socket.next('logout')).toEqual({ action: 'logout', reason: 'supervisor' })

    // The console signs itself out 15 s later (or after its calls): the server leaves the session alone meanwhile.
    await tab.roundTrip()
    expect((await agent.client.get('/api/v1/business/profile/')).statusCode).toBe(200)
    await other.roundTrip()
    expect(other.received.map((m) => m.action)).toEqual([])
    for (const socket of [tab, secondTab, other]) socket.close()
  })

  it('opens only http and https pages', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const supervisor = await person(t.app, t.database.db, { permissions: COMMANDER })
    const socket = await openSocket(base, { cookie: agent.cookie })
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'ftp://files.example/', 'intranet']) {
      const response = await supervisor.client.post(path('open-url'), { user_id: agent.user.id, url })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ url: ['Informe um endereço http:// ou https://.'] })
    }
    const english = await supervisor.client.post(path('open-url'), { user_id: agent.user.id }, { headers: { 'accept-language': 'en-US' } })
    expect(english.json()).toEqual({ url: ['This field is required'] })
    expect((await supervisor.client.post(path('dnd'), { user_id: agent.user.id, dnd: 'yes' })).json()).toEqual({ dnd: ['Valor inválido'] })
    await socket.roundTrip()
    expect(socket.has('openUrl')).toBe(false)
    expect(socket.has('dnd')).toBe(false)
    socket.close()
  })

  it('needs sites.command_agent; an agent of another site is 404 and hears nothing', async () => {
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const pauser = await person(t.app, t.database.db, { permissions: SUPERVISOR })
    const supervisor = await person(t.app, t.database.db, { permissions: COMMANDER })
    const socket = await openSocket(base, { cookie: agent.cookie })
    for (const name of ['dnd', 'refresh', 'open-url', 'logout']) {
      const body = { user_id: agent.user.id, dnd: true, url: 'https://example.com/' }
      expect((await pauser.client.post(path(name), body)).statusCode).toBe(403)
      expect((await agent.client.post(path(name), body)).statusCode).toBe(403)
    }

    const foreign = await person(t.app, t.database.db, { permissions: AGENT, domain: 'outra.example' })
    const foreignSocket = await openSocket(base, { cookie: foreign.cookie, host: 'outra.example' })
    for (const name of ['dnd', 'refresh', 'open-url', 'logout']) {
      const response = await supervisor.client.post(path(name), { user_id: foreign.user.id, dnd: true, url: 'https://example.com/' })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ detail: 'Não encontrado.' })
    }
    await Promise.all([socket.roundTrip(), foreignSocket.roundTrip()])
    expect(socket.received).toEqual([])
    expect(foreignSocket.received).toEqual([])
    socket.close()
    foreignSocket.close()
  })
})

describe('a user disabled or deleted in the settings', () => {
  async function tokenOf(username: string): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ username, password: 'first1234' }),
    })
    return (response.json() as { token: string }).token
  }

  it('loses every session, token and socket at once when is_active turns false', async () => {
    const admin = await signedIn(t.app, 'admin')
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const bystander = await person(t.app, t.database.db, { permissions: AGENT })
    const token = await tokenOf(agent.user.username)
    const byCookie = await openSocket(base, { cookie: agent.cookie })
    const byToken = await openSocket(base, { token })
    const other = await openSocket(base, { cookie: bystander.cookie })

    const started = Date.now()
    const response = await admin.patch(`/api/v1/business/users/${agent.user.id}/`, { is_active: false })
    expect(response.statusCode).toBe(200)
    for (const socket of [byCookie, byToken]) {
      expect(await socket.next('logout')).toEqual({ action: 'logout', reason: 'user-disabled' })
      expect((await socket.closed).code).toBe(4401)
    }
    expect(Date.now() - started).toBeLessThan(DEFAULT_REALTIME_TIMINGS.sweepMs)
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, agent.user.id))).toEqual([])
    expect(await t.database.db.select().from(authTokens).where(eq(authTokens.userId, agent.user.id))).toEqual([])
    expect((await agent.client.get('/api/v1/business/profile/')).statusCode).toBe(401)

    // Other users keep theirs; an edit that leaves a user active ends nothing.
    await other.roundTrip()
    expect(other.has('logout')).toBe(false)
    expect((await admin.patch(`/api/v1/business/users/${bystander.user.id}/`, { first_name: 'Ana' })).statusCode).toBe(200)
    await other.roundTrip()
    expect(other.has('logout')).toBe(false)
    expect((await bystander.client.get('/api/v1/business/profile/')).statusCode).toBe(200)
    other.close()
  })

  it('loses their sockets at once when deleted', async () => {
    const admin = await signedIn(t.app, 'admin')
    const agent = await person(t.app, t.database.db, { permissions: AGENT })
    const socket = await openSocket(base, { cookie: agent.cookie })
    expect((await admin.delete(`/api/v1/business/users/${agent.user.id}/`)).statusCode).toBe(204)
    expect(await socket.next('logout')).toEqual({ action: 'logout', reason: 'user-disabled' })
    expect((await socket.closed).code).toBe(4401)
    expect((await new TestClient(t.app).login(agent.user.username, 'first1234')).statusCode).toBe(400)
  })
})
