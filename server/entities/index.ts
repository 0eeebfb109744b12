import type { FastifyInstance } from 'fastify'
import { auditRoutes } from './audit-routes.ts'
import { entityRoutes } from './entity-routes.ts'
import { importRoutes } from './import/import-routes.ts'
import { lookupRoutes } from './lookup-routes.ts'
import { permissionListRoutes } from './permission-list-routes.ts'

// The settings catalogue's API (registered under /api): the generic CRUD of every entity, lookups, CSV imports, the
// audit log and the permission list the groups form picks from. Its uploads are served by media-routes.ts.
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(entityRoutes)
  await app.register(lookupRoutes)
  await app.register(importRoutes)
  await app.register(auditRoutes)
  await app.register(permissionListRoutes)
}

export { settingsMediaRoutes } from './media-routes.ts'
