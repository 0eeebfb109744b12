import { auditLog } from '../db/schema/index.ts'
import type { CascadeOf } from '../db/schema/index.ts'
import type { EntityKey } from '../../contract/entities/index.ts'
import type { EntityContext } from './context.ts'
import type { ApiRecord } from './serialize.ts'

// One audit entry per create, update and delete, written with the change in the same transaction. `before` and
// `after` are the records as the API shows them, with secrets as "[redacted]" (see serialize.ts). Rows a delete
// removed or changed through the database's cascades get entries too, naming that delete (cascade-audit.ts).
export type AuditAction = 'create' | 'update' | 'delete'

export type AuditEntry = {
  readonly entity: EntityKey
  readonly objectId: number
  readonly action: AuditAction
  readonly before: ApiRecord | null
  readonly after: ApiRecord | null
  readonly cascadeOf?: CascadeOf
}

// Bookkeeping every update moves; a change of it alone is no change.
const BOOKKEEPING = new Set(['updated_at'])

/** Whether an update changed anything an administrator could see (the records as the API shows them). */
export function recordChanged(before: ApiRecord | null, after: ApiRecord | null): boolean {
  if (!before || !after) return before !== after
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  for (const key of keys) if (!BOOKKEEPING.has(key) && JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) return true
  return false
}

export async function writeAuditEntries(ctx: EntityContext, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return
  await ctx.db.insert(auditLog).values(entries.map((entry) => ({ siteId: ctx.site.id, userId: ctx.userId, cascadeOf: null, ...entry })))
}

export async function writeAudit(
  ctx: EntityContext,
  entity: EntityKey,
  objectId: number,
  action: AuditAction,
  before: ApiRecord | null,
  after: ApiRecord | null,
): Promise<void> {
  await writeAuditEntries(ctx, [{ entity, objectId, action, before, after }])
}
