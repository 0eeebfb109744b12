import { beforeAll, describe, expect, it } from 'vitest'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { ALL_MODULES_ON, MODULES_PATH, moduleOfApi, moduleOfPage } from '../../contract/modules.ts'
import { eq } from 'drizzle-orm'
import { authChanged } from '../../server/auth/auth-cache.ts'
import { createSite } from '../../server/sites/site-repo.ts'
import { permissionGroups } from '../../server/db/schema/index.ts'
import { ADMIN_CODENAMES_ADDED, grantAddedAdminCodenames, runDataSteps } from '../../server/db/data-steps.ts'
import { createGroup, createUser } from '../../server/users/user-repo.ts'
import { TestClient, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()
const OTHER = 'modules-other.example'
const M = `/api${MODULES_PATH}`
const PROFILE = '/api/v1/business/profile/'
const CHAT_ROUTES = ['/api/v1/chat/archives/', '/api/v1/chat/channels/', '/api/v1/service/nps-chat/']
const OTHER_ROUTES = ['/api/v1/pabx/queues/', '/api/v1/crm/clients/', '/api/v1/report/pages/', '/api/v1/service/shipments-campaigns/']
const OFF = { message: 'Este módulo está desativado neste site.' }

beforeAll(async () => {
  const site = await createSite(t.database.db, { domain: OTHER, name: 'Outra' })
  const group = await createGroup(t.database.db, site.id, 'Administradores', ALL_PERMISSIONS)
  await createUser(t.database.db, { siteId: site.id, username: 'otheradmin', password: 'otheradmin1', groupIds: [group] })
})

describe('site modules', () => {
  it('are all on by default, in the settings route and in the profile', async () => {
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get(M)).json()).toEqual(ALL_MODULES_ON)
    expect((await admin.get(PROFILE)).json().site.modules).toEqual(ALL_MODULES_ON)
  })

  it('turned off answer 403 on that area only, on this site only, until turned back on', async () => {
    const admin = await signedIn(t.app, 'admin')
    const agent = await signedIn(t.app, 'agent1')
    const other = new TestClient(t.app, { host: OTHER })
    expect((await other.login('otheradmin', 'otheradmin1')).statusCode).toBe(200)
    for (const url of CHAT_ROUTES) expect((await admin.get(url)).statusCode, url).toBe(200)

    const off = await admin.put(M, { ...ALL_MODULES_ON, chat: false })
    expect(off.statusCode).toBe(200)
    expect(off.json()).toEqual({ ...ALL_MODULES_ON, chat: false })
    expect((await agent.get(PROFILE)).json().site.modules).toEqual({ ...ALL_MODULES_ON, chat: false })

    for (const url of CHAT_ROUTES) {
      const refused = await admin.get(url)
      expect(refused.statusCode, url).toBe(403)
      expect(refused.json()).toEqual({ detail: OFF.message })
    }
    expect((await agent.get('/api/v1/chat/archives/')).statusCode).toBe(403)
    // In English too.
    expect((await admin.get('/api/v1/chat/archives/', { headers: { 'accept-language': 'en-US' } })).json()).toEqual({
      detail: 'This module is turned off for this site.',
    })
    // Other areas, the coworkers directory (under crm/ but everyone's) and the other site are unaffected.
    for (const url of OTHER_ROUTES) expect((await admin.get(url)).statusCode, url).toBe(200)
    expect((await admin.get('/api/v1/crm/coworkers/')).statusCode).toBe(200)
    for (const url of CHAT_ROUTES) expect((await other.get(url)).statusCode, url).toBe(200)
    expect((await other.get(PROFILE)).json().site.modules).toEqual(ALL_MODULES_ON)
    // Unauthenticated callers still learn nothing but 401.
    expect((await new TestClient(t.app).get('/api/v1/chat/archives/')).statusCode).toBe(401)

    // The change is in the audit log, then the admin turns chat back on.
    const audit = (await admin.get('/api/v1/system/audit-log/?entity=system.base-modules')).json()
    expect(audit.results[0]).toMatchObject({ action: 'update', before: { chat: true }, after: { chat: false } })
    expect((await admin.put(M, ALL_MODULES_ON)).statusCode).toBe(200)
    for (const url of CHAT_ROUTES) expect((await admin.get(url)).statusCode, url).toBe(200)
  })

  it('keeps other settings of the site when written, and the site entity keeps the modules', async () => {
    const admin = await signedIn(t.app, 'admin')
    await admin.put(M, { ...ALL_MODULES_ON, reports: false })
    expect((await admin.get('/api/v1/report/pages/')).statusCode).toBe(403)
    const site = (await admin.get('/api/v1/business/profile/')).json().site
    const record = (await admin.get(`/api/v1/business/sites/${site.id}/`)).json()
    expect((await admin.patch(`/api/v1/business/sites/${site.id}/`, { url_footer: 'https://example.com' })).statusCode).toBeLessThan(300)
    expect((await admin.get(M)).json()).toEqual({ ...ALL_MODULES_ON, reports: false })
    expect(record.description).toBeTruthy()
    await admin.put(M, ALL_MODULES_ON)
    expect((await admin.get('/api/v1/report/pages/')).statusCode).toBe(200)
  })

  it('refuse each area by its own routes, one module at a time', async () => {
    const admin = await signedIn(t.app, 'admin')
    const agent = await signedIn(t.app, 'agent1')
    const areas = {
      telephony: [admin, ['/api/v1/pabx/queues/', '/api/v1/report/calls/', '/api/v1/service/nps-telephony/']],
      dialer: [admin, ['/api/v1/crm/leads/', '/api/v1/crm/mailings/', '/api/v1/service/shipments-campaigns/']],
      crm: [admin, ['/api/v1/crm/clients/', '/api/v1/crm/tags/']],
      reports: [admin, ['/api/v1/report/pages/', '/api/v1/report/processing-queue/']],
    } as const
    expect((await agent.get('/api/v1/service/action/preview-lead/')).statusCode).not.toBe(403)
    for (const [module, [client, urls]] of Object.entries(areas)) {
      for (const url of urls) expect((await client.get(url)).statusCode, `${module} on: ${url}`).toBe(200)
      expect((await admin.put(M, { ...ALL_MODULES_ON, [module]: false })).statusCode).toBe(200)
      for (const url of urls) expect((await client.get(url)).statusCode, `${module} off: ${url}`).toBe(403)
      // Every other area still answers.
      for (const [other, [otherClient, otherUrls]] of Object.entries(areas)) {
        if (other !== module) for (const url of otherUrls) expect((await otherClient.get(url)).statusCode, `${module} off: ${url}`).toBe(200)
      }
      if (module === 'dialer') expect((await agent.get('/api/v1/service/action/preview-lead/')).statusCode).toBe(403)
      expect((await admin.put(M, ALL_MODULES_ON)).statusCode).toBe(200)
    }
    expect(moduleOfApi('/recordings/player/:callId')).toBe('telephony')
  })

  it('need their codenames and a complete body', async () => {
    const agent = await signedIn(t.app, 'agent1')
    expect((await agent.get(M)).statusCode).toBe(403)
    expect((await agent.put(M, ALL_MODULES_ON)).statusCode).toBe(403)
    const admin = await signedIn(t.app, 'admin')
    const bad = await admin.put(M, { chat: 'no' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json())).toEqual(expect.arrayContaining(['chat', 'telephony']))
    expect((await admin.get(M)).json()).toEqual(ALL_MODULES_ON)
  })

  it('map API routes and pages to their areas', () => {
    expect(moduleOfApi('/api/v1/pabx/queues/:id/')).toBe('telephony')
    expect(moduleOfApi('/api/v1/service/action/preview-lead/')).toBe('dialer')
    expect(moduleOfApi('/api/v1/service/action/tab-form/:uid/')).toBeNull()
    expect(moduleOfApi('/api/v1/crm/leads/')).toBe('dialer')
    expect(moduleOfApi('/api/v1/crm/clients/')).toBe('crm')
    expect(moduleOfApi('/api/v1/crm/coworkers/')).toBeNull()
    expect(moduleOfApi('/api/v1/business/profile/')).toBeNull()
    expect(moduleOfPage('/chats')).toBe('chat')
    expect(moduleOfPage('/chats-backup')).toBe('chat')
    expect(moduleOfPage('/settings/crm/mailings/create')).toBe('dialer')
    expect(moduleOfPage('/settings/crm/tags')).toBe('crm')
    expect(moduleOfPage('/settings/service/teams')).toBeNull()
    expect(moduleOfPage('/')).toBeNull()
  })

  it("gives existing sites' administrators the modules codenames at start, once, and nobody else", async () => {
    const db = t.database.db
    const site = await createSite(db, { domain: 'modules-upgrade.example', name: 'Antiga' })
    // The groups of a site seeded before modules existed.
    const older = ALL_PERMISSIONS.filter((p) => !(ADMIN_CODENAMES_ADDED as readonly string[]).includes(p))
    const adminGroup = await createGroup(db, site.id, 'Administradores', older)
    const agents = await createGroup(db, site.id, 'Agentes', ['sites.view_dashboard', 'chat.view_chat'])
    await createUser(db, { siteId: site.id, username: 'oldadmin', password: 'oldadmin12', groupIds: [adminGroup] })
    const client = new TestClient(t.app, { host: 'modules-upgrade.example' })
    expect((await client.login('oldadmin', 'oldadmin12')).statusCode).toBe(200)
    expect((await client.get(M)).statusCode).toBe(403)

    await runDataSteps(db)
    // At a real start no server has cached anyone yet; this test's app has, so it is told as a group edit would.
    await authChanged(db, t.bus, { kind: 'site', site_id: site.id })
    const permissionsOf = async (id: number) => (await db.select().from(permissionGroups).where(eq(permissionGroups.id, id)))[0]!.permissions
    const upgraded = await permissionsOf(adminGroup)
    expect(upgraded).toEqual([...older, ...ADMIN_CODENAMES_ADDED])
    expect(await permissionsOf(agents)).toEqual(['sites.view_dashboard', 'chat.view_chat'])
    const again = new TestClient(t.app, { host: 'modules-upgrade.example' })
    expect((await again.login('oldadmin', 'oldadmin12')).statusCode).toBe(200)
    expect((await again.get(M)).statusCode).toBe(200)
    // A second start changes nothing (no group, no duplicate codename).
    expect(await grantAddedAdminCodenames(db)).toBe(0)
    expect(await permissionsOf(adminGroup)).toEqual(upgraded)
  })
})
