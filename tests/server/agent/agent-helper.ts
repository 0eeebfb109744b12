import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../../server/db/client.ts'
import { servicePauses, servicePausesTeams, teams } from '../../../server/db/schema/index.ts'
import { pauseReports } from '../../../server/db/schema/agent.ts'
import type { SiteRow, UserRow } from '../../../server/db/schema/index.ts'
import { createSite, findSiteByDomain } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { TestClient } from '../helper.ts'

// Users, sites and pause types for the agent API tests; every test makes its own users so their pauses never meet.
export const AGENT = [PERMISSIONS.viewTakeBreak, PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat]
export const SUPERVISOR = [...AGENT, PERMISSIONS.viewDashboardSupervisor, 'sites.pause_agent']

export async function siteNamed(db: Db, domain: string): Promise<SiteRow> {
  return (await findSiteByDomain(db, domain)) ?? createSite(db, { domain, name: domain })
}

let serial = 0

/** A user of `domain` holding exactly `permissions`, signed in with a cookie client on that host. */
export async function person(
  app: FastifyInstance,
  db: Db,
  options: { permissions: readonly string[]; domain?: string; teamId?: number | null; name?: string },
): Promise<{ user: UserRow; client: TestClient; cookie: string }> {
  const domain = options.domain ?? 'localhost'
  const site = await siteNamed(db, domain)
  const username = `${options.name ?? 'u'}${++serial}${Date.now() % 100000}`
  const group = await createGroup(db, site.id, `g-${username}`, options.permissions)
  const user = await createUser(db, { siteId: site.id, username, password: 'first1234', groupIds: [group], teamId: options.teamId ?? null })
  const client = new TestClient(app, { host: domain })
  const response = await client.login(username, 'first1234')
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`)
  return { user, client, cookie: `sessionid=${client.cookies.get('sessionid')}` }
}

export async function pauseType(db: Db, siteId: number, values: Partial<typeof servicePauses.$inferInsert> = {}) {
  const [row] = await db
    .insert(servicePauses)
    .values({ siteId, description: 'Café', maximumDuration: 900, ...values })
    .returning()
  return row!
}

export async function team(db: Db, siteId: number, name: string) {
  const [row] = await db.insert(teams).values({ siteId, name }).returning()
  return row!
}

export async function restrictToTeam(db: Db, pauseId: number, teamId: number, siteId: number) {
  await db.insert(servicePausesTeams).values({ pauseId, teamId, siteId })
}

/** Moves a running pause's start into the past, as if it had run `seconds` already. */
export async function backdate(db: Db, reportId: number, seconds: number) {
  await db
    .update(pauseReports)
    .set({ startedAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(pauseReports.id, reportId))
}

export async function report(db: Db, id: number) {
  const [row] = await db.select().from(pauseReports).where(eq(pauseReports.id, id))
  return row!
}
