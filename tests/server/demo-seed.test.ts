import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { passwordProblems } from '../../contract/api/password.ts'
import { ALL_PERMISSIONS, PERMISSIONS } from '../../contract/permissions.ts'
import { permissionGroups, sites, teams, users, voipAccounts } from '../../server/db/schema/index.ts'
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from '../../server/seed/demo-seed.ts'
import { DEMO_PASSWORDS, useTestApp } from './helper.ts'

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
    expect(groups.Supervisores).toEqual(expect.arrayContaining([PERMISSIONS.viewDashboardSupervisor, PERMISSIONS.downloadMonitorFile]))
    expect(groups.Supervisores).toHaveLength(13)
    expect(groups.Agentes).toHaveLength(9)
    expect(groups.Agentes).not.toContain(PERMISSIONS.viewReports)
    expect((await db.select({ name: teams.name }).from(teams)).map((r) => r.name)).toEqual(['Equipe Demo'])
    const endpoints = await db
      .select({ username: users.username, endpoint: voipAccounts.endpoint, realm: voipAccounts.realm })
      .from(voipAccounts)
      .innerJoin(users, eq(users.id, voipAccounts.userId))
    expect(endpoints.sort((a, b) => a.username.localeCompare(b.username))).toEqual([
      { username: 'agent1', endpoint: '1001', realm: 'localhost' },
      { username: 'agent2', endpoint: '1002', realm: 'localhost' },
    ])
  })

  it('does nothing when users exist', async () => {
    expect(await seedDemoIfEmpty(t.database.db, { port: 8080 })).toBeNull()
    expect(await t.database.db.select({ id: users.id }).from(users)).toHaveLength(4)
  })
})
