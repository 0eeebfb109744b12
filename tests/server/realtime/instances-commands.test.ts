import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { activities, users } from '../../../server/db/schema/index.ts'
import { TestClient } from '../helper.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { siteNamed } from '../agent/agent-helper.ts'
import { openSocket, sessionCookie } from './ws-helper.ts'
import { useTwoInstances } from './instances.ts'

// A supervisor's commands and activities reach an agent whose socket another instance holds (Redis bus with
// TEST_REDIS_URL, else one in-process bus shared by both apps); a disabled user's sockets close on every instance.
const t = useTwoInstances()

async function userNamed(username: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.username, username))
  return row!
}

async function supervisorOn(app: typeof t.a): Promise<TestClient> {
  const client = new TestClient(app)
  expect((await client.login('supervisor', 'monitor2025')).statusCode).toBe(200)
  return client
}

describe('remote commands across instances', () => {
  it("delivers a supervisor's remote logout made on instance A to the agent connected to instance B", async () => {
    const agent = await userNamed('agent1')
    const onB = await openSocket(t.baseB, { cookie: await sessionCookie(t.b, 'agent1') })
    const onA = await openSocket(t.baseA, { cookie: await sessionCookie(t.a, 'agent1') })
    const supervisor = await supervisorOn(t.a)
    const response = await supervisor.post('/api/v1/agent/supervisor/logout/', { user_id: agent.id })
    expect(response.statusCode).toBe(200)
    expect(await onB.next('logout')).toEqual({ action: 'logout', reason: 'supervisor' })
    expect(await onA.next('logout')).toEqual({ action: 'logout', reason: 'supervisor' })
    onA.close()
    onB.close()
  })

  it('delivers openUrl and a new activity made on instance A to the agent on instance B', async () => {
    const agent = await userNamed('agent2')
    const onB = await openSocket(t.baseB, { cookie: await sessionCookie(t.b, 'agent2') })
    const supervisor = await supervisorOn(t.a)
    await supervisor.post('/api/v1/agent/supervisor/open-url/', { user_id: agent.id, url: 'http://crm.example/ficha/9' })
    expect(await onB.next('openUrl')).toEqual({ action: 'openUrl', url: 'http://crm.example/ficha/9' })

    const start = new Date(Date.now() - 60_000).toISOString()
    const created = await supervisor.post('/api/v1/agent/activities/', { user: agent.id, destination: '1002', start })
    expect(created.statusCode).toBe(201)
    const pushed = await onB.next('activity')
    expect(pushed.activities.map((a) => a.id)).toContain(created.json().id)
    await t.database.db.delete(activities).where(eq(activities.userId, agent.id))
    onB.close()
  })

  it("refuses another site's agent with 404, and that agent's socket on the other instance hears nothing", async () => {
    const site = await siteNamed(t.database.db, 'outra.example')
    const group = await createGroup(t.database.db, site.id, 'Agentes de fora', [])
    const foreign = await createUser(t.database.db, { siteId: site.id, username: 'agent1', password: 'ramal1001', groupIds: [group] })
    const client = new TestClient(t.b, { host: 'outra.example' })
    expect((await client.login('agent1', 'ramal1001')).statusCode).toBe(200)
    const onB = await openSocket(t.baseB, { cookie: `sessionid=${client.cookies.get('sessionid')}`, host: 'outra.example' })
    const supervisor = await supervisorOn(t.a)
    for (const name of ['refresh', 'logout']) {
      const response = await supervisor.post(`/api/v1/agent/supervisor/${name}/`, { user_id: foreign.id })
      expect(response.statusCode).toBe(404)
    }
    await onB.roundTrip()
    expect(onB.received).toEqual([])
    onB.close()
  })

  // (The instances' sweep is fast here; tests/server/agent/commands.test.ts shows the close does not wait for it.)
  it('closes a disabled user’s sockets on every instance', async () => {
    const admin = new TestClient(t.b)
    await admin.login('admin', 'gestor2025')
    const created = await admin.post('/api/v1/business/users/', { username: 'temporario', password: 'contrato2030', groups: [3] })
    expect(created.statusCode).toBe(201)
    const client = new TestClient(t.a)
    await client.login('temporario', 'contrato2030')
    const cookie = `sessionid=${client.cookies.get('sessionid')}`
    const onA = await openSocket(t.baseA, { cookie })
    const onB = await openSocket(t.baseB, { cookie })
    expect((await admin.patch(`/api/v1/business/users/${created.json().id}/`, { is_active: false })).statusCode).toBe(200)
    expect((await onA.closed).code).toBe(4401)
    expect((await onB.closed).code).toBe(4401)
  })
})
