import { sql } from 'drizzle-orm'
import { PERMISSIONS } from '../../contract/permissions.ts'
import type { SQL } from 'drizzle-orm'

/** What the steps need of the database (client.ts calls them lazily; importing its Db type would close a circle). */
type Db = { execute: (query: SQL) => Promise<unknown> }

// Data steps: what the schema migrations cannot say, run after them on every start (openDatabase), each idempotent
// (a second run changes nothing) and cheap when there is nothing to do.

/** The codenames added after sites existed that their administrators need (issue 19 item 5: system/base/modules). */
export const ADMIN_CODENAMES_ADDED = [PERMISSIONS.viewModules, PERMISSIONS.changeModules] as const

/** The codename that marks an administrators' group: who may change permission groups may grant itself any codename. */
export const ADMIN_MARKER = 'business.change_group'

/**
 * Existing administrators' groups get the codenames added since their site was seeded (a fresh seed or create-admin
 * already gives every codename). Groups without the marker are left as their admin made them. Returns the groups changed.
 */
export async function grantAddedAdminCodenames(db: Db): Promise<number> {
  const codes = JSON.stringify(ADMIN_CODENAMES_ADDED)
  const result = await db.execute(sql`
    UPDATE permission_groups g
    SET permissions = g.permissions || (
      SELECT coalesce(jsonb_agg(c), '[]'::jsonb) FROM jsonb_array_elements_text(${codes}::jsonb) AS c WHERE NOT g.permissions ? c
    )
    WHERE g.permissions ? ${ADMIN_MARKER} AND NOT g.permissions @> ${codes}::jsonb`)
  return Number((result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0)
}

export async function runDataSteps(db: Db): Promise<void> {
  await grantAddedAdminCodenames(db)
}
