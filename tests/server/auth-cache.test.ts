import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import type { Database } from '../../server/db/client.ts'
import { openDatabase } from '../../server/db/client.ts'
import { permissionGroups } from '../../server/db/schema/index.ts'
import type { Bus } from '../../server/bus/bus.ts'
import { createBus } from '../../server/bus/bus.ts'
import { createThrottleStore } from '../../server/auth/throttle-store.ts'
import type { ThrottleStore } from '../../server/auth/throttle-store.ts'
import { authChanged } from '../../server/auth/auth-cache.ts'
import { endUserCredentials } from '../../server/auth/end-sessions.ts'
import { seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { resolveSite } from '../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { announceSitesChanged, createTenant } from '../../server/platform/operator.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import type { TestDatabase } from './helper.ts'
import { TestClient, openTestDatabase, signedIn, testPrefix } from './helper.ts'

// Each instance keeps sites, credentials, users and roles in memory between requests (server/auth/auth-cache.ts).
// Two instances: on PostgreSQL + Redis (npm run test:pg) each has its own database connections and its own Redis
// bus connection, so what B learns it learns from the bus; on PGlite they share the one database and the in-process bus.
type Two = { a: FastifyInstance; b: FastifyInstance; database: TestDatabase; siteId: number }

function useTwoInstances(): Two {
  const handle = {} as Two
  const closers: (() => Promise<void>)[] = []
  beforeAll(async () => {
    const redis = process.env.TEST_REDIS_URL
    const prefix = testPrefix()
    handle.database = await openTestDatabase()
    const shared = redis ? null : await createBus(undefined)
    const config = loadConfig({})
    const build = async (database: Database) => {
      const bus: Bus = shared ?? (await createBus(redis, prefix))
      const throttle: ThrottleStore = await createThrottleStore(redis, prefix)
      const app = await buildApp(config, { db: database.db, bus, throttle, logger: false })
      closers.push(
        () => app.close(),
        () => throttle.close(),
      )
      if (!shared) closers.push(() => bus.close())
      return app
    }
    handle.a = await build(handle.database)
    const second = handle.database.url ? await openDatabase({ databaseUrl: handle.database.url }) : handle.database
    if (second !== handle.database) closers.push(() => second.close())
    handle.b = await build(second)
    if (shared) closers.push(() => shared.close())
    await seedDemoIfEmpty(handle.database.db, { port: 8080 })
    handle.siteId = (await resolveSite(handle.database.db, 'localhost'))!.id
  })
  afterAll(async () => {
    for (const close of closers) await close()
    await handle.database?.close()
  })
  return handle
}

const t = useTwoInstances()
const PAUSE_CHECK = '/api/v1/agent/pause/check/'
const PROFILE = '/api/v1/business/profile/'

/** B hears A's change through the bus: ask again until the answer changes (a 60 s cache TTL would need far longer). */
async function eventually(request: () => Promise<LightMyRequestResponse>, status: number): Promise<LightMyRequestResponse> {
  const deadline = Date.now() + 5000
  for (;;) {
    const response = await request()
    if (response.statusCode === status || Date.now() > deadline) return response
    await new Promise((resolve) => setImmediate(resolve))
  }
}

let sequence = 0
/** A fresh agent in a group of their own holding the pause permission; never seen by either instance's cache. */
async function agent(permissions: string[] = [PERMISSIONS.viewTakeBreak]) {
  const name = `cache${++sequence}`
  const password = `senha${sequence}cache2030`
  const group = await createGroup(t.database.db, t.siteId, `Grupo ${name}`, permissions)
  const user = await createUser(t.database.db, { siteId: t.siteId, username: name, password, groupIds: [group] })
  const login = await new TestClient(t.a).post('/api/auth/login/', { username: name, password })
  expect(login.statusCode).toBe(200)
  const token = login.json().token as string
  const on = (app: FastifyInstance, url: string) => new TestClient(app).get(url, { headers: { authorization: `Token ${token}` } })
  return { name, password, group, user, token, on }
}

describe('the auth cache', () => {
  it('answers from memory: a role removed behind the servers’ back counts only once announced, then on both', async () => {
    const u = await agent()
    expect((await u.on(t.b, PAUSE_CHECK)).statusCode).toBe(200)
    expect((await u.on(t.a, PAUSE_CHECK)).statusCode).toBe(200)
    await t.database.db.update(permissionGroups).set({ permissions: [] }).where(eq(permissionGroups.id, u.group))
    expect((await u.on(t.b, PAUSE_CHECK)).statusCode).toBe(200)
    expect((await u.on(t.a, PAUSE_CHECK)).statusCode).toBe(200)
    await authChanged(t.a.deps.db, t.a.deps.bus, { kind: 'site', site_id: t.siteId })
    expect((await u.on(t.a, PAUSE_CHECK)).statusCode).toBe(403)
    expect((await eventually(() => u.on(t.b, PAUSE_CHECK), 403)).statusCode).toBe(403)
  })

  it('a permission group edited through the settings on A changes the roles on B', async () => {
    const u = await agent()
    const admin = await signedIn(t.a, 'admin')
    expect((await u.on(t.b, PAUSE_CHECK)).statusCode).toBe(200)
    const edit = await admin.patch(`/api/v1/business/groups/${u.group}/`, { permissions: [PERMISSIONS.viewDashboard] })
    expect(edit.statusCode, edit.body).toBe(200)
    expect((await eventually(() => u.on(t.b, PAUSE_CHECK), 403)).statusCode).toBe(403)
    expect((await u.on(t.b, PROFILE)).json().roles).toEqual([PERMISSIONS.viewDashboard])
    expect((await u.on(t.a, PAUSE_CHECK)).statusCode).toBe(403)
  })

  it('a user disabled through the settings on A loses their token and session on B', async () => {
    const u = await agent()
    const browser = new TestClient(t.b)
    expect((await browser.login(u.name, u.password)).statusCode).toBe(200)
    expect((await browser.get(PROFILE)).statusCode).toBe(200)
    expect((await u.on(t.b, PROFILE)).statusCode).toBe(200)
    const admin = await signedIn(t.a, 'admin')
    const edit = await admin.patch(`/api/v1/business/users/${u.user.id}/`, { is_active: false })
    expect(edit.statusCode, edit.body).toBe(200)
    expect((await eventually(() => u.on(t.b, PROFILE), 401)).statusCode).toBe(401)
    expect((await eventually(() => browser.get(PROFILE), 401)).statusCode).toBe(401)
    expect((await u.on(t.a, PROFILE)).statusCode).toBe(401)
  })

  it('a password change on A ends the other sessions and tokens on B; the rotated session works there, its old id not', async () => {
    const u = await agent()
    const caller = new TestClient(t.a)
    expect((await caller.login(u.name, u.password)).statusCode).toBe(200)
    const other = new TestClient(t.b)
    expect((await other.login(u.name, u.password)).statusCode).toBe(200)
    const oldCookie = caller.cookies.get('sessionid')!
    const asOld = () => new TestClient(t.b).get(PROFILE, { headers: { cookie: `sessionid=${oldCookie}` } })
    for (const request of [() => other.get(PROFILE), asOld, () => u.on(t.b, PROFILE)]) expect((await request()).statusCode).toBe(200)

    const change = await caller.post('/api/v1/business/profile/change-password/', {
      old_password: u.password,
      new_password1: 'trocada2030x',
      new_password2: 'trocada2030x',
    })
    expect(change.statusCode, change.body).toBe(200)
    expect(caller.cookies.get('sessionid')).not.toBe(oldCookie)
    expect((await eventually(asOld, 401)).statusCode).toBe(401)
    expect((await eventually(() => other.get(PROFILE), 401)).statusCode).toBe(401)
    expect((await eventually(() => u.on(t.b, PROFILE), 401)).statusCode).toBe(401)
    const rotated = new TestClient(t.b)
    rotated.cookies.set('sessionid', caller.cookies.get('sessionid')!)
    expect((await rotated.get(PROFILE)).statusCode).toBe(200)
  })

  it('a password reset on A (every credential ended) counts on B, and B checks the new password', async () => {
    const u = await agent()
    const browser = await signedIn(t.b, 'agent2')
    expect((await u.on(t.b, PROFILE)).statusCode).toBe(200)
    await endUserCredentials(t.a.deps.db, t.a.deps.bus, { siteId: t.siteId, userId: u.user.id })
    expect((await eventually(() => u.on(t.b, PROFILE), 401)).statusCode).toBe(401)
    expect((await browser.get(PROFILE)).statusCode).toBe(200)

    // An administrator sets a new password through the settings on A: every credential of the user ends (B refuses the
    // token at once), and B signs the user in with the new password, not the old one.
    const again = await new TestClient(t.b).post('/api/auth/login/', { username: u.name, password: u.password })
    const token = again.json().token as string
    const profileWithToken = () => new TestClient(t.b).get(PROFILE, { headers: { authorization: `Token ${token}` } })
    expect((await profileWithToken()).statusCode).toBe(200)
    const admin = await signedIn(t.a, 'admin')
    const edit = await admin.patch(`/api/v1/business/users/${u.user.id}/`, { password: 'redefinida2030' })
    expect(edit.statusCode, edit.body).toBe(200)
    expect((await eventually(profileWithToken, 401)).statusCode).toBe(401)
    const signIn = (password: string) => new TestClient(t.b).post('/api/auth/login/', { username: u.name, password })
    expect((await signIn(u.password)).statusCode).toBe(400)
    expect((await signIn('redefinida2030')).statusCode).toBe(200)
  })

  it('a token logged out on A is refused on B', async () => {
    const u = await agent()
    expect((await u.on(t.b, PROFILE)).statusCode).toBe(200)
    const logout = await new TestClient(t.a).post('/api/auth/logout/', undefined, { headers: { authorization: `Token ${u.token}` } })
    expect(logout.statusCode).toBe(200)
    expect((await eventually(() => u.on(t.b, PROFILE), 401)).statusCode).toBe(401)
  })

  it('a site the platform operator creates answers for its Host on both instances once announced on the bus', async () => {
    const host = (app: FastifyInstance) => new TestClient(app, { host: 'filial-cache.example' }).get('/api/v1/business/site-settings/')
    expect((await host(t.b)).json().domain).toBe('localhost')
    // The operator's command (npm run site -- create) works on the database, then announces on the shared bus.
    await createTenant(t.a.deps.db, { domain: 'filial-cache.example', name: 'Filial', username: 'filial-admin', password: 'Filial#Cache2030' })
    await announceSitesChanged(t.a.deps.db, t.a.deps.bus)
    const deadline = Date.now() + 5000
    let domain = ''
    while (domain !== 'filial-cache.example' && Date.now() < deadline) domain = (await host(t.b)).json().domain
    expect(domain).toBe('filial-cache.example')
  })
})
