import { and, asc, eq, inArray } from 'drizzle-orm'
import type { DiallableApp } from '../../../contract/codes/transfer.ts'
import type { EntityKey } from '../../../contract/entities/index.ts'
import { PABX_APPS } from '../../../contract/entities/apps.ts'
import type { Db } from '../../db/client.ts'
import { pabxCallGroupMembers, pabxCallGroupPermissions, serviceTeamPermissions } from '../../db/schema/index.ts'
import { tablesOf } from '../../entities/tables.ts'

// Which destinations of an app an extension may call or transfer to (spec 000 §6: "transfer destinations are limited
// by per-endpoint application permission lists"): the active permission rows of its agent's team and of the call
// groups the device belongs to; when none of those names any destination at all, every active one of the site. The
// webphone's permission-apps lookups list them, and call control refuses a dial or transfer to any other.

type PermissionRow = { app: string; appdata: string; allowTransfer: boolean; allowCall: boolean }

/** The ids of `app`'s active destinations the device may reach (`kind` transfer or call), ascending. */
export async function allowedAppIds(
  db: Db,
  endpoint: { siteId: number; deviceId: number; teamId: number | null },
  app: DiallableApp,
  kind: 'transfer' | 'call',
): Promise<number[]> {
  const { siteId, deviceId, teamId } = endpoint
  const rules: PermissionRow[] = []
  if (teamId) {
    rules.push(
      ...(await db
        .select({
          app: serviceTeamPermissions.destinationApp,
          appdata: serviceTeamPermissions.destinationAppdata,
          allowTransfer: serviceTeamPermissions.allowTransfer,
          allowCall: serviceTeamPermissions.allowCall,
        })
        .from(serviceTeamPermissions)
        .where(and(eq(serviceTeamPermissions.siteId, siteId), eq(serviceTeamPermissions.teamId, teamId), eq(serviceTeamPermissions.isActive, true)))),
    )
  }
  const groups = await db
    .select({ id: pabxCallGroupMembers.callGroupId })
    .from(pabxCallGroupMembers)
    .where(and(eq(pabxCallGroupMembers.siteId, siteId), eq(pabxCallGroupMembers.deviceId, deviceId), eq(pabxCallGroupMembers.isActive, true)))
  if (groups.length > 0) {
    rules.push(
      ...(await db
        .select({
          app: pabxCallGroupPermissions.destinationApp,
          appdata: pabxCallGroupPermissions.destinationAppdata,
          allowTransfer: pabxCallGroupPermissions.allowTransfer,
          allowCall: pabxCallGroupPermissions.allowCall,
        })
        .from(pabxCallGroupPermissions)
        .where(
          and(
            eq(pabxCallGroupPermissions.siteId, siteId),
            inArray(
              pabxCallGroupPermissions.callGroupId,
              groups.map((g) => g.id),
            ),
            eq(pabxCallGroupPermissions.isActive, true),
          ),
        )),
    )
  }
  const { main } = tablesOf(PABX_APPS[app].entity as EntityKey)
  const allowed = kind === 'transfer' ? 'allowTransfer' : 'allowCall'
  let ids: number[]
  if (rules.length > 0) {
    ids = [...new Set(rules.filter((r) => r.app === app && r[allowed] && /^\d+$/.test(r.appdata)).map((r) => Number(r.appdata)))]
    if (ids.length === 0) return []
    const active = (await db
      .select({ id: main.col('id') })
      .from(main.table)
      .where(and(eq(main.col('site_id'), siteId), inArray(main.col('id'), ids), eq(main.col('is_active'), true)))) as { id: number }[]
    ids = active.map((r) => r.id).sort((a, b) => a - b)
  } else {
    const active = (await db
      .select({ id: main.col('id') })
      .from(main.table)
      .where(and(eq(main.col('site_id'), siteId), eq(main.col('is_active'), true)))
      .orderBy(asc(main.col('id')))) as { id: number }[]
    ids = active.map((r) => r.id)
  }
  // An extension never transfers to or calls itself.
  return app === 'pjsip' ? ids.filter((id) => id !== deviceId) : ids
}
