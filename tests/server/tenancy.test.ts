import { beforeAll, describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { DEMO_PASSWORDS, TestClient, useTestApp } from './helper.ts'

const t = useTestApp()
const PROFILE = '/api/v1/business/profile/'
const SITE_SETTINGS = '/api/v1/business/site-settings/'
const OTHER = 'other.example'

beforeAll(async () => {
  const site = await createSite(t.database.db, { domain: OTHER, name: 'Outra Empresa', settings: { primary_color: '#123456', description: 'Outra' } })
  const group = await createGroup(t.database.db, site.id, 'Relatórios', [PERMISSIONS.viewReports])
  await createUser(t.database.db, { siteId: site.id, username: 'bob', password: 'bobsecret1', groupIds: [group] })
  // The same username as a demo user, on the other site: a different person.
  await createUser(t.database.db, { siteId: site.id, username: 'admin', password: 'otheradmin1', groupIds: [group] })
})

describe('public site settings', () => {
  it("answers the request's site by Host, with every settings field", async () => {
    const demo = (await new TestClient(t.app).get(SITE_SETTINGS)).json()
    expect(demo).toMatchObject({ domain: 'localhost', name: 'Atende Demo', settings: { primary_color: null, description: '' } })
    expect(Object.keys(demo.settings)).toHaveLength(17)
    const other = await new TestClient(t.app, { host: `${OTHER}:8080` }).get(SITE_SETTINGS)
    expect(other.statusCode).toBe(200)
    expect(other.json()).toMatchObject({ domain: OTHER, name: 'Outra Empresa', settings: { primary_color: '#123456', description: 'Outra', logo_login: null } })
  })

  it('falls back to the default (first) site for an unknown host', async () => {
    const response = await new TestClient(t.app, { host: '127.0.0.1:8080' }).get(SITE_SETTINGS)
    expect(response.json().domain).toBe('localhost')
  })
})

describe('tenant isolation', () => {
  it("does not let a user of another site sign in through this site's host", async () => {
    const response = await new TestClient(t.app).post('/api/session/login/', { username: 'bob', password: 'bobsecret1' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ non_field_errors: ['Usuário ou senha inválidos.'] })
    const token = await new TestClient(t.app).post('/api/auth/login/', { username: 'bob', password: 'bobsecret1' })
    expect(token.statusCode).toBe(400)
  })

  it('signs users in on their own site and shows only that site in the profile', async () => {
    const bob = new TestClient(t.app, { host: OTHER })
    expect((await bob.login('bob', 'bobsecret1')).statusCode).toBe(200)
    const profile = (await bob.get(PROFILE)).json()
    expect(profile.site).toMatchObject({ domain: OTHER, name: 'Outra Empresa' })
    expect(profile.roles).toEqual([PERMISSIONS.viewReports])
    expect(profile.team).toBeNull()
  })

  it('keeps same-named users apart: each site checks its own password', async () => {
    expect((await new TestClient(t.app, { host: OTHER }).login('admin', DEMO_PASSWORDS.admin)).statusCode).toBe(400)
    const other = new TestClient(t.app, { host: OTHER })
    expect((await other.login('admin', 'otheradmin1')).statusCode).toBe(200)
    expect((await other.get(PROFILE)).json().roles).toEqual([PERMISSIONS.viewReports])
  })

  it("does not accept one site's session or token on another site's host", async () => {
    const bob = new TestClient(t.app, { host: OTHER })
    await bob.login('bob', 'bobsecret1')
    const stolen = new TestClient(t.app)
    stolen.cookies = new Map(bob.cookies)
    expect((await stolen.get(PROFILE)).statusCode).toBe(401)

    const { token } = (await new TestClient(t.app, { host: OTHER }).post('/api/auth/login/', { username: 'bob', password: 'bobsecret1' })).json()
    const auth = { headers: { authorization: `Token ${token}` } }
    expect((await new TestClient(t.app).get(PROFILE, auth)).statusCode).toBe(401)
    expect((await new TestClient(t.app, { host: OTHER }).get(PROFILE, auth)).statusCode).toBe(200)
  })

  it("does not let a change on one site touch the other site's same-named user", async () => {
    const demoAdmin = new TestClient(t.app)
    await demoAdmin.login('admin', DEMO_PASSWORDS.admin)
    await demoAdmin.patch(PROFILE, { first_name: 'Só no demo' })
    const other = new TestClient(t.app, { host: OTHER })
    await other.login('admin', 'otheradmin1')
    expect((await other.get(PROFILE)).json().first_name).toBe('')
  })
})
