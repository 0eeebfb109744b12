import { asc, count, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { Bus } from '../bus/bus.ts'
import { authChanged } from '../auth/auth-cache.ts'
import { telephonyTablesChanged } from '../telephony/changes.ts'
import { pabxDevices, sites, users, voipAccounts } from '../db/schema/index.ts'
import type { SiteRow, UserRow } from '../db/schema/index.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { passwordProblems } from '../../contract/api/password.ts'
import { isHost } from '../../contract/entities/validators.ts'
import { ha1 } from '../entities/secrets.ts'
import { isUniqueViolation } from '../entities/unique.ts'
import { ADMIN_GROUP } from '../users/create-admin.ts'
import { createGroup, createUser } from '../users/user-repo.ts'
import { findSiteByDomain, normaliseDomain } from '../sites/site-repo.ts'

// The platform operator's acts on tenants (`npm run site`, server/cli/site.ts). No site role can take them through the
// API (the `platform.*` codenames no group holds): a site admin who created a site could not see it, and one who moved
// a domain could take over another tenant's address. A site is born with its first administrator in one transaction,
// so no site is ever left without someone to sign in.

export class OperatorError extends Error {}

/**
 * Tells running servers on the same bus that sites changed: their caches forget every Host (a Host that fell back to
 * the default site may be a new site's now) and Kamailio's credential tables, which carry the realm, are pushed again.
 * Without a shared bus a running server notices within its cache's lifetime (60 s).
 */
export async function announceSitesChanged(db: Db, bus: Bus): Promise<void> {
  await authChanged(db, bus, { kind: 'all' })
  await telephonyTablesChanged(bus, 'sites')
}

/** A domain the operator may claim: a valid host name that no site holds yet. */
async function claimable(db: Db, domain: string): Promise<string> {
  const host = normaliseDomain(domain)
  if (!host || !isHost(host)) throw new OperatorError(`"${domain}" is not a host name`)
  if (await findSiteByDomain(db, host)) throw new OperatorError(`the domain ${host} is already claimed by another site`)
  return host
}

export type NewTenant = { domain: string; name: string; username: string; password: string }

/** A new site with its administrator group (every permission) and its first administrator. */
export async function createTenant(db: Db, input: NewTenant): Promise<{ site: SiteRow; user: UserRow }> {
  const domain = await claimable(db, input.domain)
  const name = input.name.trim() || domain
  const username = input.username.trim()
  if (!username) throw new OperatorError('--username is required')
  const problems = passwordProblems(input.password, { username })
  if (problems.length > 0) throw new OperatorError(problems.join(' '))
  try {
    return await db.transaction(async (tx) => {
      const t = tx as unknown as Db
      const [site] = await t.insert(sites).values({ domain, name }).returning()
      const groupId = await createGroup(t, site!.id, ADMIN_GROUP, ALL_PERMISSIONS)
      const user = await createUser(t, { siteId: site!.id, username, password: input.password, groupIds: [groupId] })
      return { site: site!, user }
    })
  } catch (error) {
    // Another operator claimed it meanwhile: the unique index on sites.domain is the last word.
    if (isUniqueViolation(error)) throw new OperatorError(`the domain ${domain} is already claimed by another site`)
    throw error
  }
}

/**
 * Moves a site to another domain. The SIP realm is the domain, so the site's devices get their HA1 recomputed and
 * the webphone accounts their realm, in the same transaction.
 */
export async function changeSiteDomain(db: Db, from: string, to: string): Promise<SiteRow> {
  const site = await findSiteByDomain(db, from)
  if (!site) throw new OperatorError(`no site has the domain ${normaliseDomain(from)}`)
  const domain = await claimable(db, to)
  try {
    return await db.transaction(async (tx) => {
      const [moved] = await tx.update(sites).set({ domain, updatedAt: new Date() }).where(eq(sites.id, site.id)).returning()
      const devices = await tx
        .select({ id: pabxDevices.id, username: pabxDevices.username, secret: pabxDevices.secret })
        .from(pabxDevices)
        .where(eq(pabxDevices.siteId, site.id))
      for (const device of devices) {
        const secretHa1 = device.secret ? ha1(device.username, domain, device.secret) : ''
        await tx.update(pabxDevices).set({ secretHa1 }).where(eq(pabxDevices.id, device.id))
      }
      await tx.update(voipAccounts).set({ realm: domain }).where(eq(voipAccounts.siteId, site.id))
      return moved!
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new OperatorError(`the domain ${domain} is already claimed by another site`)
    throw error
  }
}

export type SiteSummary = { id: number; domain: string; name: string; isActive: boolean; users: number; isDefault: boolean }

/** Every site, the default one (which answers unknown hosts) first. */
export async function listSites(db: Db): Promise<SiteSummary[]> {
  const rows = await db
    .select({ id: sites.id, domain: sites.domain, name: sites.name, isActive: sites.isActive, users: count(users.id) })
    .from(sites)
    .leftJoin(users, eq(users.siteId, sites.id))
    .groupBy(sites.id)
    .orderBy(asc(sites.id))
  return rows.map((row, index) => ({ ...row, users: Number(row.users), isDefault: index === 0 }))
}
