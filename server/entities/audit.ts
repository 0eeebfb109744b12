import { auditLog } from '../db/schema/index.ts'
import type { EntityKey } from '../../contract/entities/index.ts'
import type { EntityContext } from './context.ts'
import type { ApiRecord } from './serialize.ts'

// One audit entry per create, update and delete, written with the change in the same transaction. `before` and
// `after` are the records as the API shows them, with secrets as "[redacted]" (see serialize.ts).
export type AuditAction = 'create' | 'update' | 'delete'

export async function writeAudit(
  ctx: EntityContext,
  entity: EntityKey,
  objectId: number,
  action: AuditAction,
  before: ApiRecord | null,
  after: ApiRecord | null,
): Promise<void> {
  await ctx.db.insert(auditLog).values({ siteId: ctx.site.id, userId: ctx.userId, entity, objectId, action, before, after })
}
