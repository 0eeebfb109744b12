import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { users } from '../../server/db/schema/index.ts'
import { createSite, resolveSite } from '../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

// GET /api/v1/service/apps/business/users/: what a transfer (or activity) picker needs — id, name, extension — to
// those whose work needs a picker, never every username to every signed-in user.
const t = useTestApp()
const LOOKUP = '/api/v1/service/apps/business/users/'

beforeAll(async () => {
  const site = (await resolveSite(t.database.db, 'localhost'))!
  const dashboardOnly = await createGroup(t.database.db, site.id, 'Só painel', [PERMISSIONS.viewDashboard])
  await createUser(t.database.db, { siteId: site.id, username: 'painel', password: 'painel2030x', groupIds: [dashboardOnly] })
  const scheduler = await createGroup(t.database.db, site.id, 'Agenda', [PERMISSIONS.addActivity])
  await createUser(t.database.db, {
    siteId: site.id,
    username: 'agendador',
    password: 'agenda2030x',
    firstName: 'Gil',
    lastName: 'Agenda',
    groupIds: [scheduler],
  })
  const gone = await createUser(t.database.db, { siteId: site.id, username: 'desligado', password: 'desligado2030', firstName: 'Davi', lastName: 'Desligado' })
  await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, gone.id))
  const other = await createSite(t.database.db, { domain: 'outra.example', name: 'Outra' })
  await createUser(t.database.db, { siteId: other.id, username: 'estranho', password: 'estranho2030', firstName: 'Ana', lastName: 'Estranha' })
})

describe('the user lookup', () => {
  it('answers id, name and extension of the active users of the caller’s site, never usernames of named people', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const body = (await agent.get(`${LOOKUP}?limit=99999`)).json()
    const byName = Object.fromEntries(body.results.map((r: { description: string }) => [r.description, r]))
    expect(byName['Ana Agente']).toEqual({ id: expect.any(Number), description: 'Ana Agente', extension: '10001' })
    expect(byName['Sofia Supervisora']).toEqual({ id: expect.any(Number), description: 'Sofia Supervisora', extension: null })
    // Someone without a name is shown by username: the only way to tell them apart.
    expect(byName.painel).toMatchObject({ extension: null })
    const shown = JSON.stringify(body)
    for (const hidden of ['agent1', 'supervisor"', 'Davi Desligado', 'Estranha', 'email']) expect(shown).not.toContain(hidden)
    expect(body.count).toBe(body.results.length)
  })

  it('searches names and extensions, not usernames; pages with limit and offset', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const search = async (term: string) => (await agent.get(`${LOOKUP}?search=${encodeURIComponent(term)}`)).json()
    expect((await search('bruno')).results.map((r: { description: string }) => r.description)).toEqual(['Bruno Agente'])
    expect((await search('1000')).results.map((r: { extension: string }) => r.extension)).toEqual(['10001', '10002'])
    expect((await search('agent1')).count).toBe(0)
    expect((await search('%')).count).toBe(0)
    const page = (await agent.get(`${LOOKUP}?search=agente&limit=1&offset=1`)).json()
    expect(page).toEqual({ count: 2, results: [{ id: expect.any(Number), description: 'Bruno Agente', extension: '10002' }] })
    expect((await agent.get(`${LOOKUP}?limit=abc`)).statusCode).toBe(400)
  })

  it('is for the webphone, scheduling activities and the users’ settings: anyone else gets 403', async () => {
    const dashboardOnly = new TestClient(t.app)
    expect((await dashboardOnly.login('painel', 'painel2030x')).statusCode).toBe(200)
    expect((await dashboardOnly.get(LOOKUP)).statusCode).toBe(403)
    const scheduler = new TestClient(t.app)
    expect((await scheduler.login('agendador', 'agenda2030x')).statusCode).toBe(200)
    expect((await scheduler.get(LOOKUP)).statusCode).toBe(200)
    expect((await (await signedIn(t.app, 'admin')).get(LOOKUP)).statusCode).toBe(200)
    expect((await new TestClient(t.app).get(LOOKUP)).statusCode).toBe(401)
  })
})
