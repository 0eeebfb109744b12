import { describe, expect, it } from 'vitest'
import { reportStatus } from '../../../server/agent/status-service.ts'
import { resolveSite } from '../../../server/sites/site-repo.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { ALL_PERMISSIONS } from '../../../contract/all-permissions.ts'
import { signedIn, TestClient, useTestApp } from '../helper.ts'

// The coworkers directory (spec 000 §2 /coworkers): every colleague of the site, the extension to call and the
// status each reported on the service socket, with since when; another site's people never.
const t = useTestApp()
const PATH = '/api/v1/crm/coworkers/'

describe('coworkers', () => {
  it("lists the site's users with their extension and the status they reported, to any signed-in user", async () => {
    const agent1 = await signedIn(t.app, 'agent1')
    const site = (await resolveSite(t.database.db, 'localhost'))!
    const before = (await agent1.get(PATH)).json()
    const agent2 = before.results.find((c: { username: string }) => c.username === 'agent2')
    expect(agent2).toMatchObject({ extension: '10002', telephony_status: null, paused: false })
    await reportStatus(t.app.deps, { siteId: site.id, userId: agent2.user }, 'telephony', 'available' as never)
    const after = (await agent1.get(PATH)).json()
    const now = after.results.find((c: { username: string }) => c.username === 'agent2')
    expect(now.telephony_status).toBe('available')
    expect(Date.parse(now.telephony_changed_at)).toBeGreaterThan(Date.now() - 60_000)
    expect(after.results.map((c: { username: string }) => c.username)).toEqual(expect.arrayContaining(['admin', 'agent1', 'agent2', 'supervisor']))
    expect(Object.keys(now)).not.toContain('pause')
  })

  it("never shows another site's people, and needs a sign-in", async () => {
    const other = await createSite(t.database.db, { domain: 'outro.example', name: 'Outro' })
    const group = await createGroup(t.database.db, other.id, 'Todos', ALL_PERMISSIONS)
    await createUser(t.database.db, { siteId: other.id, username: 'carol', password: 'carolsecret1', groupIds: [group] })
    const carol = new TestClient(t.app, { host: 'outro.example' })
    expect((await carol.login('carol', 'carolsecret1')).statusCode).toBe(200)
    expect((await carol.get(PATH)).json().results.map((c: { username: string }) => c.username)).toEqual(['carol'])
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get(PATH)).json().results.map((c: { username: string }) => c.username)).not.toContain('carol')
    expect((await new TestClient(t.app).get(PATH)).statusCode).toBe(401)
  })
})
