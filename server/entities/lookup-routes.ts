import type { FastifyInstance } from 'fastify'
import type { EntityKey } from '../../contract/entities/index.ts'
import { DESTINATION_APPS } from '../../contract/entities/index.ts'
import { listCount, listPage, parseListQuery } from './list-query.ts'
import { entityContext, below } from './entity-routes.ts'
import { tablesOf } from './tables.ts'
import { loadTitles } from './titles.ts'
import { USER_LOOKUP_PERMISSIONS, lookupUsers } from './user-lookup.ts'

// The destination pickers' lookups (spec 000 §7 and 001 §7: /v1/service/apps/pabx/…, chat/…, business/users):
// `{count, results: [{id, description}]}`, paged and searched like any list (limit, offset, search, id, exclude_id).
// Any signed-in user may call them — flow steps and transfers need them — and they name rows of the caller's site only.
// The users' lookup names people: its rows and who may list them are server/entities/user-lookup.ts's.

const APPS_API = '/api/v1/service/apps'

/** Lookup path → the entity it lists: every destination app's, plus the users. */
export const LOOKUPS: ReadonlyMap<string, EntityKey> = new Map<string, EntityKey>([
  ...Object.values(DESTINATION_APPS).flatMap((apps) =>
    Object.values(apps).flatMap((app) => (app.lookup && app.entity ? [[app.lookup, app.entity] as [string, EntityKey]] : [])),
  ),
  [`${APPS_API}/business/users/`, 'business.users'],
])

export type LookupResult = { id: number; description: string }

export async function lookupRoutes(app: FastifyInstance): Promise<void> {
  for (const [path, key] of LOOKUPS) {
    if (key === 'business.users') {
      app.get(below(path), { config: { permission: USER_LOOKUP_PERMISSIONS } }, (request) =>
        lookupUsers(entityContext(app, request), request.query as Record<string, unknown>),
      )
      continue
    }
    app.get(below(path), { config: { permission: 'authenticated' } }, async (request) => {
      const ctx = entityContext(app, request)
      const list = parseListQuery(ctx, key, request.query as Record<string, unknown>)
      const tables = tablesOf(key)
      const page = listPage(ctx, tables, list)
      const rows = (await ctx.db
        .select({ id: tables.main.col('id') })
        .from(page.from)
        .where(page.where)
        .orderBy(...list.order)
        .limit(page.limit)
        .offset(page.offset)) as { id: number }[]
      const titles = await loadTitles(
        ctx,
        key,
        rows.map((r) => r.id),
      )
      const results: LookupResult[] = rows.map((r) => ({ id: r.id, description: titles.get(r.id) ?? '' }))
      return { count: await listCount(ctx, tables, list, rows.length), results }
    })
  }
}
