import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { CallFormAnswers, CallListQuery, CallRow, CallStepRow } from '../../../contract/api/calls.ts'
import { dialStatusLabel } from '../../../contract/codes/dial-status.ts'
import type { Locale } from '../../../contract/locales.ts'
import type { Db } from '../../db/client.ts'
import { phoneTypeOf } from './phone.ts'

// The call records as the API and the reports read them (spec 000 §2 /phonecalls, spec 001 §7 call steps): no HTTP
// here, only who looks (`CallViewer`) and what they asked. An agent sees the calls they placed or were offered;
// holders of sites.view_reports or sites.view_dashboard_supervisor see every call of their site.

export type CallViewer = { siteId: number; userId: number; seesAll: boolean }

const UNPAGED = 99_999
const MAX_LIMIT = 10_000

/** Calls of the site the caller may see: a condition on call_id (SQL over call_records aliased `r`). */
export function visibleCalls(viewer: CallViewer): SQL {
  if (viewer.seesAll) return sql`true`
  return sql`r.call_id in (select call_id from call_records where site_id = ${viewer.siteId}
    and (user_id = ${viewer.userId} or caller_user_id = ${viewer.userId} or offered_user_ids @> ${JSON.stringify([viewer.userId])}::jsonb))`
}

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString())
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))

type Raw = Record<string, unknown>

function dayBound(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`)
  return new Date(value)
}

/** The calls list (GET /v1/report/calls/): one row per call, its main step with the whole call's totals. */
export async function listCalls(db: Db, viewer: CallViewer, query: CallListQuery, lang: Locale): Promise<{ count: number; results: CallRow[] }> {
  const siteId = viewer.siteId
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
    filters.push(sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and (user_id = ${query.user} or caller_user_id = ${query.user}))`)
  if (query.queue) filters.push(sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and queue_id = ${query.queue})`)
  if (query.classification)
    filters.push(
      sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and (classification->>'classification_id')::int = ${query.classification})`,
    )
  if (query.sub_classification)
    filters.push(
      sql`c.call_id in (select call_id from call_records where site_id = ${siteId} and (classification->>'sub_classification_id')::int = ${query.sub_classification})`,
    )
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
    where r.site_id = ${siteId} and ${visibleCalls(viewer)}
    window w as (partition by r.call_id)
  ) c`
  const limit = Math.min(query.limit ?? UNPAGED, MAX_LIMIT)
  const offset = query.offset ?? 0
  const total = await db.execute(sql`select count(*)::int as n from ${calls} where ${where}`)
  const rows = await db.execute(sql`
    select c.*, d.username as endpoint_name, caller_device.username as caller_endpoint,
      coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as user_name,
      coalesce(nullif(trim(cu.first_name || ' ' || cu.last_name), ''), cu.username) as caller_user_name,
      q.description as queue_name, t.description as trunk_name,
      cl.description as classification_name, sc.description as sub_classification_name, f.description as form_name
    from ${calls}
    left join pabx_devices d on d.id = c.device_id
    left join pabx_devices caller_device on caller_device.id = c.caller_device_id
    left join users u on u.id = c.user_id
    left join users cu on cu.id = c.caller_user_id
    left join pabx_queues q on q.id = c.queue_id
    left join pabx_trunks t on t.id = c.trunk_id
    left join service_classifications cl on cl.id = (c.classification->>'classification_id')::int and cl.site_id = c.site_id
    left join service_sub_classifications sc on sc.id = (c.classification->>'sub_classification_id')::int and sc.site_id = c.site_id
    left join service_forms f on f.id = c.form_id
    where ${where}
    order by c.call_started desc, c.call_id
    limit ${limit} offset ${offset}`)
  const count = Number((total as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0)
  const results = (rows as unknown as { rows: Raw[] }).rows.map((r) => toCallRow(r, lang, viewer))
  return { count, results }
}

/** The form answers a step holds, as the calls screen shows them. */
function formAnswers(r: Raw): CallFormAnswers | null {
  if (r.form_id === null || r.form_id === undefined || !r.form_values) return null
  return { id: Number(r.form_id), description: String(r.form_name ?? ''), values: r.form_values as Record<string, unknown>, sent_at: iso(r.form_sent_at) }
}

/** The other party of a call: the customer's number, or — an internal call — the extension on the other side. */
function otherParty(r: Raw, viewer: CallViewer): string {
  const phone = String(r.phone ?? '')
  if (phone) return phone
  return num(r.caller_user_id) === viewer.userId ? String(r.callee ?? '') : String(r.caller ?? '')
}

function toCallRow(r: Raw, lang: Locale, viewer: CallViewer): CallRow {
  const started = new Date(r.call_started as string)
  const ended = r.call_ended ? new Date(r.call_ended as string) : null
  const outgoing = r.direction !== 'inbound'
  // An agent's own list names the agent (them), not the colleague on the other side of an internal call.
  const own = !viewer.seesAll && (num(r.user_id) === viewer.userId || num(r.caller_user_id) === viewer.userId)
  const agentId = own ? viewer.userId : (num(r.user_id) ?? (outgoing ? num(r.caller_user_id) : null))
  const agentName = own ? (num(r.caller_user_id) === viewer.userId ? r.caller_user_name : r.user_name) : num(r.user_id) ? r.user_name : r.caller_user_name
  const phone = otherParty(r, viewer)
  return {
    id: Number(r.id),
    uid: String(r.uid),
    call_id: String(r.call_id),
    datetime: started.toISOString(),
    total_duration: ended ? Math.max(0, Math.round((ended.getTime() - started.getTime()) / 1000)) : null,
    total_answer_duration: num(r.answered_duration),
    endpoint: String(r.endpoint_name ?? r.caller_endpoint ?? ''),
    user: agentId,
    user_description: String(agentName ?? ''),
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
    form: formAnswers(r),
    activity: num((r.classification as { activity_id?: number | null } | null)?.activity_id),
  }
}

/** The steps of one call the viewer may see, in order; none when the call is unknown or not theirs. */
export async function callSteps(db: Db, viewer: CallViewer, callId: string, lang: Locale): Promise<CallStepRow[]> {
  const siteId = viewer.siteId
  const result = await db.execute(sql`
    select r.*, d.username as endpoint_name, q.description as queue_name,
      coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as user_name,
      cl.description as classification_name, sc.description as sub_classification_name, f.description as form_name
    from call_records r
    left join pabx_devices d on d.id = r.device_id
    left join pabx_queues q on q.id = r.queue_id
    left join users u on u.id = r.user_id
    left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
    left join service_sub_classifications sc on sc.id = (r.classification->>'sub_classification_id')::int and sc.site_id = r.site_id
    left join service_forms f on f.id = r.form_id
    where r.site_id = ${siteId} and r.call_id = ${callId} and ${visibleCalls(viewer)}
    order by r.step`)
  const rows = (result as unknown as { rows: Raw[] }).rows
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
    dial_status_text: String(r.dial_status_text || (r.dial_status ? dialStatusLabel(Number(r.dial_status), lang) : '')),
    started_at: iso(r.started_at)!,
    ringing_at: iso(r.ringing_at),
    answered_at: iso(r.answered_at),
    ended_at: iso(r.ended_at),
    total_duration: num(r.total_duration),
    answered_duration: num(r.answered_duration),
    queue_wait: num(r.queue_wait),
    hung_up_by: (r.hung_up_by as string | null) ?? null,
    classification: (r.classification_name as string | null) ?? null,
    sub_classification: (r.sub_classification_name as string | null) ?? null,
    comment: String((r.classification as { comment?: string } | null)?.comment ?? ''),
    schedule_date: (r.classification as { schedule_date?: string | null } | null)?.schedule_date ?? null,
    form: formAnswers(r),
    activity: num((r.classification as { activity_id?: number | null } | null)?.activity_id),
    after_service_duration: num(r.after_service_duration),
  }))
}
