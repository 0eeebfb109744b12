import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { passwordProblems } from '../../contract/api/password.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { permissionGroups, sites, teams, users, voipAccounts } from '../../server/db/schema/index.ts'
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { DEMO_PASSWORDS, signedIn, useTestApp } from './helper.ts'

const t = useTestApp()

describe('demo data', () => {
  it('uses passwords that pass the shared policy', () => {
    for (const account of DEMO_ACCOUNTS) {
      expect(passwordProblems(account.password, { username: account.username })).toEqual([])
      expect(DEMO_PASSWORDS[account.username as keyof typeof DEMO_PASSWORDS]).toBe(account.password)
    }
  })

  it('creates one site, the three groups, the team and the webphone accounts of the agents', async () => {
    const db = t.database.db
    expect(await db.select({ domain: sites.domain, name: sites.name }).from(sites)).toEqual([{ domain: 'localhost', name: 'Atende Demo' }])
    const groups = Object.fromEntries((await db.select().from(permissionGroups)).map((g) => [g.name, g.permissions]))
    expect(groups.Administradores).toEqual([...ALL_PERMISSIONS])
    expect(groups.Supervisores).toEqual(
      expect.arrayContaining([
        PERMISSIONS.viewDashboardSupervisor,
        PERMISSIONS.pauseAgent,
        PERMISSIONS.commandAgent,
        PERMISSIONS.monitorAgent,
        PERMISSIONS.addActivity,
        PERMISSIONS.downloadMonitorFile,
      ]),
    )
    expect(groups.Supervisores).toHaveLength(23)
    expect(groups.Supervisores).toContain('crm.delete_clientinteraction')
    expect(groups.Agentes).not.toContain(PERMISSIONS.pauseAgent)
    expect(groups.Agentes).not.toContain(PERMISSIONS.commandAgent)
    expect(groups.Agentes).not.toContain(PERMISSIONS.monitorAgent)
    expect(groups.Agentes).not.toContain(PERMISSIONS.addActivity)
    expect(groups.Agentes).toHaveLength(14)
    // Agents keep interactions (add, change), never delete them.
    expect(groups.Agentes).toEqual(expect.arrayContaining(['crm.view_clientinteraction', 'crm.add_clientinteraction', 'crm.change_clientinteraction']))
    expect(groups.Agentes).not.toContain('crm.delete_clientinteraction')
    expect(groups.Agentes).not.toContain(PERMISSIONS.viewReports)
    expect((await db.select({ name: teams.name }).from(teams)).map((r) => r.name)).toEqual(['Equipe Demo', 'Equipe Vendas'])
    const endpoints = await db
      .select({ username: users.username, endpoint: voipAccounts.endpoint, realm: voipAccounts.realm })
      .from(voipAccounts)
      .innerJoin(users, eq(users.id, voipAccounts.userId))
    expect(endpoints.sort((a, b) => a.username.localeCompare(b.username))).toEqual([
      { username: 'agent1', endpoint: '10001', realm: 'localhost' },
      { username: 'agent2', endpoint: '10002', realm: 'localhost' },
    ])
  })

  it("sets up a small contact centre: pauses, the agents' SIP devices with their webphone secrets, routes, an IVR", async () => {
    const admin = await signedIn(t.app, 'admin')
    const get = async (path: string) => (await admin.get(path)).json()
    expect(
      (await get('/api/v1/service/pauses/')).results.map((p: { description: string; maximum_duration: number; lock_screen: boolean }) => [
        p.description,
        p.maximum_duration,
        p.lock_screen,
      ]),
    ).toEqual([
      ['Almoço', 3600, true],
      ['Café', 900, false],
      ['Treinamento', 0, false],
      ['Banheiro', 600, false],
    ])
    const devices = (await t.database.db.execute(
      'SELECT u.username AS agent, d.username AS extension, d.secret = v.password AS same_secret FROM users u JOIN pabx_devices d ON d.id = u.device_id JOIN voip_accounts v ON v.user_id = u.id ORDER BY 1',
    )) as unknown as { rows: unknown[] }
    expect(devices.rows).toEqual([
      { agent: 'agent1', extension: '10001', same_secret: true },
      { agent: 'agent2', extension: '10002', same_secret: true },
    ])
    const [trunk] = (await get('/api/v1/pabx/trunks/')).results
    expect(trunk).toMatchObject({ host: '127.0.0.1', port: 5090, transport: 'udp' })
    const [route] = (await get('/api/v1/pabx/outbound-routes/')).results
    expect(route).toMatchObject({ teams_description: ['Equipe Demo'], webphone: true })
    const numbers = (await get('/api/v1/pabx/numbers/')).results as { number: string; inbound_route_description: string }[]
    expect(numbers.map((n) => [n.number, n.inbound_route_description]).sort()).toEqual([
      ['551130000000', 'Entrada principal'],
      ['551130000001', 'Linha direta do suporte'],
    ])
    const direct = (await get('/api/v1/pabx/inbound-routes/')).results.find((r: { description: string }) => r.description === 'Linha direta do suporte')
    expect(direct.destination_description).toBe('Fila: Suporte')
    // The demo extensions follow the 5-digit rule: the settings API edits them like any other device.
    const [device] = (await get('/api/v1/pabx/devices/?search=10001')).results
    const edited = await admin.patch(`/api/v1/pabx/devices/${device.id}/`, { description: 'Ramal 10001 (Ana)' })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(edited.json()).toMatchObject({ username: '10001', description: 'Ramal 10001 (Ana)' })
    const [inbound] = (await get('/api/v1/pabx/inbound-routes/')).results
    expect(inbound.destination_description).toBe('URA: URA principal')
    const [ivr] = (await get('/api/v1/pabx/ivrs/')).results
    expect(ivr.options.map((o: { digit: string; destination_description: string }) => [o.digit, o.destination_description])).toEqual([
      ['1', 'Fila: Suporte'],
      ['2', 'Fila: Vendas'],
    ])
    const queues = (await get('/api/v1/pabx/queues/')).results
    expect(
      queues.map((q: { description: string; members: { user_description: string }[] }) => [q.description, q.members.map((m) => m.user_description)]),
    ).toEqual([
      ['Suporte', ['agent1', 'agent2']],
      ['Vendas', ['agent1', 'agent2']],
    ])
    const prompt = await t.app.inject({ method: 'GET', url: ivr.greeting ? (await get(`/api/v1/pabx/sounds-entries/${ivr.greeting}/`)).file : '' })
    expect(prompt.headers['content-type']).toBe('audio/wav')
    const channels = (await get('/api/v1/chat/channels/')).results
    expect(channels.map((c: { type: string }) => c.type)).toEqual(['whatsapp', 'webchat'])
    expect(channels[0]).not.toHaveProperty('access_token')
    expect((await get('/api/v1/service/blacklists/')).count).toBe(2)
    expect((await get('/api/v1/crm/organizations/')).count).toBe(2)
    expect((await get('/api/v1/crm/products/')).count).toBe(3)
  })

  it('does nothing when users exist', async () => {
    expect(await seedDemoIfEmpty(t.database.db, { port: 8080 })).toBeNull()
    expect(await t.database.db.select({ id: users.id }).from(users)).toHaveLength(4)
  })
})
