import type { FastifyInstance } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import { MODULES_PATH, ModulesBody } from '../../../contract/modules.ts'
import type { Modules } from '../../../contract/modules.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { authChanged } from '../../auth/auth-cache.ts'
import { auditLog, sites } from '../../db/schema/index.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { MODULES_ENTITY, siteModules } from '../../sites/modules.ts'

// GET and PUT /api/v1/system/base/modules/ — the settings page system/base/modules (src/features/settings/README.md).
export async function moduleRoutes(app: FastifyInstance): Promise<void> {
  app.get(MODULES_PATH, { config: { permission: PERMISSIONS.viewModules } }, async (request): Promise<Modules> => siteModules(request.site))

  app.put(MODULES_PATH, { config: { permission: PERMISSIONS.changeModules } }, async (request): Promise<Modules> => {
    const body: Modules = parseInput(ModulesBody, request.body, request.lang)
    const site = request.site
    if (!site || !request.auth) throw detailError(404, 'notFound', request.lang)
    const before = siteModules(site)
    const { db, bus } = app.deps
    await db.transaction(async (tx) => {
      await tx
        .update(sites)
        .set({ settings: sql`coalesce(${sites.settings}, '{}'::jsonb) || ${JSON.stringify({ modules: body })}::jsonb`, updatedAt: new Date() })
        .where(eq(sites.id, site.id))
      await tx.insert(auditLog).values({
        siteId: site.id,
        userId: request.auth!.user.id,
        entity: MODULES_ENTITY,
        objectId: site.id,
        action: 'update',
        before: { ...before },
        after: { ...body },
      })
    })
    // Every instance reads the site row again: the guard and the profiles see the new modules at once.
    await authChanged(db, bus, { kind: 'all' })
    return body
  })
}
