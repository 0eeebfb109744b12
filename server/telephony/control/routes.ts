import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { CallStepRow, LookupRow, PermissionAppRow } from '../../../contract/api/calls.ts'
import {
  CALL_PATHS,
  CallIdParam,
  CallListQuery as CallListQuerySchema,
  PERMISSION_APP_NAMES,
  PermissionAppsParams,
  RecordingQuery,
} from '../../../contract/api/calls.ts'
import type { EntityKey } from '../../../contract/entities/index.ts'
import { PABX_APPS } from '../../../contract/entities/apps.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { pabxDevices, users } from '../../db/schema/index.ts'
import { entityContext } from '../../entities/entity-routes.ts'
import { loadTitles } from '../../entities/titles.ts'
import { detailError } from '../../http/errors.ts'
import { sendStoredFile } from '../../http/files.ts'
import { parseInput } from '../../http/validate.ts'
import { allowedRoutes } from './outbound.ts'
import { allowedAppIds } from './app-permissions.ts'
import { callSteps, listCalls } from './calls-query.ts'
import type { CallViewer } from './calls-query.ts'
import { EncoderMissingError, recordingFile } from './recordings/store.ts'

// The call-record API (spec 001 §7: /v1/report/call-steps/{callId}/, the recording player; spec 000 §2 /phonecalls)
// and the webphone's lookups (spec 000 §7). The queries are calls-query.ts; who sees what is `viewerOf`.

function seesAll(request: FastifyRequest): boolean {
  const roles = request.auth!.roles
  return roles.includes(PERMISSIONS.viewReports) || roles.includes(PERMISSIONS.viewDashboardSupervisor)
}

function viewerOf(request: FastifyRequest): CallViewer {
  const user = request.auth!.user
  return { siteId: user.siteId, userId: user.id, seesAll: seesAll(request) }
}

/** The steps of one call the caller may see; 404 when there are none. */
async function visibleSteps(app: FastifyInstance, request: FastifyRequest, callId: string): Promise<CallStepRow[]> {
  const steps = await callSteps(app.deps.db, viewerOf(request), callId, request.lang)
  if (steps.length === 0) throw detailError(404, 'notFound', request.lang)
  return steps
}

/** Where rtpengine writes recordings for this server. */
export function recordingsDir(dataDir: string): string {
  return path.join(dataDir, 'telephony', 'recordings')
}

/**
 * The calls the media app placed to carry this one's media to an agent (a queue caller it held, a dialer customer):
 * their first step's parent is this call's first step (routing.ts `fromMedia`); a transfer is not one (it names its
 * origin in `transfer_of_uid`, not `parent_uid`).
 */
async function mediaLegsOf(app: FastifyInstance, siteId: number, callId: string): Promise<string[]> {
  const rows = (await app.deps.db.execute(sql`
    select distinct leg.call_id from call_records head
    join call_records leg on leg.site_id = head.site_id and leg.parent_uid = head.uid and leg.call_id <> head.call_id
    where head.site_id = ${siteId} and head.call_id = ${callId} and head.step = 1`)) as unknown as { rows: { call_id: string }[] }
  return rows.rows.map((row) => row.call_id)
}

/**
 * A call's recording as audio (the API's `/v1/report/recordings/{callId}/` and the player's media path
 * `/recordings/player/{callId}`): only of a call the caller may see (404 otherwise, as for a call without a recording),
 * `?extension=mp3|wav` (mp3 by default), inline for the <audio> element, `download=1` as an attachment.
 */
export async function sendRecording(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const { callId } = parseInput(CallIdParam, request.params, request.lang)
  const query = parseInput(RecordingQuery, request.query, request.lang)
  // The call must be one the caller may see (404 otherwise, as for a call without a recording).
  await visibleSteps(app, request, callId)
  const format = query.extension ?? 'mp3'
  let file: string | null
  try {
    file = await recordingFile(recordingsDir(app.deps.config.dataDir), callId, format, await mediaLegsOf(app, viewerOf(request).siteId, callId))
  } catch (error) {
    if (error instanceof EncoderMissingError) throw detailError(503, 'recordingEncoderMissing', request.lang)
    throw error
  }
  if (!file) throw detailError(404, 'noRecording', request.lang)
  const download = query.download === '1' || query.download === 'true'
  const safeName = `${callId.replace(/[^\w.-]+/g, '_').slice(0, 80)}.${format}`
  return sendStoredFile(reply, file, {
    type: format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
    filename: safeName,
    disposition: download ? 'attachment' : 'inline',
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Webphone lookups

/** The destinations of `app` an endpoint may call or transfer to (app-permissions.ts), with their titles. */
async function permissionApps(
  app: FastifyInstance,
  request: FastifyRequest,
  endpoint: string,
  appName: (typeof PERMISSION_APP_NAMES)[number],
  kind: 'transfer' | 'call',
) {
  const db = app.deps.db
  const me = request.auth!.user
  const [device] = await db
    .select()
    .from(pabxDevices)
    .where(and(eq(pabxDevices.siteId, me.siteId), eq(pabxDevices.username, endpoint)))
  const isMine = device !== undefined && me.deviceId === device.id
  if (!device || (!isMine && !seesAll(request))) throw detailError(404, 'notFound', request.lang)
  const [owner] = await db
    .select({ teamId: users.teamId })
    .from(users)
    .where(and(eq(users.siteId, me.siteId), eq(users.deviceId, device.id)))
  const ids = await allowedAppIds(db, { siteId: me.siteId, deviceId: device.id, teamId: owner?.teamId ?? null }, appName, kind)
  const key = PABX_APPS[appName].entity as EntityKey
  const titles = await loadTitles(entityContext(app, request), key, ids)
  const results: PermissionAppRow[] = ids.map((id) => ({
    id,
    description: titles.get(id) ?? '',
    app: appName,
    appdata: String(id),
  }))
  return { count: results.length, results }
}

/** Routes carrying `?webphone=true` go to the webphone lookup instead of the settings list (find-my-way constraint). */
const WEBPHONE_CONSTRAINT = 'atendeWebphoneQuery'

function addWebphoneConstraint(app: FastifyInstance): void {
  if (app.hasConstraintStrategy(WEBPHONE_CONSTRAINT)) return
  app.addConstraintStrategy({
    name: WEBPHONE_CONSTRAINT,
    storage() {
      const handlers = new Map<string, unknown>()
      return {
        get: (value: string) => (handlers.get(value) ?? null) as never,
        set: (value: string, handler: unknown) => void handlers.set(value, handler),
      }
    },
    deriveConstraint(req: { url?: string }) {
      const url = req.url ?? ''
      if (!url.includes('webphone=')) return 'no'
      return new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('webphone') === 'true' ? 'yes' : 'no'
    },
    mustMatchWhenDerived: false,
  })
}

export async function callRoutes(app: FastifyInstance): Promise<void> {
  addWebphoneConstraint(app)
  const softphone = {
    config: { permission: PERMISSIONS.viewSoftphone },
  } as const

  app.get(CALL_PATHS.calls, softphone, async (request) =>
    listCalls(app.deps.db, viewerOf(request), parseInput(CallListQuerySchema, request.query, request.lang), request.lang),
  )

  // A call's steps: the calls screen's detail (softphone) and the reports' (sites.view_reports, who sees every call).
  app.get(CALL_PATHS.callSteps, { config: { permission: [PERMISSIONS.viewSoftphone, PERMISSIONS.viewReports] } }, async (request) => {
    const { callId } = parseInput(CallIdParam, request.params, request.lang)
    const results = await visibleSteps(app, request, callId)
    return { count: results.length, results }
  })

  app.get(CALL_PATHS.recording, { config: { permission: PERMISSIONS.downloadMonitorFile } }, async (request, reply) => sendRecording(app, request, reply))

  app.get(CALL_PATHS.permissionApps, softphone, async (request) => {
    const params = parseInput(PermissionAppsParams, request.params, request.lang)
    return permissionApps(app, request, params.endpoint, params.app, params.kind)
  })

  app.get(
    CALL_PATHS.outboundRoutes,
    { ...softphone, constraints: { [WEBPHONE_CONSTRAINT]: 'yes' } },
    async (request): Promise<{ count: number; results: LookupRow[] }> => {
      const me = request.auth!.user
      const routes = await allowedRoutes(app.deps.db, me.siteId, me.deviceId, me.teamId)
      const results = routes.filter((r) => r.webphone).map((r) => ({ id: r.id, description: r.description }))
      return { count: results.length, results }
    },
  )
}
