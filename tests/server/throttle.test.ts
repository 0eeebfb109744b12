import { beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '../../server/users/user-repo.ts'
import { resolveSite } from '../../server/sites/site-repo.ts'
import { LOGIN_THROTTLE } from '../../server/auth/login-throttle.ts'
import { createMemoryThrottleStore } from '../../server/auth/throttle-store.ts'
import { TestClient, useTestApp } from './helper.ts'

const t = useTestApp()
const login = (client: TestClient, username: string, password: string, headers?: Record<string, string>) =>
  client.post('/api/session/login/', { username, password }, { headers })

// Each test signs in as users of its own so that counters of one test never lock another.
async function newUser(username: string, password: string) {
  const site = await resolveSite(t.database.db, 'localhost')
  await createUser(t.database.db, { siteId: site!.id, username, password })
}

beforeAll(async () => {
  await newUser('locked1', 'secret1234')
  await newUser('reset1', 'secret1234')
  await newUser('validator', 'secret1234')
})

describe('sign-in throttle per account', () => {
  it('refuses the account with 429 and Retry-After after 5 failures, even with the right password', async () => {
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      // A new address each time: only the account counter can be what stops the sixth attempt.
      expect((await login(new TestClient(t.app), 'locked1', `wrong${i}x`)).statusCode).toBe(400)
    }
    const blocked = await login(new TestClient(t.app), 'locked1', 'secret1234')
    expect(blocked.statusCode).toBe(429)
    const retryAfter = Number(blocked.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(blocked.json()).toEqual({ detail: `Muitas tentativas de acesso. Tente novamente em ${retryAfter} segundos.` })
    // Case variations of the username share the counter.
    expect((await login(new TestClient(t.app), 'LOCKED1', 'secret1234')).statusCode).toBe(429)
    // Other accounts from the same address are unaffected.
    expect((await login(new TestClient(t.app), 'reset1', 'secret1234')).statusCode).toBe(200)
  })

  it('clears the account counter on a successful sign-in', async () => {
    const client = new TestClient(t.app)
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_THROTTLE.perAccount - 1; i++) expect((await login(client, 'reset1', 'nope-nope1')).statusCode).toBe(400)
      expect((await login(client, 'reset1', 'secret1234')).statusCode).toBe(200)
    }
  })

  it('also limits guesses through token sign-in and validate-password', async () => {
    const client = new TestClient(t.app)
    expect((await login(client, 'validator', 'secret1234')).statusCode).toBe(200)
    const results = []
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      results.push((await client.post('/api/v1/business/profile/validate-password/', { password: `guess${i}x` })).json())
    }
    expect(results).toEqual(Array(LOGIN_THROTTLE.perAccount).fill({ success: false }))
    const blocked = await client.post('/api/v1/business/profile/validate-password/', { password: 'secret1234' })
    expect(blocked.statusCode).toBe(429)
    const token = await new TestClient(t.app).post('/api/auth/login/', { username: 'validator', password: 'secret1234' })
    expect(token.statusCode).toBe(429)
  })
})

describe('sign-in throttle per address', () => {
  it('refuses an address after 20 failures across many usernames', async () => {
    const client = new TestClient(t.app)
    for (let i = 0; i < LOGIN_THROTTLE.perIp; i++) expect((await login(client, `spray${i}`, 'password1')).statusCode).toBe(400)
    expect((await login(client, 'someone-else', 'password1')).statusCode).toBe(429)
  })

  it('does not count an attempt it refused for the address against the account', async () => {
    await newUser('victim1', 'secret1234')
    const flood = new TestClient(t.app)
    for (let i = 0; i < LOGIN_THROTTLE.perIp; i++) expect((await login(flood, `flood${i}`, 'password1')).statusCode).toBe(400)
    // The blocked address keeps guessing the victim's password: every guess is refused before it reaches the account.
    for (let i = 0; i < LOGIN_THROTTLE.perAccount + 2; i++) expect((await login(flood, 'victim1', `guess${i}x`)).statusCode).toBe(429)
    expect((await login(new TestClient(t.app), 'victim1', 'secret1234')).statusCode).toBe(200)
  })

  it('is not evaded by a forged X-Forwarded-For when TRUST_PROXY is off', async () => {
    const client = new TestClient(t.app)
    for (let i = 0; i < LOGIN_THROTTLE.perIp; i++) {
      const forged = { 'x-forwarded-for': `203.0.113.${i + 1}` }
      expect((await login(client, `forge${i}`, 'password1', forged)).statusCode).toBe(400)
    }
    expect((await login(client, 'forge-last', 'password1', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429)
  })

  it('honours X-Forwarded-For only when TRUST_PROXY is on', async () => {
    const proxied = await t.buildVariant({ trustProxy: true })
    const proxy = new TestClient(proxied)
    for (let i = 0; i < LOGIN_THROTTLE.perIp + 1; i++) {
      const response = await login(proxy, `behind${i}`, 'password1', { 'x-forwarded-for': `192.0.2.${i + 1}` })
      expect(response.statusCode).toBe(400)
    }
  })
})

describe('memory throttle store', () => {
  it('opens a new window once the old one has passed', async () => {
    let now = 1_000_000
    const store = createMemoryThrottleStore(() => now)
    expect((await store.hit('k', 1000)).count).toBe(1)
    expect(await store.hit('k', 1000)).toEqual({ count: 2, resetInMs: 1000 })
    now += 400
    await store.undo('k')
    expect(await store.hit('k', 1000)).toEqual({ count: 2, resetInMs: 600 })
    now += 600
    expect(await store.hit('k', 1000)).toEqual({ count: 1, resetInMs: 1000 })
    await store.reset('k')
    expect((await store.hit('k', 1000)).count).toBe(1)
  })
})
