import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, desc, eq, isNull } from 'drizzle-orm'
import * as v from 'valibot'
import { Id } from '../../contract/api/agent.ts'
import { CRM_PATHS, MatchQuery, MergeBody, TIMELINE_PAGE_SIZE, TimelineQuery } from '../../contract/api/crm.ts'
import type { DuplicatesResponse, LeadCallsResponse, MatchResponse, MergeResponse, TimelineResponse } from '../../contract/api/crm.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { callRecords, crmClients, crmLeads } from '../db/schema/index.ts'
import { entityContext } from '../entities/entity-routes.ts'
import { detailError } from '../http/errors.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'
import { interactionFileRoutes } from './interaction-files.ts'
import { interactionTypeRoutes } from './interactions.ts'
import { clientByPhone, duplicatesOf, phoneKey } from './keys.ts'
import { mergeClients } from './merge.ts'
import { clientTimeline, decodeCursor } from './timeline.ts'

// The CRM calls beyond the generic CRUD (contract/api/crm.ts). Another site's client or lead is 404, like a missing one.

const IdParams = v.object({ id: Id })
const LAST_CONTACTS = 5

export async function crmRoutes(app: FastifyInstance): Promise<void> {
  await interactionTypeRoutes(app)
  await interactionFileRoutes(app)
  const clients = entityByKey('crm.clients')
  const leads = entityByKey('crm.leads')
  const siteOf = (request: FastifyRequest) => request.auth!.user.siteId
  const idOf = (request: FastifyRequest): number => {
    const parsed = v.safeParse(IdParams, request.params)
    if (!parsed.success) throw detailError(404, 'notFound', request.lang)
    return parsed.output.id
  }
  const clientOf = async (request: FastifyRequest, id: number) => {
    const [row] = await app.deps.db
      .select({ id: crmClients.id, name: crmClients.name, phones: crmClients.phones, documents: crmClients.documents })
      .from(crmClients)
      .where(and(eq(crmClients.id, id), eq(crmClients.siteId, siteOf(request))))
    if (!row) throw detailError(404, 'notFound', request.lang)
    return row
  }
  // Entity codenames are registry strings (contract/all-permissions.ts lists them).
  const view = { config: { permission: clients.permissions.view as RoutePermission } }

  app.get(CRM_PATHS.match, view, async (request): Promise<MatchResponse> => {
    const query = parseInput(MatchQuery, request.query, request.lang)
    const phone = phoneKey(query.phone)
    const id = await clientByPhone(app.deps.db, siteOf(request), query.phone)
    if (!id) return { phone, client: null, last_contacts: [] }
    const client = await clientOf(request, id)
    const timeline = await clientTimeline(app.deps.db, siteOf(request), id, { kinds: ['call', 'chat', 'interaction'], limit: LAST_CONTACTS })
    return { phone, client, last_contacts: timeline.results }
  })

  app.get(CRM_PATHS.duplicates, view, async (request): Promise<DuplicatesResponse> => {
    const client = await clientOf(request, idOf(request))
    return { results: await duplicatesOf(app.deps.db, siteOf(request), client.id) }
  })

  // Merging changes the kept client and deletes the other.
  app.post(CRM_PATHS.merge, { config: { permission: clients.permissions.change as RoutePermission } }, async (request): Promise<MergeResponse> => {
    if (!request.auth!.roles.includes(clients.permissions.delete)) throw detailError(403, 'permissionDenied', request.lang)
    const keepId = idOf(request)
    const body = parseInput(MergeBody, request.body, request.lang)
    return mergeClients(entityContext(app, request), keepId, body.merge_id)
  })

  app.get(CRM_PATHS.timeline, view, async (request): Promise<TimelineResponse> => {
    const client = await clientOf(request, idOf(request))
    const query = parseInput(TimelineQuery, request.query, request.lang)
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
    if (query.cursor !== undefined && !cursor) throw detailError(400, 'invalidValue', request.lang)
    return clientTimeline(app.deps.db, siteOf(request), client.id, { kinds: query.channel, cursor, limit: query.limit ?? TIMELINE_PAGE_SIZE })
  })

  app.get(CRM_PATHS.leadCalls, { config: { permission: leads.permissions.view as RoutePermission } }, async (request): Promise<LeadCallsResponse> => {
    const id = idOf(request)
    const [lead] = await app.deps.db
      .select({ id: crmLeads.id })
      .from(crmLeads)
      .where(and(eq(crmLeads.id, id), eq(crmLeads.siteId, siteOf(request))))
    if (!lead) throw detailError(404, 'notFound', request.lang)
    const rows = await app.deps.db
      .select()
      .from(callRecords)
      .where(and(eq(callRecords.leadId, id), eq(callRecords.siteId, siteOf(request)), isNull(callRecords.parentUid)))
      .orderBy(desc(callRecords.startedAt))
      .limit(200)
    return {
      results: rows.map((c) => ({
        id: c.id,
        uid: c.uid,
        started_at: c.startedAt.toISOString(),
        direction: c.direction,
        phone: c.phone,
        dial_status: c.dialStatus,
        answered_duration: c.answeredDuration,
        user_id: c.userId,
        recording: c.recordingPath !== null,
      })),
    }
  })
}
