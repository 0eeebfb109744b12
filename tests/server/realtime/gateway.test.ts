import { beforeAll, describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { authTokens, users } from '../../../server/db/schema/index.ts'
import { hashKey } from '../../../server/auth/keys.ts'
import { createUser } from '../../../server/users/user-repo.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { pushToUser } from '../../../server/bus/channels.ts'
import { SERVER_MESSAGES, SOCKET_CLOSE_CODES } from '../../../contract/realtime/service-socket.ts'
import { TestClient, useTestApp } from '../helper.ts'
import { FAST_TIMINGS, apiToken, listen, loggedIn, openSocket, refusal, sessionCookie } from './ws-helper.ts'
import * as v from 'valibot'

// The service socket /ws/business/ over real websockets: who may open it (QUALITY 11), what it answers, who serves
// (tab ownership), and how ended sessions close it (QUALITY 16).
const t = useTestApp({ config: { realtime: FAST_TIMINGS, wsAllowedOrigins: ['https://embed.example.com'] } })
let base: string
let port: string

beforeAll(async () => {
  base = await listen(t.app)
  port = new URL(base).port
})

/** A user of its own for tests that end sessions or change users. */
async function newUser(username: string) {
  const site = await resolveSite(t.database.db, 'localhost')
  await createUser(t.database.db, { siteId: site!.id, username, password: 'first1234' })
  const client = new TestClient(t.app)
  expect((await client.login(username, 'first1234')).statusCode).toBe(200)
  return { client, cookie: `sessionid=${client.cookies.get('sessionid')}` }
}

describe('upgrade: refused before any frame', () => {
  it('refuses a socket without credentials (401)', async () => {
    expect(await refusal(base)).toBe(401)
    expect(await refusal(base, { cookie: 'sessionid=not-a-session' })).toBe(401)
    expect(await refusal(base, { token: 'x'.repeat(43) })).toBe(401)
    expect(await refusal(base, { protocols: ['token', 'y'.repeat(43)] })).toBe(401)
  })

  it('refuses a foreign Origin even with a valid session (403), and the opaque origin null', async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    expect(await refusal(base, { cookie, origin: 'https://evil.example.com' })).toBe(403)
    expect(await refusal(base, { cookie, origin: `http://127.0.0.1:${Number(port) + 1}` })).toBe(403)
    expect(await refusal(base, { cookie, origin: 'null' })).toBe(403)
  })

  it("accepts the request's own origin and a configured one", async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    const own = await openSocket(base, { cookie, origin: `http://127.0.0.1:${port}` })
    const listed = await openSocket(base, { cookie, origin: 'https://embed.example.com' })
    own.close()
    listed.close()
  })

  it('accepts a session cookie, Authorization: Token, and the token subprotocol (answering only "token")', async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    const token = await apiToken(t.app, 'agent1')
    const byCookie = await openSocket(base, { cookie })
    const byHeader = await openSocket(base, { token })
    const byProtocol = await openSocket(base, { protocols: ['token', token] })
    expect(byProtocol.ws.protocol).toBe('token')
    for (const client of [byCookie, byHeader, byProtocol]) {
      await client.roundTrip()
      client.close()
    }
  })

  it('answers a plain GET of the socket path with 404 and serves no socket on other paths', async () => {
    const cookie = await sessionCookie(t.app, 'agent1')
    const response = await t.app.inject({ method: 'GET', url: '/ws/business/', headers: { cookie } })
    expect(response.statusCode).toBe(404)
    // An upgrade of an HTTP route is refused (after its own checks: here authentication comes first).
    expect(await refusal(base, { path: '/api/v1/business/profile/' })).toBe(401)
    expect(await refusal(base, { cookie, path: '/api/v1/business/profile/' })).toBe(404)
    expect(await refusal(base, { cookie, path: '/ws/elsewhere/' })).toBe(404)
    expect(await refusal(base, { path: '/' })).toBe(404)
  })
})

describe('frames', () => {
  it('answers ping with pong', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send({ action: 'ping' })
    expect(await client.next('pong')).toEqual({ action: 'pong' })
    client.close()
  })

  it('ignores unknown actions and the later issues’ actions', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send({ action: 'frobnicate', x: 1 })
    client.send({ action: 'answer_call', session_id: 'abc' })
    client.send({ action: 'server_pong' })
    await client.roundTrip()
    expect(client.received).toEqual([])
    client.close()
  })

  it('answers invalid payloads with an error action and keeps the socket open', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send('not json')
    expect(await client.next('error')).toEqual({ action: 'error', detail: 'Requisição malformada.', request: null })
    client.send({ no: 'action' })
    expect((await client.next('error')).request).toBeNull()
    client.send({ action: 'change_state', channel: 'telephony', status: 'dancing' })
    const invalid = await client.next('error')
    expect(invalid).toEqual({ action: 'error', detail: 'Valor inválido', request: 'change_state', errors: { status: ['Valor inválido'] } })
    client.send({ action: 'change_page' })
    expect((await client.next('error')).errors).toEqual({ page: ['Este campo é obrigatório'] })
    client.send({ action: 'start_pause', id: 'abc' })
    expect((await client.next('error')).errors).toHaveProperty('id')
    client.send({ action: 'change_page', page: '/settings' })
    await client.roundTrip()
    expect(client.received).toEqual([])
    client.close()
  })

  it('closes a socket that floods frames (policy violation)', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    for (let i = 0; i < 80; i++) client.send({ action: 'change_page', page: `/p${i}` })
    expect((await client.closed).code).toBe(SOCKET_CLOSE_CODES.policy)
  })

  it('answers get_activities with the due list (empty for an agent with no activities)', async () => {
    const client = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent1') })
    client.send({ action: 'get_activities' })
    expect(await client.next('activity')).toEqual({ action: 'activity', activities: [] })
    client.close()
  })
})

describe('service ownership (tab ownership across tabs and browsers)', () => {
  it('gives the first logged-in connection the service and later ones serviceElsewhere; service_here moves it', async () => {
    const { cookie } = await newUser('own-basic')
    const first = await loggedIn(base, { cookie })
    expect(first.verdict).toBe('startService')
    const second = await loggedIn(base, { cookie })
    expect(second.verdict).toBe('serviceElsewhere')

    second.client.send({ action: 'service_here' })
    expect(await second.client.next('startService')).toEqual({ action: 'startService' })
    expect(await first.client.next('serviceElsewhere')).toEqual({ action: 'serviceElsewhere' })
    first.client.close()
    second.client.close()
  })

  it('lets a tab that claimed and reloaded take the service back on login; nobody else is promoted', async () => {
    const { cookie } = await newUser('own-reload')
    const a = await loggedIn(base, { cookie })
    const b = await loggedIn(base, { cookie })
    b.client.send({ action: 'service_here' })
    await b.client.next('startService')
    await a.client.next('serviceElsewhere')
    b.client.close() // 'Atender aqui' reloads after 100 ms
    await b.client.closed
    const reloaded = await loggedIn(base, { cookie })
    expect(reloaded.verdict).toBe('startService')
    await new Promise((resolve) => setTimeout(resolve, FAST_TIMINGS.vacancyGraceMs + 200))
    expect(a.client.has('startService')).toBe(false)
    a.client.close()
    reloaded.client.close()
  })

  it('promotes the most recent remaining connection when the serving one stays away past the grace period', async () => {
    const { cookie } = await newUser('own-vacancy')
    const serving = await loggedIn(base, { cookie })
    const older = await loggedIn(base, { cookie })
    const newer = await loggedIn(base, { cookie })
    expect([serving.verdict, older.verdict, newer.verdict]).toEqual(['startService', 'serviceElsewhere', 'serviceElsewhere'])
    serving.client.close()
    expect(await newer.client.next('startService', 10_000)).toEqual({ action: 'startService' })
    expect(await older.client.next('serviceElsewhere', 10_000)).toEqual({ action: 'serviceElsewhere' })
    older.client.close()
    newer.client.close()
  })

  it('promotes the most recent connection even when the tabs logged in within the same millisecond', async () => {
    const { cookie } = await newUser('own-same-ms')
    const serving = await loggedIn(base, { cookie })
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now())
    let older: Awaited<ReturnType<typeof loggedIn>>
    let newer: Awaited<ReturnType<typeof loggedIn>>
    try {
      older = await loggedIn(base, { cookie })
      newer = await loggedIn(base, { cookie })
    } finally {
      now.mockRestore()
    }
    serving.client.close()
    expect(await newer.client.next('startService', 10_000)).toEqual({ action: 'startService' })
    expect(await older.client.next('serviceElsewhere', 10_000)).toEqual({ action: 'serviceElsewhere' })
    older.client.close()
    newer.client.close()
  })

  it('gives up the service on the logout frame', async () => {
    const { cookie } = await newUser('own-logout')
    const a = await loggedIn(base, { cookie })
    const b = await loggedIn(base, { cookie })
    a.client.send({ action: 'logout' })
    expect(await b.client.next('startService', 10_000)).toEqual({ action: 'startService' })
    a.client.close()
    b.client.close()
  })
})

describe('ended sessions close sockets (QUALITY 16)', () => {
  it('logout closes the sockets of that session with a logout frame, not those of other sessions', async () => {
    const { client, cookie } = await newUser('end-logout')
    const other = await newUser('end-logout-other')
    const mine = await openSocket(base, { cookie })
    const theirs = await openSocket(base, { cookie: other.cookie })
    expect((await client.post('/api/session/logout/')).statusCode).toBe(200)
    expect(await mine.next('logout')).toEqual({ action: 'logout', reason: 'logout' })
    expect((await mine.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    await theirs.roundTrip()
    theirs.close()
  })

  it('a password change closes the other sessions’ and tokens’ sockets and keeps the caller’s', async () => {
    const { client, cookie } = await newUser('end-password')
    const token = (await new TestClient(t.app).post('/api/auth/login/', { username: 'end-password', password: 'first1234' })).json().token as string
    const otherBrowser = new TestClient(t.app)
    await otherBrowser.login('end-password', 'first1234')
    const callerSocket = await openSocket(base, { cookie })
    const otherSocket = await openSocket(base, { cookie: `sessionid=${otherBrowser.cookies.get('sessionid')}` })
    const tokenSocket = await openSocket(base, { protocols: ['token', token] })
    const response = await client.post('/api/v1/business/profile/change-password/', {
      old_password: 'first1234',
      new_password1: 'second1234',
      new_password2: 'second1234',
    })
    expect(response.statusCode).toBe(200)
    expect((await otherSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    expect((await tokenSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    await callerSocket.roundTrip()
    expect(callerSocket.received).toEqual([])
    callerSocket.close()
  })

  it('closes sockets of a disabled user and of a token deleted behind the server’s back (credential sweep)', async () => {
    const disabled = await newUser('end-disabled')
    const socket = await openSocket(base, { cookie: disabled.cookie })
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'end-disabled'))
    expect(await socket.next('logout', 10_000)).toEqual({ action: 'logout', reason: 'user-disabled' })
    expect((await socket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)

    await newUser('end-token')
    const token = (await new TestClient(t.app).post('/api/auth/login/', { username: 'end-token', password: 'first1234' })).json().token as string
    const tokenSocket = await openSocket(base, { token })
    await t.database.db.delete(authTokens).where(eq(authTokens.keyHash, hashKey(token)))
    expect((await tokenSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
  })
})

describe('server frames', () => {
  it('delivers every server action published for a user to that user’s sockets only, in the contract’s shapes', async () => {
    const { cookie } = await newUser('push-target')
    const bystander = await openSocket(base, { cookie: await sessionCookie(t.app, 'agent2') })
    const socket = await openSocket(base, { cookie })
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'push-target'))
    const target = { siteId: row!.siteId, userId: row!.id }
    const frames = [
      { action: 'dnd', dnd: true },
      { action: 'updateUser' },
      { action: 'refresh' },
      { action: 'openUrl', url: 'https://example.com/crm/42' },
      { action: 'logout' },
    ] as const
    for (const frame of frames) await pushToUser(t.bus, target, frame)
    for (const frame of frames) {
      const received = await socket.next(frame.action)
      expect(received).toEqual(frame)
      expect(v.safeParse(SERVER_MESSAGES[frame.action], received).success).toBe(true)
    }
    await bystander.roundTrip()
    expect(bystander.received).toEqual([])
    socket.close()
    bystander.close()
  })
})
