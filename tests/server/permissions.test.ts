import { describe, expect, it } from 'vitest'
import Fastify from 'fastify'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { registerPermissionGuard } from '../../server/http/permission-guard.ts'
import { resolveSite } from '../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()

describe('route permissions', () => {
  it('match the reviewed snapshot (a change here is a permission change)', async () => {
    const table = t.app
      .routePermissions()
      .map((r) => `${r.method.padEnd(7)} ${r.url.padEnd(48)} ${r.permission}`)
      .join('\n')
    await expect(`${table}\n`).toMatchFileSnapshot('./__snapshots__/route-permissions.txt')
  })

  it('make the app refuse to start when a route declares no permission', async () => {
    const app = await t.buildVariant({})
    const addUndeclared = async () => {
      app.get('/api/forgotten/', async () => ({ leaked: true }))
      await app.ready()
    }
    await expect(addUndeclared()).rejects.toThrow(/GET \/api\/forgotten\/ declares no valid permission/)
  })

  it('refuse a codename that does not exist (a typo fails closed too)', () => {
    const app = Fastify()
    registerPermissionGuard(app, t.database.db)
    expect(() => app.get('/x/', { config: { permission: 'sites.view_dashbord' as never } }, async () => 'x')).toThrow(/declares no valid permission/)
    expect(() => app.get('/y/', { config: { permission: 'my-profile' as never } }, async () => 'y')).toThrow(/declares no valid permission/)
  })

  it('are checked by exact codename, not by substring as the SPA hides menus', async () => {
    const app = await t.buildVariant({})
    app.get('/api/test/dashboard/', { config: { permission: PERMISSIONS.viewDashboard } }, async () => ({ ok: true }))
    const site = await resolveSite(t.database.db, 'localhost')
    const group = await createGroup(t.database.db, site!.id, 'Só supervisão', [PERMISSIONS.viewDashboardSupervisor])
    await createUser(t.database.db, { siteId: site!.id, username: 'watcher', password: 'watcher123x', groupIds: [group] })

    const watcher = new TestClient(app)
    await watcher.login('watcher', 'watcher123x')
    // 'sites.view_dashboard_supervisor' contains 'sites.view_dashboard', yet does not grant it.
    expect((await watcher.get('/api/test/dashboard/')).statusCode).toBe(403)
    expect((await (await signedIn(app, 'agent1')).get('/api/test/dashboard/')).statusCode).toBe(200)
    expect((await new TestClient(app).get('/api/test/dashboard/')).statusCode).toBe(401)
  })
})
