import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { PERMISSIONS } from '../../contract/permissions.ts'
import type { Permission } from '../../contract/permissions.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { pabxDevices, users } from '../db/schema/index.ts'
import type { EntityContext } from './context.ts'
import { parseListQuery } from './list-query.ts'

// The user lookup (spec 000 §7, GET /api/v1/service/apps/business/users/): the people a picker offers — a transfer's
// destination, an activity's agent, a flow step's user. It answers what such a picker shows and nothing else: the
// person's name and extension, never the username (half of a sign-in) or e-mail, and only active users, who can take
// what is handed to them. Only users whose work needs a picker may list it: the webphone (transfers), scheduling
// activities for agents, or viewing the users' settings.

export const USER_LOOKUP_PERMISSIONS: readonly Permission[] = [
  PERMISSIONS.viewSoftphone,
  PERMISSIONS.addActivity,
  entityByKey('business.users').permissions.view as Permission,
]

/** One row: `description` is the person's name (the username only for someone without one), `extension` their device. */
export type UserLookupRow = { id: number; description: string; extension: string | null }

// Paging and the row filters (id, id__in, exclude_id) are the generic list's; search is the picker's own.
const LIST_PARAMS = ['offset', 'limit', 'id', 'id__in', 'exclude_id'] as const

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}

export async function lookupUsers(ctx: EntityContext, query: Record<string, unknown>): Promise<{ count: number; results: UserLookupRow[] }> {
  const listed = Object.fromEntries(LIST_PARAMS.filter((name) => query[name] !== undefined).map((name) => [name, query[name]]))
  const list = parseListQuery(ctx, 'business.users', listed)
  const conditions: SQL[] = [...list.where, eq(users.isActive, true)]
  const search = typeof query.search === 'string' ? query.search.trim() : ''
  if (search) {
    const like = `%${escapeLike(search)}%`
    const name = sql`${users.firstName} || ' ' || ${users.lastName}`
    const byExtension = ctx.db
      .select({ id: pabxDevices.id })
      .from(pabxDevices)
      .where(and(eq(pabxDevices.siteId, ctx.site.id), ilike(pabxDevices.username, like)))
    conditions.push(or(ilike(name, like), inArray(users.deviceId, byExtension))!)
  }
  const where = and(...conditions)
  const display = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.username})`
  const rows = await ctx.db
    .select({ id: users.id, description: display, extension: pabxDevices.username })
    .from(users)
    .leftJoin(pabxDevices, and(eq(pabxDevices.id, users.deviceId), eq(pabxDevices.siteId, ctx.site.id)))
    .where(where)
    .orderBy(asc(display), asc(users.id))
    .limit(list.limit)
    .offset(list.offset)
  // A short page gives the count for free (unless it is empty past the end).
  const short = rows.length < list.limit && (rows.length > 0 || list.offset === 0)
  const total = short ? list.offset + rows.length : Number((await ctx.db.select({ n: count() }).from(users).where(where))[0]!.n)
  return { count: total, results: rows.map((row) => ({ id: row.id, description: row.description, extension: row.extension ?? null })) }
}
