import type { FastifyInstance } from 'fastify'
import { eq } from 'drizzle-orm'
import type { CoworkerListResponse } from '../../../contract/api/coworkers.ts'
import { COWORKER_PATHS } from '../../../contract/api/coworkers.ts'
import { listStatuses } from '../../agent/status-service.ts'
import { voipAccounts } from '../../db/schema/index.ts'

// GET /v1/crm/coworkers/ (contract/api/coworkers.ts): the agents' own statuses (server/agent/status-service.ts) with
// each one's extension, for the coworkers page; no pause reasons or team data, which stay the supervisors'.
export async function coworkerRoutes(app: FastifyInstance): Promise<void> {
  app.get(COWORKER_PATHS.list, { config: { permission: 'authenticated' } }, async (request): Promise<CoworkerListResponse> => {
    const siteId = request.auth!.user.siteId
    const [statuses, accounts] = await Promise.all([
      listStatuses(app.deps, siteId),
      app.deps.db.select({ userId: voipAccounts.userId, endpoint: voipAccounts.endpoint }).from(voipAccounts).where(eq(voipAccounts.siteId, siteId)),
    ])
    const extensionOf = new Map(accounts.map((a) => [a.userId, a.endpoint]))
    const results = statuses.map((row) => ({
      user: row.user,
      username: row.username,
      name: row.name,
      extension: extensionOf.get(row.user) ?? null,
      telephony_status: row.telephony_status,
      telephony_changed_at: row.telephony_changed_at,
      chat_status: row.chat_status,
      chat_changed_at: row.chat_changed_at,
      paused: row.pause !== null && !row.pause.pending,
    }))
    return { count: results.length, results }
  })
}
