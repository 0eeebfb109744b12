import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { authTokens } from '../../server/db/schema/index.ts'
import { hashKey } from '../../server/auth/keys.ts'
import { TOKEN_MAX_AGE } from '../../contract/api/auth.ts'
import { DEMO_PASSWORDS, TestClient, useTestApp } from './helper.ts'

const t = useTestApp()
const PROFILE = '/api/v1/business/profile/'

async function tokenLogin(username: keyof typeof DEMO_PASSWORDS = 'agent1') {
  const response = await new TestClient(t.app).post('/api/auth/login/', { username, password: DEMO_PASSWORDS[username] })
  expect(response.statusCode).toBe(200)
  return response.json() as { token: string; expiry: string }
}

const withToken = (token: string) => ({ headers: { authorization: `Token ${token}` } })

describe('token strategy', () => {
  it('answers {token, expiry} with the 1036800 s max age and sets no cookie', async () => {
    const before = Date.now()
    const response = await new TestClient(t.app).post('/api/auth/login/', { username: 'agent1', password: DEMO_PASSWORDS.agent1 })
    expect(response.statusCode).toBe(200)
    expect(response.cookies).toEqual([])
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['expiry', 'token'])
    const expiry = new Date(body.expiry).getTime()
    expect(expiry).toBeGreaterThanOrEqual(before + TOKEN_MAX_AGE * 1000 - 1000)
    expect(expiry).toBeLessThanOrEqual(Date.now() + TOKEN_MAX_AGE * 1000 + 1000)
  })

  it('authenticates with Authorization: Token <key> and stores only a hash', async () => {
    const { token } = await tokenLogin()
    const response = await new TestClient(t.app).get(PROFILE, withToken(token))
    expect(response.statusCode).toBe(200)
    expect(response.json().username).toBe('agent1')
    const [row] = await t.database.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.keyHash, hashKey(token)))
    expect(row).toBeDefined()
    const all = await t.database.db.select({ key: authTokens.keyHash }).from(authTokens)
    expect(all.map((r) => r.key)).not.toContain(token)
  })

  it('revokes the token at logout', async () => {
    const { token } = await tokenLogin()
    const logout = await new TestClient(t.app).post('/api/auth/logout/', undefined, withToken(token))
    expect(logout.statusCode).toBe(200)
    const after = await new TestClient(t.app).get(PROFILE, withToken(token))
    expect(after.statusCode).toBe(401)
    expect(after.json()).toEqual({ detail: 'As credenciais de autenticação não foram fornecidas.' })
  })

  it('refuses an expired token', async () => {
    const { token } = await tokenLogin()
    await t.database.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.keyHash, hashKey(token)))
    expect((await new TestClient(t.app).get(PROFILE, withToken(token))).statusCode).toBe(401)
  })

  it('refuses malformed and unknown tokens', async () => {
    for (const header of ['Token', 'Token not-a-key', `Token ${'x'.repeat(43)}`]) {
      expect((await new TestClient(t.app).get(PROFILE, { headers: { authorization: header } })).statusCode).toBe(401)
    }
  })

  it('does not fall back to a session cookie when the token is bad', async () => {
    const client = new TestClient(t.app)
    await client.login('agent1', DEMO_PASSWORDS.agent1)
    expect((await client.get(PROFILE)).statusCode).toBe(200)
    expect((await client.get(PROFILE, { headers: { authorization: `Token ${'y'.repeat(43)}` } })).statusCode).toBe(401)
  })

  it('needs a credential to log out', async () => {
    expect((await new TestClient(t.app).post('/api/auth/logout/')).statusCode).toBe(401)
  })
})

describe('expired credentials', () => {
  it('are swept when the user signs in again', async () => {
    const { token } = await tokenLogin('agent2')
    await t.database.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.keyHash, hashKey(token)))
    await tokenLogin('agent2')
    expect(
      await t.database.db
        .select()
        .from(authTokens)
        .where(eq(authTokens.keyHash, hashKey(token))),
    ).toEqual([])
  })
})
