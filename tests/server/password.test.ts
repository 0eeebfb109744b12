import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { userExtras, users } from '../../server/db/schema/index.ts'
import { SESSION_ENDED } from '../../server/bus/bus.ts'
import { resolveSite } from '../../server/sites/site-repo.ts'
import { createUser } from '../../server/users/user-repo.ts'
import { hashKey } from '../../server/auth/keys.ts'
import { TestClient, useTestApp } from './helper.ts'

const t = useTestApp()
const CHANGE = '/api/v1/business/profile/change-password/'
const VALIDATE = '/api/v1/business/profile/validate-password/'
const PROFILE = '/api/v1/business/profile/'
const DAY = 86_400_000

// Every test changes the password of a user of its own.
async function newUser(username: string, password: string, passwordExpireDate: Date | null = null) {
  const site = await resolveSite(t.database.db, 'localhost')
  return createUser(t.database.db, { siteId: site!.id, username, password, passwordExpireDate })
}

async function cookieClient(username: string, password: string) {
  const client = new TestClient(t.app)
  expect((await client.login(username, password)).statusCode).toBe(200)
  return client
}

async function tokenOf(username: string, password: string): Promise<string> {
  return (await new TestClient(t.app).post('/api/auth/login/', { username, password })).json().token
}

const storedHash = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!.password

describe('change-password', () => {
  it('refuses a wrong current password on old_password', async () => {
    await newUser('pw-wrong', 'first1234')
    const client = await cookieClient('pw-wrong', 'first1234')
    const response = await client.post(CHANGE, { old_password: 'nope1234', new_password1: 'second1234', new_password2: 'second1234' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ old_password: ['Senha atual incorreta.'] })
  })

  it('applies the shared policy and refuses the current password as the new one', async () => {
    const user = await newUser('pw-policy', 'first1234')
    const before = await storedHash(user.id)
    const client = await cookieClient('pw-policy', 'first1234')
    const attempt = (new_password1: string, new_password2 = new_password1) => client.post(CHANGE, { old_password: 'first1234', new_password1, new_password2 })

    expect((await attempt('ab1')).json()).toEqual({ new_password1: ['A senha deve ter pelo menos 8 caracteres.'] })
    expect((await attempt('onlyletters')).json()).toEqual({ new_password1: ['A senha deve conter letras e números.'] })
    expect((await attempt('my-pw-policy-1')).json()).toEqual({ new_password1: ['A senha é muito parecida com o nome de usuário.'] })
    expect((await attempt('first1234')).json()).toEqual({ new_password1: ['A nova senha deve ser diferente da atual.'] })
    expect((await attempt('second1234', 'second12345')).json()).toEqual({ new_password2: ['As senhas não conferem.'] })
    expect((await client.post(CHANGE, {})).json()).toEqual({
      old_password: ['Este campo é obrigatório'],
      new_password1: ['Este campo é obrigatório'],
      new_password2: ['Este campo é obrigatório'],
    })
    expect(await storedHash(user.id)).toBe(before)
  })

  it('changes the argon2id hash, ends every other session and token, and keeps the caller under a new session id', async () => {
    const user = await newUser('pw-change', 'first1234')
    const before = await storedHash(user.id)
    const caller = await cookieClient('pw-change', 'first1234')
    const otherBrowser = await cookieClient('pw-change', 'first1234')
    const otherToken = await tokenOf('pw-change', 'first1234')
    const oldCallerSession = caller.cookies.get('sessionid')!
    const events: { reason: string; keep: string; user_id: number }[] = []
    const unsubscribe = await t.bus.subscribe(SESSION_ENDED, (event) => events.push(event as (typeof events)[number]))

    const response = await caller.post(CHANGE, { old_password: 'first1234', new_password1: 'second1234', new_password2: 'second1234' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ success: true })

    const after = await storedHash(user.id)
    expect(after).not.toBe(before)
    expect(after.startsWith('$argon2id$')).toBe(true)

    const newCallerSession = caller.cookies.get('sessionid')!
    expect(newCallerSession).not.toBe(oldCallerSession)
    expect((await caller.get(PROFILE)).statusCode).toBe(200)
    const replay = new TestClient(t.app)
    replay.cookies.set('sessionid', oldCallerSession)
    expect((await replay.get(PROFILE)).statusCode).toBe(401)
    expect((await otherBrowser.get(PROFILE)).statusCode).toBe(401)
    expect((await new TestClient(t.app).get(PROFILE, { headers: { authorization: `Token ${otherToken}` } })).statusCode).toBe(401)

    expect((await new TestClient(t.app).login('pw-change', 'first1234')).statusCode).toBe(400)
    expect((await new TestClient(t.app).login('pw-change', 'second1234')).statusCode).toBe(200)

    await expect.poll(() => events.filter((e) => e.user_id === user.id).length).toBe(1)
    expect(events.find((e) => e.user_id === user.id)).toMatchObject({ reason: 'password-change', keep: hashKey(newCallerSession) })
    await unsubscribe()
  })

  it('keeps the calling token when the change comes through the token strategy', async () => {
    await newUser('pw-token', 'first1234')
    const token = await tokenOf('pw-token', 'first1234')
    const otherToken = await tokenOf('pw-token', 'first1234')
    const auth = { headers: { authorization: `Token ${token}` } }
    const api = new TestClient(t.app)
    const response = await api.post(CHANGE, { old_password: 'first1234', new_password1: 'second1234', new_password2: 'second1234' }, auth)
    expect(response.statusCode).toBe(200)
    expect((await api.get(PROFILE, auth)).statusCode).toBe(200)
    expect((await api.get(PROFILE, { headers: { authorization: `Token ${otherToken}` } })).statusCode).toBe(401)
  })

  it("pushes the expiry forward by the site's policy, and leaves no expiry as none", async () => {
    const expiring = await newUser('pw-expiring', 'first1234', new Date(Date.now() + 2 * DAY))
    const never = await newUser('pw-never', 'first1234', null)
    for (const username of ['pw-expiring', 'pw-never']) {
      const client = await cookieClient(username, 'first1234')
      const response = await client.post(CHANGE, { old_password: 'first1234', new_password1: 'second1234', new_password2: 'second1234' })
      expect(response.statusCode).toBe(200)
    }
    const extraOf = async (id: number) => (await t.database.db.select().from(userExtras).where(eq(userExtras.userId, id)))[0]!
    const renewed = await extraOf(expiring.id)
    expect(renewed.passwordExpireDate!.getTime() - Date.now()).toBeGreaterThan(89.9 * DAY)
    expect(renewed.passwordExpireDate!.getTime() - Date.now()).toBeLessThan(90.1 * DAY)
    expect(renewed.passwordExpireDate!.getTime() - renewed.passwordNotificationStart!.getTime()).toBe(7 * DAY)
    const untouched = await extraOf(never.id)
    expect(untouched.passwordExpireDate).toBeNull()
    expect(untouched.passwordNotificationStart).toBeNull()
  })
})

describe('validate-password', () => {
  it('answers 200 {success} either way', async () => {
    await newUser('pw-validate', 'first1234')
    const client = await cookieClient('pw-validate', 'first1234')
    const right = await client.post(VALIDATE, { password: 'first1234' })
    expect(right.statusCode).toBe(200)
    expect(right.json()).toEqual({ success: true })
    const wrong = await client.post(VALIDATE, { password: 'other1234' })
    expect(wrong.statusCode).toBe(200)
    expect(wrong.json()).toEqual({ success: false })
    expect((await client.post(VALIDATE, {})).json()).toEqual({ password: ['Este campo é obrigatório'] })
  })

  it('needs a signed-in user', async () => {
    expect((await new TestClient(t.app).post(VALIDATE, { password: 'x' })).statusCode).toBe(401)
  })
})

describe('stored passwords', () => {
  it('are argon2id hashes for every seeded user', async () => {
    const rows = await t.database.db.select({ password: users.password }).from(users)
    expect(rows.length).toBeGreaterThanOrEqual(4)
    for (const row of rows) expect(row.password).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/)
  })
})
