import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { sessions, users } from '../../server/db/schema/index.ts'
import { hashKey } from '../../server/auth/keys.ts'
import { SESSION_ENDED } from '../../server/bus/bus.ts'
import { createUser } from '../../server/users/user-repo.ts'
import { message } from '../../contract/messages.ts'
import { DEMO_PASSWORDS, TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()

function cookieOf(response: { cookies: unknown[] }, name: string) {
  return (response.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; maxAge?: number }[]).find(
    (c) => c.name === name,
  )
}

describe('pre-session', () => {
  it('sets a csrftoken cookie readable by JavaScript, SameSite=Lax', async () => {
    const response = await new TestClient(t.app).get('/api/pre-session/')
    expect(response.statusCode).toBe(200)
    const csrf = cookieOf(response, 'csrftoken')
    expect(csrf?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(csrf?.httpOnly).toBeFalsy()
    expect(csrf?.sameSite).toBe('Lax')
    expect(csrf?.secure).toBeFalsy()
  })

  it('keeps a csrftoken the browser already has', async () => {
    const client = new TestClient(t.app)
    await client.get('/api/pre-session/')
    const first = client.cookies.get('csrftoken')
    await client.get('/api/pre-session/')
    expect(client.cookies.get('csrftoken')).toBe(first)
  })
})

describe('session login', () => {
  it('answers the profile and sets an HttpOnly, SameSite=Lax session cookie and a rotated csrftoken', async () => {
    const client = new TestClient(t.app)
    await client.get('/api/pre-session/')
    const preSessionCsrf = client.cookies.get('csrftoken')
    const response = await client.post('/api/session/login/', { username: 'agent1', password: DEMO_PASSWORDS.agent1 })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ username: 'agent1', site: { domain: 'localhost' } })
    const session = cookieOf(response, 'sessionid')!
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(session.httpOnly).toBe(true)
    expect(session.sameSite).toBe('Lax')
    expect(session.secure).toBeFalsy()
    expect(session.maxAge).toBeGreaterThan(0)
    const csrf = cookieOf(response, 'csrftoken')!
    expect(csrf.value).not.toBe(preSessionCsrf)
    // The session id is stored only as a hash.
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.keyHash, hashKey(session.value)))
    expect(row?.csrfToken).toBe(csrf.value)
    const stored = await t.database.db.select({ key: sessions.keyHash }).from(sessions)
    expect(stored.map((s) => s.key)).not.toContain(session.value)
  })

  it('issues a new session id at every sign-in and ends the previous one of that browser', async () => {
    const client = await signedIn(t.app, 'agent1')
    const first = client.cookies.get('sessionid')!
    await client.post('/api/session/login/', { username: 'agent1', password: DEMO_PASSWORDS.agent1 })
    const second = client.cookies.get('sessionid')!
    expect(second).not.toBe(first)
    const replay = new TestClient(t.app)
    replay.cookies.set('sessionid', first)
    expect((await replay.get('/api/v1/business/profile/')).statusCode).toBe(401)
    expect((await client.get('/api/v1/business/profile/')).statusCode).toBe(200)
  })

  it('records last_login', async () => {
    const before = Date.now()
    const client = await signedIn(t.app, 'supervisor')
    const profile = (await client.get('/api/v1/business/profile/')).json()
    expect(new Date(profile.last_login).getTime()).toBeGreaterThanOrEqual(before - 1000)
  })

  it('marks cookies Secure behind a TLS proxy when TRUST_PROXY is set, and only then', async () => {
    const proxied = await t.buildVariant({ trustProxy: true })
    const https = { 'x-forwarded-proto': 'https' }
    const behindProxy = new TestClient(proxied)
    await behindProxy.get('/api/pre-session/', { headers: https })
    const response = await behindProxy.post('/api/session/login/', { username: 'agent2', password: DEMO_PASSWORDS.agent2 }, { headers: https })
    expect(cookieOf(response, 'sessionid')?.secure).toBe(true)
    expect(cookieOf(response, 'csrftoken')?.secure).toBe(true)

    const direct = new TestClient(t.app)
    const forged = await direct.post('/api/session/login/', { username: 'agent2', password: DEMO_PASSWORDS.agent2 }, { headers: https })
    expect(cookieOf(forged, 'sessionid')?.secure).toBeFalsy()
  })
})

describe('failed sign-in', () => {
  it('answers the same body for an unknown user, an inactive user and a wrong password', async () => {
    const site = t.app.deps.db
    const [agent] = await site.select().from(users).where(eq(users.username, 'agent1'))
    await createUser(t.database.db, { siteId: agent!.siteId, username: 'retired', password: 'retired2024x' })
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'retired'))

    const attempts = [
      { username: 'nobody-here', password: 'whatever123' },
      { username: 'retired', password: 'retired2024x' },
      { username: 'agent1', password: 'wrong-password1' },
    ]
    const bodies = []
    for (const attempt of attempts) {
      const response = await new TestClient(t.app).post('/api/session/login/', attempt)
      expect(response.statusCode).toBe(400)
      expect(response.cookies.find((c: { name: string }) => c.name === 'sessionid')).toBeUndefined()
      bodies.push(response.body)
    }
    expect(new Set(bodies).size).toBe(1)
    expect(JSON.parse(bodies[0]!)).toEqual({ non_field_errors: [message('invalidCredentials', 'pt-BR')] })
  })

  it('answers in the language of the request', async () => {
    const english = await new TestClient(t.app).post(
      '/api/session/login/',
      { username: 'x', password: 'y' },
      { headers: { 'accept-language': 'en-US,en;q=0.9' } },
    )
    expect(english.json()).toEqual({ non_field_errors: ['Invalid username or password.'] })
    const spanish = new TestClient(t.app)
    spanish.cookies.set('i18n_redirected', 'es-es')
    expect((await spanish.post('/api/session/login/', { username: 'x', password: 'y' })).json()).toEqual({
      non_field_errors: ['Usuario o contraseña no válidos.'],
    })
  })

  it('refuses a body without credentials with field errors', async () => {
    const response = await new TestClient(t.app).post('/api/session/login/', { username: '  ' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ username: ['Este campo é obrigatório'], password: ['Este campo é obrigatório'] })
  })
})

describe('session logout', () => {
  it('ends the session, clears the cookie and announces session-ended', async () => {
    const client = await signedIn(t.app, 'agent1')
    const key = client.cookies.get('sessionid')!
    const events: unknown[] = []
    const unsubscribe = await t.bus.subscribe(SESSION_ENDED, (event) => events.push(event))
    const response = await client.post('/api/session/logout/')
    expect(response.statusCode).toBe(200)
    expect(client.cookies.has('sessionid')).toBe(false)
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.keyHash, hashKey(key)))
    expect(row).toBeUndefined()
    const replay = new TestClient(t.app)
    replay.cookies.set('sessionid', key)
    expect((await replay.get('/api/v1/business/profile/')).statusCode).toBe(401)
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]).toMatchObject({ reason: 'logout', keep: null })
    await unsubscribe()
  })

  it('is harmless without a session', async () => {
    const response = await new TestClient(t.app).post('/api/session/logout/')
    expect(response.statusCode).toBe(200)
  })
})

describe('disabled users', () => {
  it('lose their open sessions and tokens at once', async () => {
    const site = await t.database.db.select().from(users).where(eq(users.username, 'agent2'))
    await createUser(t.database.db, { siteId: site[0]!.siteId, username: 'leaver', password: 'leaver2024x' })
    const browser = new TestClient(t.app)
    expect((await browser.login('leaver', 'leaver2024x')).statusCode).toBe(200)
    const { token } = (await new TestClient(t.app).post('/api/auth/login/', { username: 'leaver', password: 'leaver2024x' })).json()
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'leaver'))
    expect((await browser.get('/api/v1/business/profile/')).statusCode).toBe(401)
    expect((await new TestClient(t.app).get('/api/v1/business/profile/', { headers: { authorization: `Token ${token}` } })).statusCode).toBe(401)
  })
})

describe('response headers', () => {
  it('forbid MIME sniffing and caching of API answers', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.get('/api/v1/business/profile/')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['cache-control']).toBe('no-store')
  })
})

describe('session expiry', () => {
  it('refuses a session past its expiry', async () => {
    const client = await signedIn(t.app, 'supervisor')
    const key = client.cookies.get('sessionid')!
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.keyHash, hashKey(key)))
    expect((await client.get('/api/v1/business/profile/')).statusCode).toBe(401)
  })
})
