import { modulesOf } from '../../contract/modules.ts'
import type { Modules } from '../../contract/modules.ts'
import type { SiteRow } from '../db/schema/index.ts'

// The site's modules (contract/modules.ts), kept in the site's settings document under `modules`: one small object
// per tenant, read with the site row every request already has (the Host's site is cached), so the guard costs no
// query. Absent or partial means on: sites created before modules existed keep every area. Read and written by
// server/routes/system/modules-routes.ts; checked by the permission guard (server/http/permission-guard.ts).

/** The audit log's entity for a change of modules (object_id = the site). */
export const MODULES_ENTITY = 'system.base-modules'

export function siteModules(site: SiteRow | null): Modules {
  return modulesOf((site?.settings as Record<string, unknown> | undefined)?.modules)
}
