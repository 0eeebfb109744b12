import { auditLog } from '../db/schema/audit-log.ts'
import type { Db } from '../db/client.ts'

// A supervisor's act on an agent (pause, unpause, do-not-disturb, reload, open a page, logout, end after-service) is
// written to the audit log like a settings change: who did it, to which agent (object_id), what (after.command). A
// pause is written in the pause's own transaction; a command just before it is sent, so none goes unrecorded.

/** The audit log's entity for these entries (GET /api/v1/system/audit-log/?entity=agent.supervisor_action). */
export const SUPERVISOR_ACTION_ENTITY = 'agent.supervisor_action'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export async function auditSupervisorAction(
  db: Db | Tx,
  entry: { siteId: number; supervisorId: number; agentId: number; command: string; detail?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    siteId: entry.siteId,
    userId: entry.supervisorId,
    entity: SUPERVISOR_ACTION_ENTITY,
    objectId: entry.agentId,
    action: 'update',
    before: null,
    after: { command: entry.command, ...entry.detail },
  })
}
