import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { permissionGroups, sites } from '../db/schema/index.ts'
import type { SiteRow, UserRow } from '../db/schema/index.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { passwordProblems } from '../../contract/api/password.ts'
import { createSite, findSiteByDomain } from '../sites/site-repo.ts'
import { createGroup, createUser, findUserByUsername } from '../users/user-repo.ts'

// The production way in (`npm run create-admin`): an administrator holding every permission, on the named site or the
// default one, creating that site when there is none.
export const ADMIN_GROUP = 'Administradores'

export async function createAdmin(db: Db, input: { username: string; password: string; domain?: string }): Promise<{ site: SiteRow; user: UserRow }> {
  const username = input.username.trim()
  if (!username) throw new Error('--username is required')
  const problems = passwordProblems(input.password, { username })
  if (problems.length > 0) throw new Error(problems.join(' '))

  const site = await siteFor(db, input.domain)
  if (await findUserByUsername(db, site.id, username)) throw new Error(`user "${username}" already exists on ${site.domain}`)
  const [group] = await db
    .select({ id: permissionGroups.id })
    .from(permissionGroups)
    .where(and(eq(permissionGroups.siteId, site.id), eq(permissionGroups.name, ADMIN_GROUP)))
  // An existing group of that name is brought up to every permission rather than trusted as it is.
  if (group)
    await db
      .update(permissionGroups)
      .set({ permissions: [...ALL_PERMISSIONS] })
      .where(eq(permissionGroups.id, group.id))
  const groupId = group?.id ?? (await createGroup(db, site.id, ADMIN_GROUP, ALL_PERMISSIONS))
  const user = await createUser(db, { siteId: site.id, username, password: input.password, groupIds: [groupId] })
  return { site, user }
}

async function siteFor(db: Db, domain: string | undefined): Promise<SiteRow> {
  if (domain) return (await findSiteByDomain(db, domain)) ?? createSite(db, { domain, name: domain })
  const [first] = await db.select().from(sites).orderBy(asc(sites.id)).limit(1)
  return first ?? createSite(db, { domain: 'localhost', name: 'Atende' })
}
