import { beforeAll, describe, expect, it } from 'vitest'
import { SOCKET_CLOSE_CODES } from '../../contract/realtime/service-socket.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { resolveSite } from '../../server/sites/site-repo.ts'
import { createUser } from '../../server/users/user-repo.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'
import { FAST_TIMINGS, listen, openSocket } from './realtime/ws-helper.ts'

// An administrator's password reset (settings → business.users, PUT or PATCH with a password) signs the user out
// everywhere at once, as disabling does: a stolen account must not stay signed in until its token expires.
const t = useTestApp({ config: { realtime: FAST_TIMINGS } })
const users = entityByKey('business.users')
let base: string

beforeAll(async () => {
  base = await listen(t.app)
})

/** A user signed in three ways: a browser session, an API token, and a socket on each. */
async function signedInEverywhere(username: string) {
  const site = await resolveSite(t.database.db, 'localhost')
  const user = await createUser(t.database.db, { siteId: site!.id, username, password: 'first1234' })
  const browser = new TestClient(t.app)
  expect((await browser.login(username, 'first1234')).statusCode).toBe(200)
  const token = (await new TestClient(t.app).post('/api/auth/login/', { username, password: 'first1234' })).json().token as string
  const cookieSocket = await openSocket(base, { cookie: `sessionid=${browser.cookies.get('sessionid')}` })
  const tokenSocket = await openSocket(base, { token })
  const byToken = () => t.app.inject({ method: 'GET', url: '/api/v1/business/profile/', headers: { host: 'localhost', authorization: `Token ${token}` } })
  return { id: user.id, browser, cookieSocket, tokenSocket, byToken }
}

describe("an administrator's password reset", () => {
  it('by PATCH ends the sessions, tokens and live sockets of the user', async () => {
    const admin = await signedIn(t.app, 'admin')
    const victim = await signedInEverywhere('reset-patch')
    const response = await admin.patch(`${users.api}${victim.id}/`, { password: 'second1234' })
    expect(response.statusCode, response.body).toBe(200)
    expect(await victim.cookieSocket.next('logout')).toEqual({ action: 'logout', reason: 'password-reset' })
    expect((await victim.cookieSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    expect((await victim.tokenSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    expect((await victim.browser.get('/api/v1/business/profile/')).statusCode).toBe(401)
    expect((await victim.byToken()).statusCode).toBe(401)
    // The new password signs in; the administrator's own session is untouched.
    expect((await new TestClient(t.app).login('reset-patch', 'second1234')).statusCode).toBe(200)
    expect((await admin.get('/api/v1/business/profile/')).statusCode).toBe(200)
  })

  it('by PUT does the same', async () => {
    const admin = await signedIn(t.app, 'admin')
    const victim = await signedInEverywhere('reset-put')
    const record = (await admin.get(`${users.api}${victim.id}/`)).json()
    const response = await admin.put(`${users.api}${victim.id}/`, { ...record, password: 'second1234' })
    expect(response.statusCode, response.body).toBe(200)
    expect((await victim.cookieSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    expect((await victim.tokenSocket.closed).code).toBe(SOCKET_CLOSE_CODES.sessionEnded)
    expect((await victim.byToken()).statusCode).toBe(401)
  })

  it('is only a write that sets a password: other changes keep the user signed in', async () => {
    const admin = await signedIn(t.app, 'admin')
    const user = await signedInEverywhere('reset-none')
    expect((await admin.patch(`${users.api}${user.id}/`, { first_name: 'Renomeado', password: '' })).statusCode).toBe(200)
    const record = (await admin.get(`${users.api}${user.id}/`)).json()
    expect((await admin.put(`${users.api}${user.id}/`, { ...record, last_name: 'Mantido' })).statusCode).toBe(200)
    await user.cookieSocket.roundTrip()
    await user.tokenSocket.roundTrip()
    expect(user.cookieSocket.received).toEqual([])
    expect((await user.browser.get('/api/v1/business/profile/')).statusCode).toBe(200)
    expect((await user.byToken()).statusCode).toBe(200)
    user.cookieSocket.close()
    user.tokenSocket.close()
  })
})
