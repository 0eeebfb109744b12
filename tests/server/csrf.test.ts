import { describe, expect, it } from 'vitest'
import { DEMO_PASSWORDS, TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()
const PATCH_URL = '/api/v1/business/profile/'
const CSRF_FAILED = { detail: 'Falha na verificação CSRF.' }

describe('CSRF on cookie-authenticated requests', () => {
  it('refuses an unsafe request without the X-CSRFToken header', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.patch(PATCH_URL, { avatar_message: 'sem csrf' }, { csrf: false })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual(CSRF_FAILED)
    const profile = (await client.get(PATCH_URL)).json()
    expect(profile.avatar_message).not.toBe('sem csrf')
  })

  it('refuses a header that differs from the cookie', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.patch(PATCH_URL, { avatar_message: 'x' }, { headers: { 'x-csrftoken': 'A'.repeat(43) } })
    expect(response.statusCode).toBe(403)
  })

  it('refuses a planted cookie+header pair that is not the token bound to the session', async () => {
    const client = await signedIn(t.app, 'agent1')
    const planted = 'B'.repeat(43)
    client.cookies.set('csrftoken', planted)
    expect((await client.patch(PATCH_URL, { avatar_message: 'x' })).statusCode).toBe(403)
  })

  it('accepts the header equal to the cookie', async () => {
    const client = await signedIn(t.app, 'agent1')
    const response = await client.patch(PATCH_URL, { avatar_message: 'com csrf' })
    expect(response.statusCode).toBe(200)
    expect(response.json().avatar_message).toBe('com csrf')
  })

  it('gives a signed-in browser back the token bound to its session at pre-session', async () => {
    const client = await signedIn(t.app, 'agent1')
    const bound = client.cookies.get('csrftoken')
    client.cookies.delete('csrftoken')
    await client.get('/api/pre-session/')
    expect(client.cookies.get('csrftoken')).toBe(bound)
    expect((await client.patch(PATCH_URL, { avatar_message: 'again' })).statusCode).toBe(200)
  })

  it('protects logout too', async () => {
    const client = await signedIn(t.app, 'agent1')
    expect((await client.post('/api/session/logout/', undefined, { csrf: false })).statusCode).toBe(403)
    expect((await client.get(PATCH_URL)).statusCode).toBe(200)
  })

  it('lets safe methods through without the header', async () => {
    const client = await signedIn(t.app, 'agent1')
    expect((await client.get(PATCH_URL, { csrf: false })).statusCode).toBe(200)
  })
})

describe('CSRF at sign-in', () => {
  it('requires the header when the browser has a csrftoken cookie', async () => {
    const client = new TestClient(t.app)
    await client.get('/api/pre-session/')
    const credentials = { username: 'agent1', password: DEMO_PASSWORDS.agent1 }
    const refused = await client.post('/api/session/login/', credentials, { csrf: false })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual(CSRF_FAILED)
    expect((await client.post('/api/session/login/', credentials)).statusCode).toBe(200)
  })

  it('accepts a JSON sign-in from a client without any cookie', async () => {
    const response = await new TestClient(t.app).post('/api/session/login/', { username: 'agent1', password: DEMO_PASSWORDS.agent1 })
    expect(response.statusCode).toBe(200)
  })

  it('refuses a form-encoded sign-in (what a cross-site form could send) with 415', async () => {
    const response = await new TestClient(t.app).post('/api/session/login/', `username=agent1&password=${DEMO_PASSWORDS.agent1}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(response.statusCode).toBe(415)
    const plain = await new TestClient(t.app).post('/api/session/login/', JSON.stringify({ username: 'agent1', password: DEMO_PASSWORDS.agent1 }), {
      headers: { 'content-type': 'text/plain' },
    })
    expect(plain.statusCode).toBe(415)
  })
})

describe('token requests', () => {
  it('are exempt from CSRF', async () => {
    const { token } = (await new TestClient(t.app).post('/api/auth/login/', { username: 'agent2', password: DEMO_PASSWORDS.agent2 })).json()
    const api = new TestClient(t.app)
    const response = await api.patch(PATCH_URL, { avatar_message: 'via token' }, { headers: { authorization: `Token ${token}` } })
    expect(response.statusCode).toBe(200)
    expect(response.json().avatar_message).toBe('via token')
  })
})
