import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { servicePauses, users } from '../../../server/db/schema/index.ts'
import { TestClient } from '../helper.ts'
import { pushToUser } from '../../../server/bus/channels.ts'
import { loggedIn, openSocket, sessionCookie } from './ws-helper.ts'
import { useTwoInstances } from './instances.ts'

// Several server instances behind one address: a frame published on one instance reaches sockets held by another,
// and the service belongs to one connection across all of them.
const t = useTwoInstances()

describe('two server instances sharing a bus', () => {
  it('delivers a frame published on instance A to the user’s socket on instance B', async () => {
    const socket = await openSocket(t.baseB, { cookie: await sessionCookie(t.b, 'agent1') })
    const [agent] = await t.database.db.select().from(users).where(eq(users.username, 'agent1'))
    await pushToUser(t.a.deps.bus, { siteId: agent!.siteId, userId: agent!.id }, { action: 'refresh' })
    expect(await socket.next('refresh')).toEqual({ action: 'refresh' })
    socket.close()
  })

  it('decides the service across instances: a login on B sees the connection serving on A; service_here on B wins on A', async () => {
    const cookie = await sessionCookie(t.a, 'agent2')
    const onA = await loggedIn(t.baseA, { cookie })
    expect(onA.verdict).toBe('startService')
    const onB = await loggedIn(t.baseB, { cookie })
    expect(onB.verdict).toBe('serviceElsewhere')
    onB.client.send({ action: 'service_here' })
    expect(await onB.client.next('startService')).toEqual({ action: 'startService' })
    expect(await onA.client.next('serviceElsewhere')).toEqual({ action: 'serviceElsewhere' })
    onA.client.close()
    onB.client.close()
  })

  it('closes a session’s sockets on every instance when it logs out on one', async () => {
    const client = new TestClient(t.a)
    await client.login('supervisor', 'monitor2025')
    const cookie = `sessionid=${client.cookies.get('sessionid')}`
    const onA = await openSocket(t.baseA, { cookie })
    const onB = await openSocket(t.baseB, { cookie })
    expect((await client.post('/api/session/logout/')).statusCode).toBe(200)
    expect((await onA.closed).code).toBe(4401)
    expect((await onB.closed).code).toBe(4401)
  })

  it("delivers a supervisor's pause made on instance A to the agent connected to instance B", async () => {
    const [agent] = await t.database.db.select().from(users).where(eq(users.username, 'agent2'))
    const [type] = await t.database.db.insert(servicePauses).values({ siteId: agent!.siteId, description: 'Remota' }).returning()
    const socket = await openSocket(t.baseB, { cookie: await sessionCookie(t.b, 'agent2') })
    const supervisor = new TestClient(t.a)
    await supervisor.login('supervisor', 'monitor2025')
    const response = await supervisor.post('/api/v1/agent/supervisor/pause/', { user_id: agent!.id, pause_id: type!.id })
    expect(response.json()).toMatchObject({ success: true })
    const pushed = await socket.next('startPause')
    expect(pushed.pause).toMatchObject({ user: agent!.id, description: 'Remota', started_by: response.json().pause.started_by })
    expect(pushed.pause.started_by).not.toBe(agent!.id)

    expect((await supervisor.post('/api/v1/agent/supervisor/unpause/', { user_id: agent!.id })).json()).toMatchObject({ success: true })
    expect((await socket.next('stopPause')).stopped_by).toBe(pushed.pause.started_by)
    socket.close()
  })
})
