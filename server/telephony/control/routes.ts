import { createReadStream } from 'node:fs'
import path from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { CallListQuery, CallRow, CallStepRow, LookupRow, PermissionAppRow } from '../../../contract/api/calls.ts'
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
import { dialStatusLabel } from '../../../contract/codes/dial-status.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { pabxDevices, users } from '../../db/schema/index.ts'
import { entityContext } from '../../entities/entity-routes.ts'
import { loadTitles } from '../../entities/titles.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { allowedRoutes } from './routing.ts'
import { allowedAppIds } from './app-permissions.ts'
import { phoneTypeOf } from './phone.ts'
import { EncoderMissingError, recordingFile } from './recordings/store.ts'

// The call-record API (spec 001 §7: /v1/report/call-steps/{callId}/, the recording player; spec 000 §2 /phonecalls)
// and the webphone's lookups (spec 000 §7). An agent sees the calls they placed or were offered; holders of
// sites.view_reports or sites.view_dashboard_supervisor see every call of their site.

const UNPAGED = 99_999
const MAX_LIMIT = 10_000

/** Where rtpengine writes recordings for this server. */
export function recordingsDir(dataDir: string): string {
  return path.join(dataDir, 'telephony', 'recordings')
}

function seesAll(request: FastifyRequest): boolean {
  const roles = request.auth!.roles
  return roles.includes(PERMISSIONS.viewReports) || roles.includes(PERMISSIONS.viewDashboardSupervisor)
}

/** Calls of the site the caller may see: a condition on call_id (SQL over call_records aliased `r`). */
function visibleCalls(request: FastifyRequest): SQL {
  const user = request.auth!.user
  if (seesAll(request)) return sql`true`
  return sql`r.call_id in (select call_id from call_records where site_id = ${user.siteId}
    and (user_id = ${user.id} or caller_user_id = ${user.id} or offered_user_ids @> ${JSON.stringify([user.id])}::jsonb))`
}

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString())
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))

type Raw = Record<string, unknown>

function dayBound(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`)
  return new Date(value)
}

async function listCalls(app: FastifyInstance, request: FastifyRequest, query: CallListQuery) {
  const siteId = request.auth!.user.siteId
  const filters: SQL[] = [sql`c.rn = 1`]
  if (query.start_date) filters.push(sql`c.call_started >= ${dayBound(query.start_date, false)}`)
  if (query.end_date) filters.push(sql`c.call_started <= ${dayBound(query.end_date, true)}`)
  if (query.call_type)
    filters.push(
      sql`c.call_type in (${sql.join(
        query.call_type.split(',').map((n) => sql`${Number(n)}`),
        sql`, `,
      )})`,
    )
  if (query.dial_status)
    filters.push(
      sql`c.dial_status in (${sql.join(
        query.dial_status.split(',').map((n) => sql`${Number(n)}`),
        sql`, `,
      )})`,
    )
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    filters.push(sql`(c.phone ilike ${like} or c.caller ilike ${like} or c.callee ilike ${like})`)
  }
  if (query.user)
    filters.push(
      sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and (user_id = ${query.user} or caller_user_id = ${query.user}))`,
    )
  if (query.queue) filters.push(sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and queue_id = ${query.queue})`)
  const where = sql.join(filters, sql` and `)
  // Each call is shown by its main step (the answered one, else the last) with the totals of the whole call.
  const calls = sql`(
    select r.*,
      min(r.started_at) over w as call_started,
      max(r.ended_at) over w as call_ended,
      min(r.queue_started_at) over w as call_queue_started,
      bool_or(r.record and r.answered_at is not null) over w as recorded,
      row_number() over (partition by r.call_id order by (r.answered_at is null), r.step desc) as rn
    from call_records r
    where r.site_id = ${siteId} and ${visibleCalls(request)}
    window w as (partition by r.call_id)
  ) c`
  const limit = Math.min(query.limit ?? UNPAGED, MAX_LIMIT)
  const offset = query.offset ?? 0
  const db = app.deps.db
  const total = await db.execute(sql`select count(*)::int as n from ${calls} where ${where}`)
  const rows = await db.execute(sql`
    select c.*, d.username as endpoint_name, caller_device.username as caller_endpoint,
      coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as user_name,
      coalesce(nullif(trim(cu.first_name || ' ' || cu.last_name), ''), cu.username) as caller_user_name,
      q.description as queue_name, t.description as trunk_name,
      cl.description as classification_name, sc.description as sub_classification_name
    from ${calls}
    left join pabx_devices d on d.id = c.device_id
    left join pabx_devices caller_device on caller_device.id = c.caller_device_id
    left join users u on u.id = c.user_id
    left join users cu on cu.id = c.caller_user_id
    left join pabx_queues q on q.id = c.queue_id
    left join pabx_trunks t on t.id = c.trunk_id
    left join service_classifications cl on cl.id = (c.classification->>'classification_id')::int and cl.site_id = c.site_id
    left join service_sub_classifications sc on sc.id = (c.classification->>'sub_classification_id')::int and sc.site_id = c.site_id
    where ${where}
    order by c.call_started desc, c.call_id
    limit ${limit} offset ${offset}`)
  const count = Number((total as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0)
  const results = (rows as unknown as { rows: Raw[] }).rows.map((r) => toCallRow(r, request.lang))
  return { count, results }
}

function toCallRow(r: Raw, lang: string): CallRow {
  const started = new Date(r.call_started as string)
  const ended = r.call_ended ? new Date(r.call_ended as string) : null
  const outgoing = r.direction !== 'inbound'
  const agentId = num(r.user_id) ?? (outgoing ? num(r.caller_user_id) : null)
  const phone = String(r.phone ?? '')
  return {
    id: Number(r.id),
    uid: String(r.uid),
    call_id: String(r.call_id),
    datetime: started.toISOString(),
    total_duration: ended ? Math.max(0, Math.round((ended.getTime() - started.getTime()) / 1000)) : null,
    total_answer_duration: num(r.answered_duration),
    endpoint: String(r.endpoint_name ?? r.caller_endpoint ?? ''),
    user: agentId,
    user_description: String((num(r.user_id) ? r.user_name : r.caller_user_name) ?? ''),
    queue: num(r.queue_id),
    queue_description: String(r.queue_name ?? ''),
    // The agent's classification of the step (tab-form ?type=classification), by name.
    classification: (r.classification_name as string | null) ?? null,
    sub_classification: (r.sub_classification_name as string | null) ?? null,
    comment: String((r.classification as { comment?: string } | null)?.comment ?? ''),
    phone,
    phone_type: phoneTypeOf(phone),
    dial_status: num(r.dial_status),
    dial_status_text: String(r.dial_status_text || (r.dial_status ? dialStatusLabel(Number(r.dial_status), lang) : '')),
    queue_started_datetime: iso(r.call_queue_started),
    queue_answered_datetime: r.queue_id ? iso(r.answered_at) : null,
    call_type: Number(r.call_type),
    direction: String(r.direction),
    queue_ended_by: r.queue_id ? ((r.hung_up_by as string | null) ?? null) : null,
    hung_up_by: (r.hung_up_by as string | null) ?? null,
    inbound_route_id: num(r.inbound_route_id),
    did: String(r.did ?? ''),
    country: phoneTypeOf(phone) ? 'BR' : '',
    area_code: String(r.area_code ?? ''),
    outbound_route_id: num(r.outbound_route_id),
    trunk: num(r.trunk_id),
    trunk_description: String(r.trunk_name ?? ''),
    recording: Boolean(r.recorded),
    form: null,
  }
}

/** The steps of one call the caller may see; 404 when there are none. */
async function callSteps(app: FastifyInstance, request: FastifyRequest, callId: string): Promise<CallStepRow[]> {
  const siteId = request.auth!.user.siteId
  const result = await app.deps.db.execute(sql`
    select r.*, d.username as endpoint_name, q.description as queue_name,
      coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as user_name
    from call_records r
    left join pabx_devices d on d.id = r.device_id
    left join pabx_queues q on q.id = r.queue_id
    left join users u on u.id = r.user_id
    where r.site_id = ${siteId} and r.call_id = ${callId} and ${visibleCalls(request)}
    order by r.step`)
  const rows = (result as unknown as { rows: Raw[] }).rows
  if (rows.length === 0) throw detailError(404, 'notFound', request.lang)
  return rows.map((r) => ({
    id: Number(r.id),
    uid: String(r.uid),
    parent_uid: (r.parent_uid as string | null) ?? null,
    call_id: String(r.call_id),
    step: Number(r.step),
    kind: String(r.kind),
    direction: String(r.direction),
    call_type: Number(r.call_type),
    caller: String(r.caller),
    callee: String(r.callee),
    phone: String(r.phone),
    user: num(r.user_id),
    user_description: String(r.user_name ?? ''),
    endpoint: String(r.endpoint_name ?? ''),
    queue: num(r.queue_id),
    queue_description: String(r.queue_name ?? ''),
    trunk: num(r.trunk_id),
    dial_status: num(r.dial_status),
    dial_status_text: String(r.dial_status_text || (r.dial_status ? dialStatusLabel(Number(r.dial_status), request.lang) : '')),
    started_at: iso(r.started_at)!,
    ringing_at: iso(r.ringing_at),
    answered_at: iso(r.answered_at),
    ended_at: iso(r.ended_at),
    total_duration: num(r.total_duration),
    answered_duration: num(r.answered_duration),
    queue_wait: num(r.queue_wait),
    hung_up_by: (r.hung_up_by as string | null) ?? null,
  }))
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
  await callSteps(app, request, callId)
  const format = query.extension ?? 'mp3'
  let file: string | null
  try {
    file = await recordingFile(recordingsDir(app.deps.config.dataDir), callId, format)
  } catch (error) {
    if (error instanceof EncoderMissingError) throw detailError(503, 'recordingEncoderMissing', request.lang)
    throw error
  }
  if (!file) throw detailError(404, 'noRecording', request.lang)
  const download = query.download === '1' || query.download === 'true'
  const safeName = `${callId.replace(/[^\w.-]+/g, '_').slice(0, 80)}.${format}`
  reply.header('Content-Type', format === 'mp3' ? 'audio/mpeg' : 'audio/wav')
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Content-Disposition', `${download ? 'attachment' : 'inline'}; filename="${safeName}"`)
  return reply.send(createReadStream(file))
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

  app.get(CALL_PATHS.calls, softphone, async (request) => listCalls(app, request, parseInput(CallListQuerySchema, request.query, request.lang)))

  app.get(CALL_PATHS.callSteps, softphone, async (request) => {
    const { callId } = parseInput(CallIdParam, request.params, request.lang)
    const results = await callSteps(app, request, callId)
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
      const routes = await allowedRoutes({ db: app.deps.db, now: new Date(), random: Math.random }, me.siteId, me.deviceId, me.teamId)
      const results = routes.filter((r) => r.webphone).map((r) => ({ id: r.id, description: r.description }))
      return { count: results.length, results }
    },
  )
}
