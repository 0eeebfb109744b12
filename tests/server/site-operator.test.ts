import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { REPO_ROOT } from '../../server/config.ts'
import { openDatabase } from '../../server/db/client.ts'
import { pabxDevices, voipAccounts } from '../../server/db/schema/index.ts'
import { ha1 } from '../../server/entities/secrets.ts'
import { changeSiteDomain, createTenant, listSites } from '../../server/platform/operator.ts'
import { findSiteByDomain } from '../../server/sites/site-repo.ts'
import { createUser, findUserByUsername, loadRoles } from '../../server/users/user-repo.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { TestClient, openTestDatabase, useTestApp } from './helper.ts'

// The platform operator's tenant commands (server/platform/operator.ts, `npm run site`): a site is born with its first
// administrator, a domain is claimed once, and a move carries the SIP realm along. Site roles cannot do any of this
// through the API (tests/server/entities/sites.test.ts).
const t = useTestApp()
const sites = entityByKey('business.sites')

describe('creating a tenant', () => {
  it('makes the site and its administrator in one step; the administrator signs in on that host and sees only it', async () => {
    const { site, user } = await createTenant(t.database.db, { domain: 'Filial.Example.', name: 'Filial', username: 'gerente', password: 'Filial-2030' })
    expect(site).toMatchObject({ domain: 'filial.example', name: 'Filial' })
    expect(await loadRoles(t.database.db, site.id, user.id)).toEqual([...ALL_PERMISSIONS].sort())
    const client = new TestClient(t.app, { host: 'filial.example' })
    expect((await client.login('gerente', 'Filial-2030')).statusCode).toBe(200)
    expect((await client.get(sites.api)).json()).toMatchObject({ count: 1, results: [{ id: site.id, domain: 'filial.example' }] })
    // The default site keeps answering its own users on its own host.
    expect((await new TestClient(t.app).login('admin', 'gestor2025')).statusCode).toBe(200)
  })

  it('refuses a claimed domain, a bad host and a weak password, and leaves nothing behind', async () => {
    const input = { name: 'X', username: 'chefe', password: 'Strong-pass-42' }
    await expect(createTenant(t.database.db, { ...input, domain: 'LOCALHOST' })).rejects.toThrow(/already claimed/)
    await expect(createTenant(t.database.db, { ...input, domain: 'not a host' })).rejects.toThrow(/not a host name/)
    await expect(createTenant(t.database.db, { ...input, domain: 'fraca.example', password: 'short' })).rejects.toThrow(/8/)
    expect(await findSiteByDomain(t.database.db, 'fraca.example')).toBeNull()
    // Two operators racing for one domain: the unique index lets one through.
    const race = await Promise.allSettled([
      createTenant(t.database.db, { ...input, domain: 'corrida.example' }),
      createTenant(t.database.db, { ...input, domain: 'corrida.example', username: 'outro' }),
    ])
    expect(race.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
  })
})

describe('moving a site to another domain', () => {
  it("moves it, recomputes its devices' HA1 and its webphone realm, and the old host falls back to the default site", async () => {
    const { site } = await createTenant(t.database.db, { domain: 'antigo.example', name: 'Antigo', username: 'dono', password: 'Antigo-2030' })
    const [device] = await t.database.db
      .insert(pabxDevices)
      .values({ siteId: site.id, username: '20001', secret: 'sip-secret-1', secretHa1: ha1('20001', 'antigo.example', 'sip-secret-1') })
      .returning()
    const agent = await createUser(t.database.db, {
      siteId: site.id,
      username: 'agente',
      password: 'Agente-2030',
      voip: { websocket: 'wss://antigo.example/ws/sip', endpoint: '20001', realm: 'antigo.example', password: 'sip-secret-1' },
    })
    const moved = await changeSiteDomain(t.database.db, 'antigo.example', 'novo.example')
    expect(moved).toMatchObject({ id: site.id, domain: 'novo.example' })
    const [stored] = await t.database.db.select().from(pabxDevices).where(eq(pabxDevices.id, device!.id))
    expect(stored!.secretHa1).toBe(ha1('20001', 'novo.example', 'sip-secret-1'))
    const [voip] = await t.database.db.select().from(voipAccounts).where(eq(voipAccounts.userId, agent.id))
    expect(voip!.realm).toBe('novo.example')
    expect((await new TestClient(t.app, { host: 'novo.example' }).login('dono', 'Antigo-2030')).statusCode).toBe(200)
    expect((await new TestClient(t.app, { host: 'antigo.example' }).login('dono', 'Antigo-2030')).statusCode).toBe(400)
  })

  it('refuses a domain another site holds, and an unknown site', async () => {
    await createTenant(t.database.db, { domain: 'um.example', name: 'Um', username: 'um', password: 'Um-senha-2030' })
    await expect(changeSiteDomain(t.database.db, 'um.example', 'localhost')).rejects.toThrow(/already claimed/)
    await expect(changeSiteDomain(t.database.db, 'ninguem.example', 'livre.example')).rejects.toThrow(/no site/)
    expect((await findSiteByDomain(t.database.db, 'um.example'))?.domain).toBe('um.example')
  })

  it('lists every site with its users, the default one first', async () => {
    const listed = await listSites(t.database.db)
    expect(listed[0]).toMatchObject({ domain: 'localhost', isDefault: true })
    expect(listed.find((s) => s.domain === 'um.example')).toMatchObject({ users: 1, isDefault: false, isActive: true })
  })
})

describe('npm run site', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'atende-site-cli-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'site', '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } })
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      child.on('exit', (code) => resolve({ code, output }))
    })
  }

  it('creates a site with its administrator, lists it and moves its domain', async () => {
    // The child process reaches the same kind of database the suite runs on: PostgreSQL, or PGlite in a DATA_DIR.
    const database = process.env.TEST_DATABASE_URL ? await openTestDatabase() : null
    const dataDir = path.join(dir, 'cli')
    const env: Record<string, string> = database?.url ? { DATABASE_URL: database.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir }
    try {
      const created = await run(['create', '--domain', 'cc.example', '--name', 'Central', '--username', 'chief', '--password', 'Boss-pass-77'], env)
      expect(created.output).toContain('Created site cc.example')
      expect(created.code).toBe(0)
      const again = await run(['create', '--domain', 'cc.example', '--username', 'other', '--password', 'Boss-pass-77'], env)
      expect(again.code).toBe(1)
      expect(again.output).toMatch(/site: the domain cc.example is already claimed/)
      expect((await run(['create', '--domain', 'x.example'], env)).code).toBe(2)
      const moved = await run(['set-domain', '--domain', 'cc.example', '--to', 'central.example'], env)
      expect(moved.output).toContain('now answers on central.example')
      const listed = await run(['list'], env)
      expect(listed.output).toMatch(/central\.example\tCentral\t1 users\t\(default\)/)

      const check = database ?? (await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') }))
      try {
        const site = await findSiteByDomain(check.db, 'central.example')
        expect(await findUserByUsername(check.db, site!.id, 'chief')).not.toBeNull()
      } finally {
        await check.close()
      }
    } finally {
      if (database) await database.close().catch(() => {})
    }
  }, 90_000)
})
