import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { ReportColumnKind, ReportFilter, ReportFilters, ReportId } from '../../contract/api/reports.ts'

// The report datasets (contract/api/reports.ts REPORT_IDS). Each is a SELECT over one site's period that names its
// columns, plus `_t` (the instant it is ordered by, newest first) and `_k` (a unique text key): the engine
// (engine.ts) pages it, counts it, totals it, groups it for the chart and streams it as CSV in keyset batches — so a
// dataset is only SQL and never sees HTTP. The period is [from, to) computed by PostgreSQL in the user's time zone;
// an event belongs to the day it started on (a call from 23:50 to 00:10 is the first day's, with its whole duration).

export type DatasetContext = {
  siteId: number
  from: Date
  to: Date
  tz: string
  filters: ReportFilters
  /**
   * The CSV's batch (engine.ts): rows after `after` in the dataset's order, at most `limit`. The engine applies it
   * outside the source too; a source whose rows are aggregates (calls) also applies it inside, so a batch aggregates
   * only its own rows instead of the whole period again.
   */
  batch?: { after?: { t: string; k: string }; limit: number }
}

export type Measure = { key: string; kind: ReportColumnKind; sql: SQL }

export type Dataset = {
  id: ReportId
  filters: readonly ReportFilter[]
  /** `values`: a text column of codes, written as REPORT_TEXTS[`${values}.${code}`] (the code itself when unknown). */
  columns: { key: string; kind: ReportColumnKind; values?: string }[]
  /** time: one row per event, newest first; label: one row per group (agent, queue, classification), by `_k`. */
  order: 'time' | 'label'
  source(ctx: DatasetContext): SQL
  /** Aggregates over the source's rows (aliased `x`). */
  totals: Measure[]
  chart: { type: 'bar' | 'line'; by: 'day' | 'label'; label?: SQL; series: Measure[] }
}

const userName = (alias: string) => sql.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.username)`)
const seconds = (expr: SQL) => sql`round(extract(epoch from ${expr}))::int`
const inPeriod = (column: SQL, ctx: DatasetContext) => sql`${column} >= ${ctx.from} and ${column} < ${ctx.to}`
const teamUsers = (ctx: DatasetContext, team: number) => sql`(select id from users where site_id = ${ctx.siteId} and team_id = ${team})`
const campaignLeads = (ctx: DatasetContext, campaign: number) =>
  sql`(select l.id from crm_leads l join service_shipments_campaigns_mailings cm on cm.mailing_id = l.mailing_id
    where cm.site_id = ${ctx.siteId} and cm.campaign_id = ${campaign})`

/** Conditions on one call step (aliased `r`, or `alias`) for the filters set (the user, team, queue, campaign, classification). */
function stepConditions(ctx: DatasetContext, alias = 'r'): SQL[] {
  const f = ctx.filters
  const a = sql.raw(alias)
  const out: SQL[] = []
  if (f.agent !== undefined) out.push(sql`(${a}.user_id = ${f.agent} or ${a}.caller_user_id = ${f.agent})`)
  if (f.team !== undefined) out.push(sql`(${a}.user_id in ${teamUsers(ctx, f.team)} or ${a}.caller_user_id in ${teamUsers(ctx, f.team)})`)
  if (f.queue !== undefined) out.push(sql`${a}.queue_id = ${f.queue}`)
  if (f.campaign !== undefined) out.push(sql`${a}.lead_id in ${campaignLeads(ctx, f.campaign)}`)
  if (f.classification !== undefined) out.push(sql`(${a}.classification->>'classification_id')::int = ${f.classification}`)
  return out
}
const and = (conditions: SQL[]) => (conditions.length ? sql` and ${sql.join(conditions, sql` and `)}` : sql``)

const count = (key: string, where?: SQL): Measure => ({ key, kind: 'number', sql: where ? sql`count(*) filter (where ${where})` : sql`count(*)` })
const sum = (key: string, column: string, kind: ReportColumnKind = 'duration'): Measure => ({ key, kind, sql: sql.raw(`coalesce(sum(x.${column}), 0)`) })
const avg = (key: string, column: string, kind: ReportColumnKind = 'duration'): Measure => ({ key, kind, sql: sql.raw(`round(avg(x.${column}))`) })

const calls: Dataset = {
  id: 'calls',
  filters: ['team', 'agent', 'queue', 'campaign', 'classification'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'direction', kind: 'text', values: 'direction' },
    { key: 'phone', kind: 'text' },
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'answered', kind: 'boolean' },
    { key: 'wait', kind: 'duration' },
    { key: 'talk', kind: 'duration' },
    { key: 'duration', kind: 'duration' },
    { key: 'hung_up_by', kind: 'text', values: 'party' },
    { key: 'classification', kind: 'text' },
    { key: 'call_id', kind: 'text' },
  ],
  // One row per call that started (its step 1) in the period, every step of it aggregated; a filter keeps the calls
  // one of whose steps matches it (the agent who answered or placed it, the queue it went through, ...). The calls are
  // chosen first by their step 1 (index on site and start), so a CSV batch aggregates only its own 2,000 calls.
  source: (ctx) => {
    const matches = stepConditions(ctx, 'm').map(
      (c) => sql`exists (select 1 from call_records m where m.site_id = ${ctx.siteId} and m.call_id = s.call_id and ${c})`,
    )
    const batch = ctx.batch
    const chosen = sql`select s.call_id from call_records s
      where s.site_id = ${ctx.siteId} and s.step = 1 and ${inPeriod(sql`s.started_at`, ctx)}${and(matches)}
      ${batch?.after ? sql`and (s.started_at, s.call_id) < (${batch.after.t}::timestamptz, ${batch.after.k})` : sql``}
      ${batch ? sql`order by s.started_at desc, s.call_id desc limit ${batch.limit}` : sql``}`
    return sql`select r.call_id as _k, min(r.started_at) filter (where r.step = 1) as _t, r.call_id,
      min(r.started_at) filter (where r.step = 1) as started_at,
      (array_agg(r.direction order by r.step))[1] as direction,
      (array_agg(r.phone order by r.step))[1] as phone,
      (array_agg(coalesce(${userName('u')}, ${userName('cu')}) order by (r.answered_at is null), (coalesce(r.user_id, r.caller_user_id) is null), r.step desc))[1] as agent,
      coalesce((array_agg(q.description order by (r.queue_id is null), r.step))[1], '') as queue,
      bool_or(r.answered_at is not null) as answered,
      coalesce(max(${seconds(sql`r.answered_at - coalesce(r.queue_started_at, r.started_at)`)}) filter (where r.answered_at is not null and r.queue_id is not null),
        max(${seconds(sql`coalesce(r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at)`)}) filter (where r.queue_id is not null)) as wait,
      coalesce(sum(r.answered_duration) filter (where r.answered_at is not null), 0) as talk,
      ${seconds(sql`max(coalesce(r.ended_at, r.started_at)) - min(r.started_at)`)} as duration,
      (array_agg(r.hung_up_by order by (r.answered_at is null), r.step desc))[1] as hung_up_by,
      (array_agg(cl.description order by (cl.description is null), r.step desc))[1] as classification
    from call_records r
      left join users u on u.id = r.user_id
      left join users cu on cu.id = r.caller_user_id
      left join pabx_queues q on q.id = r.queue_id
      left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
    where r.site_id = ${ctx.siteId} and r.call_id in (${chosen})
    group by r.call_id`
  },
  totals: [
    count('calls'),
    count('calls_answered', sql`x.answered`),
    count('calls_unanswered', sql`not x.answered`),
    avg('average_wait', 'wait'),
    {
      key: 'average_talk',
      kind: 'duration',
      sql: sql`round(avg(x.talk) filter (where x.answered))`,
    },
  ],
  chart: { type: 'bar', by: 'day', series: [count('calls_answered', sql`x.answered`), count('calls_unanswered', sql`not x.answered`)] },
}

const callSteps: Dataset = {
  id: 'call-steps',
  filters: ['team', 'agent', 'queue', 'campaign', 'classification'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'call_id', kind: 'text' },
    { key: 'step', kind: 'number' },
    { key: 'kind', kind: 'text', values: 'target' },
    { key: 'direction', kind: 'text', values: 'direction' },
    { key: 'phone', kind: 'text' },
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'status', kind: 'text' },
    { key: 'answered_at', kind: 'datetime' },
    { key: 'wait', kind: 'duration' },
    { key: 'talk', kind: 'duration' },
    { key: 'duration', kind: 'duration' },
    { key: 'hung_up_by', kind: 'text', values: 'party' },
    { key: 'classification', kind: 'text' },
  ],
  source: (ctx) => sql`select lpad(r.id::text, 20, '0') as _k, r.started_at as _t, r.started_at, r.call_id, r.step, r.kind, r.direction, r.phone,
      coalesce(${userName('u')}, ${userName('cu')}) as agent, coalesce(q.description, '') as queue,
      case when r.dial_status is null then '' else r.dial_status::text || coalesce(' ' || nullif(r.dial_status_text, ''), '') end as status,
      r.answered_at,
      case when r.queue_id is null then null else ${seconds(sql`coalesce(r.answered_at, r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at)`)} end as wait,
      case when r.answered_at is null then 0 else coalesce(r.answered_duration, 0) end as talk,
      coalesce(r.total_duration, ${seconds(sql`coalesce(r.ended_at, r.started_at) - r.started_at`)}) as duration,
      r.hung_up_by, cl.description as classification
    from call_records r
      left join users u on u.id = r.user_id
      left join users cu on cu.id = r.caller_user_id
      left join pabx_queues q on q.id = r.queue_id
      left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
    where r.site_id = ${ctx.siteId} and ${inPeriod(sql`r.started_at`, ctx)}${and(stepConditions(ctx))}`,
  totals: [
    count('steps'),
    count('calls_answered', sql`x.answered_at is not null`),
    {
      key: 'average_talk',
      kind: 'duration',
      sql: sql`round(avg(x.talk) filter (where x.answered_at is not null))`,
    },
  ],
  chart: { type: 'bar', by: 'day', series: [count('steps'), count('calls_answered', sql`x.answered_at is not null`)] },
}

const chats: Dataset = {
  id: 'chats',
  filters: ['team', 'agent', 'queue', 'classification'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'channel', kind: 'text' },
    { key: 'phone', kind: 'text' },
    { key: 'title', kind: 'text' },
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'state', kind: 'text', values: 'chatState' },
    { key: 'answered_at', kind: 'datetime' },
    { key: 'wait', kind: 'duration' },
    { key: 'duration', kind: 'duration' },
    { key: 'ended_by', kind: 'text', values: 'endedBy' },
    { key: 'classification', kind: 'text' },
  ],
  source: (ctx) => {
    const f = ctx.filters
    const conditions: SQL[] = []
    if (f.agent !== undefined) conditions.push(sql`r.user_id = ${f.agent}`)
    if (f.team !== undefined) conditions.push(sql`r.user_id in ${teamUsers(ctx, f.team)}`)
    // The queue filter of a chat report names a chat queue.
    if (f.queue !== undefined) conditions.push(sql`r.queue_id = ${f.queue}`)
    if (f.classification !== undefined) conditions.push(sql`(r.classification->>'classification_id')::int = ${f.classification}`)
    return sql`select lpad(r.id::text, 20, '0') as _k, r.started_at as _t, r.started_at, coalesce(ch.description, '') as channel, r.phone, r.title,
        ${userName('u')} as agent, coalesce(q.description, '') as queue, r.state, r.answered_at,
        case when r.answered_at is null then null else ${seconds(sql`r.answered_at - coalesce(r.queued_at, r.started_at)`)} end as wait,
        case when r.ended_at is null then null else ${seconds(sql`r.ended_at - r.started_at`)} end as duration,
        r.ended_by, cl.description as classification
      from chat_rooms r
        left join users u on u.id = r.user_id
        left join chat_queues q on q.id = r.queue_id
        left join chat_channels ch on ch.id = r.channel_id
        left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
      where r.site_id = ${ctx.siteId} and ${inPeriod(sql`r.started_at`, ctx)}${and(conditions)}`
  },
  totals: [count('chats'), count('chats_answered', sql`x.answered_at is not null`), avg('average_wait', 'wait'), avg('average_duration', 'duration')],
  chart: { type: 'bar', by: 'day', series: [count('chats'), count('chats_answered', sql`x.answered_at is not null`)] },
}

/** A pause report that is an after-service's own (POST after-service/start) is after-service, not a pause. */
const notAfterService = sql`not exists (select 1 from call_records a where a.site_id = p.site_id and a.after_service_pause_report_id = p.id)`

function agentConditions(ctx: DatasetContext, column: string): SQL[] {
  const f = ctx.filters
  const out: SQL[] = []
  if (f.agent !== undefined) out.push(sql`${sql.raw(column)} = ${f.agent}`)
  if (f.team !== undefined) out.push(sql`${sql.raw(column)} in ${teamUsers(ctx, f.team)}`)
  return out
}

const pauses: Dataset = {
  id: 'pauses',
  filters: ['team', 'agent'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'ended_at', kind: 'datetime' },
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'reason', kind: 'text' },
    { key: 'duration', kind: 'duration' },
    { key: 'exceeded', kind: 'boolean' },
    { key: 'justification', kind: 'text' },
  ],
  source: (ctx) => sql`select lpad(p.id::text, 20, '0') as _k, p.started_at as _t, p.started_at, p.ended_at, ${userName('u')} as agent,
      coalesce(t.name, '') as team, p.description as reason,
      coalesce(p.duration, ${seconds(sql`coalesce(p.ended_at, now()) - p.started_at`)}) as duration, p.exceeded, p.justification
    from pause_reports p
      join users u on u.id = p.user_id
      left join teams t on t.id = u.team_id
    where p.site_id = ${ctx.siteId} and p.started_at is not null and ${inPeriod(sql`p.started_at`, ctx)} and ${notAfterService}${and(agentConditions(ctx, 'p.user_id'))}`,
  totals: [count('pauses'), sum('pause_time', 'duration'), count('exceeded', sql`x.exceeded`)],
  chart: { type: 'bar', by: 'label', label: sql`x.reason`, series: [sum('pause_time', 'duration')] },
}

const afterService: Dataset = {
  id: 'after-service',
  filters: ['team', 'agent', 'queue', 'classification'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'phone', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'duration', kind: 'duration' },
    { key: 'classification', kind: 'text' },
    { key: 'call_id', kind: 'text' },
  ],
  source: (ctx) => {
    const f = ctx.filters
    const conditions = agentConditions(ctx, 'r.user_id')
    if (f.queue !== undefined) conditions.push(sql`r.queue_id = ${f.queue}`)
    if (f.classification !== undefined) conditions.push(sql`(r.classification->>'classification_id')::int = ${f.classification}`)
    return sql`select lpad(r.id::text, 20, '0') as _k, r.after_service_started_at as _t, r.after_service_started_at as started_at,
        ${userName('u')} as agent, coalesce(t.name, '') as team, r.phone, coalesce(q.description, '') as queue,
        coalesce(r.after_service_duration, ${seconds(sql`coalesce(r.after_service_finished_at, now()) - r.after_service_started_at`)}) as duration,
        cl.description as classification, r.call_id
      from call_records r
        left join users u on u.id = r.user_id
        left join teams t on t.id = u.team_id
        left join pabx_queues q on q.id = r.queue_id
        left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
      where r.site_id = ${ctx.siteId} and r.after_service_started_at is not null and ${inPeriod(sql`r.after_service_started_at`, ctx)}${and(conditions)}`
  },
  totals: [count('after_service'), sum('after_service_time', 'duration'), avg('average_after_service', 'duration')],
  chart: { type: 'bar', by: 'day', series: [sum('after_service_time', 'duration')] },
}

const agentProductivity: Dataset = {
  id: 'agent-productivity',
  filters: ['team', 'agent'],
  order: 'label',
  columns: [
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'calls_answered', kind: 'number' },
    { key: 'calls_placed', kind: 'number' },
    { key: 'talk', kind: 'duration' },
    { key: 'average_talk', kind: 'duration' },
    { key: 'chats_answered', kind: 'number' },
    { key: 'pauses', kind: 'number' },
    { key: 'pause_time', kind: 'duration' },
    { key: 'after_service', kind: 'number' },
    { key: 'after_service_time', kind: 'duration' },
  ],
  // Per agent: the calls offered to them they answered (one per call), the calls they placed, the talk time of both,
  // the chats they answered, their pauses (not after-service) and their after-services — each counted on the day
  // it started. Only agents with something in the period are listed.
  source: (ctx) => sql`with
      ans as (select user_id, count(distinct call_id) as n, sum(answered_duration) as talk from call_records
        where site_id = ${ctx.siteId} and ${inPeriod(sql`started_at`, ctx)} and user_id is not null and answered_at is not null group by user_id),
      placed as (select caller_user_id as user_id, count(distinct call_id) as n,
          count(distinct call_id) filter (where answered_at is not null) as answered_n,
          coalesce(sum(answered_duration) filter (where answered_at is not null), 0) as talk from call_records
        where site_id = ${ctx.siteId} and ${inPeriod(sql`started_at`, ctx)} and caller_user_id is not null group by caller_user_id),
      ch as (select user_id, count(*) as n from chat_rooms
        where site_id = ${ctx.siteId} and ${inPeriod(sql`started_at`, ctx)} and user_id is not null and answered_at is not null group by user_id),
      pa as (select p.user_id, count(*) as n, sum(coalesce(p.duration, ${seconds(sql`coalesce(p.ended_at, now()) - p.started_at`)})) as secs from pause_reports p
        where p.site_id = ${ctx.siteId} and p.started_at is not null and ${inPeriod(sql`p.started_at`, ctx)} and ${notAfterService} group by p.user_id),
      af as (select user_id, count(*) as n,
          sum(coalesce(after_service_duration, ${seconds(sql`coalesce(after_service_finished_at, now()) - after_service_started_at`)})) as secs from call_records
        where site_id = ${ctx.siteId} and after_service_started_at is not null and ${inPeriod(sql`after_service_started_at`, ctx)} and user_id is not null group by user_id)
    select lower(${userName('u')}) || chr(1) || lpad(u.id::text, 12, '0') as _k, ${ctx.from}::timestamptz as _t,
      ${userName('u')} as agent, coalesce(t.name, '') as team,
      coalesce(ans.n, 0)::int as calls_answered, coalesce(placed.n, 0)::int as calls_placed,
      (coalesce(ans.talk, 0) + coalesce(placed.talk, 0))::int as talk,
      case when coalesce(ans.n, 0) + coalesce(placed.answered_n, 0) = 0 then null
        else round((coalesce(ans.talk, 0) + coalesce(placed.talk, 0))::numeric / (coalesce(ans.n, 0) + coalesce(placed.answered_n, 0)))::int end as average_talk,
      coalesce(ch.n, 0)::int as chats_answered, coalesce(pa.n, 0)::int as pauses, coalesce(pa.secs, 0)::int as pause_time,
      coalesce(af.n, 0)::int as after_service, coalesce(af.secs, 0)::int as after_service_time
    from users u
      left join teams t on t.id = u.team_id
      left join ans on ans.user_id = u.id
      left join placed on placed.user_id = u.id
      left join ch on ch.user_id = u.id
      left join pa on pa.user_id = u.id
      left join af on af.user_id = u.id
    where u.site_id = ${ctx.siteId}
      and (ans.user_id is not null or placed.user_id is not null or ch.user_id is not null or pa.user_id is not null or af.user_id is not null)
      ${and(agentConditions(ctx, 'u.id'))}`,
  totals: [
    { key: 'agents', kind: 'number', sql: sql`count(*)` },
    sum('calls_answered', 'calls_answered', 'number'),
    sum('calls_placed', 'calls_placed', 'number'),
    sum('talk', 'talk'),
    sum('chats_answered', 'chats_answered', 'number'),
    sum('pause_time', 'pause_time'),
    sum('after_service_time', 'after_service_time'),
  ],
  chart: {
    type: 'bar',
    by: 'label',
    label: sql`x.agent`,
    series: [
      sum('calls_answered', 'calls_answered', 'number'),
      sum('calls_placed', 'calls_placed', 'number'),
      sum('chats_answered', 'chats_answered', 'number'),
    ],
  },
}

const queueServiceLevel: Dataset = {
  id: 'queue-service-level',
  filters: ['queue'],
  order: 'label',
  columns: [
    { key: 'queue', kind: 'text' },
    { key: 'calls_offered', kind: 'number' },
    { key: 'calls_answered', kind: 'number' },
    { key: 'abandoned', kind: 'number' },
    { key: 'in_target', kind: 'number' },
    { key: 'target', kind: 'number' },
    { key: 'service_level', kind: 'percent' },
    { key: 'average_wait', kind: 'duration' },
  ],
  // Per telephony queue: each call that entered it in the period once (however many members it rang), answered or
  // not; answered within the queue's service level (seconds from entering the queue to the answer); the service
  // level is those answered within the target over all the calls it received.
  source: (ctx) => sql`with qc as (
      select r.queue_id, r.call_id, bool_or(r.answered_at is not null) as answered,
        min(extract(epoch from r.answered_at - coalesce(r.queue_started_at, r.started_at))) filter (where r.answered_at is not null) as answer_wait,
        max(extract(epoch from coalesce(r.answered_at, r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at))) as waited
      from call_records r
      where r.site_id = ${ctx.siteId} and r.queue_id is not null and ${inPeriod(sql`r.started_at`, ctx)}
        ${ctx.filters.queue !== undefined ? sql`and r.queue_id = ${ctx.filters.queue}` : sql``}
      group by r.queue_id, r.call_id)
    select lower(q.description) || chr(1) || lpad(q.id::text, 12, '0') as _k, ${ctx.from}::timestamptz as _t, q.description as queue,
      count(*)::int as calls_offered, (count(*) filter (where qc.answered))::int as calls_answered,
      (count(*) filter (where not qc.answered))::int as abandoned,
      (count(*) filter (where qc.answered and qc.answer_wait <= q.service_level))::int as in_target,
      q.service_level as target,
      round(100.0 * count(*) filter (where qc.answered and qc.answer_wait <= q.service_level) / count(*), 1)::float8 as service_level,
      round(avg(qc.waited))::int as average_wait
    from qc join pabx_queues q on q.id = qc.queue_id and q.site_id = ${ctx.siteId}
    group by q.id, q.description, q.service_level`,
  totals: [
    sum('calls_offered', 'calls_offered', 'number'),
    sum('calls_answered', 'calls_answered', 'number'),
    sum('abandoned', 'abandoned', 'number'),
    {
      key: 'service_level',
      kind: 'percent',
      sql: sql`case when sum(x.calls_offered) > 0 then round(100.0 * sum(x.in_target) / sum(x.calls_offered), 1)::float8 end`,
    },
  ],
  chart: {
    type: 'bar',
    by: 'label',
    label: sql`x.queue`,
    series: [sum('calls_answered', 'calls_answered', 'number'), sum('abandoned', 'abandoned', 'number')],
  },
}

const classifications: Dataset = {
  id: 'classifications',
  filters: ['team', 'agent', 'classification'],
  order: 'label',
  columns: [
    { key: 'classification', kind: 'text' },
    { key: 'calls', kind: 'number' },
    { key: 'chats', kind: 'number' },
    { key: 'total', kind: 'number' },
  ],
  // Each classified call step and chat of the period, by the classification the agent chose (its current name).
  source: (ctx) => {
    const f = ctx.filters
    const callConditions = agentConditions(ctx, 'r.user_id')
    const chatConditions = agentConditions(ctx, 'r.user_id')
    if (f.classification !== undefined) {
      callConditions.push(sql`(r.classification->>'classification_id')::int = ${f.classification}`)
      chatConditions.push(sql`(r.classification->>'classification_id')::int = ${f.classification}`)
    }
    return sql`with c as (
        select 'call' as src, (r.classification->>'classification_id')::int as cid from call_records r
        where r.site_id = ${ctx.siteId} and r.classification is not null and ${inPeriod(sql`r.started_at`, ctx)}${and(callConditions)}
        union all
        select 'chat', (r.classification->>'classification_id')::int from chat_rooms r
        where r.site_id = ${ctx.siteId} and r.classification is not null and ${inPeriod(sql`r.started_at`, ctx)}${and(chatConditions)})
      select lower(coalesce(cl.description, '')) || chr(1) || lpad(coalesce(c.cid, 0)::text, 12, '0') as _k, ${ctx.from}::timestamptz as _t,
        coalesce(cl.description, '') as classification,
        (count(*) filter (where c.src = 'call'))::int as calls, (count(*) filter (where c.src = 'chat'))::int as chats, count(*)::int as total
      from c left join service_classifications cl on cl.id = c.cid and cl.site_id = ${ctx.siteId}
      group by c.cid, cl.description`
  },
  totals: [sum('calls', 'calls', 'number'), sum('chats', 'chats', 'number'), sum('total', 'total', 'number')],
  chart: { type: 'bar', by: 'label', label: sql`x.classification`, series: [sum('calls', 'calls', 'number'), sum('chats', 'chats', 'number')] },
}

export const DATASETS: Record<ReportId, Dataset> = {
  calls,
  'call-steps': callSteps,
  chats,
  pauses,
  'after-service': afterService,
  'agent-productivity': agentProductivity,
  'queue-service-level': queueServiceLevel,
  classifications,
}
