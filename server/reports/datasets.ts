import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { ABANDONED_TEXT } from '../dialer/store.ts'
import { callKey, heldInApp } from '../telephony/control/call-key.ts'
import type { ReportColumnKind, ReportFilter, ReportFilters, ReportId } from '../../contract/api/reports.ts'
import { inRanges, queueCalls } from './hours.ts'
import type { HourRange } from './hours.ts'

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
  /**
   * The period's bounds and every day's in the user's zone fall on whole UTC hours (hours.ts): a dataset that can
   * reads the clean hours from report_call_hours and only the other hours from call_records. Off for zones whose
   * days start on a half or quarter hour (Asia/Kolkata, Asia/Kathmandu, America/St_Johns), and when asked (tests).
   */
  hourly?: boolean
  /** With `hourly`: the hours not clean (engine.ts reads them before each query; hours.ts rawRanges). */
  rawRanges?: HourRange[]
  /** The calls source keeps only calls whose step 1 started in an hour not clean (the raw part of an hourly summary). */
  onlyRawHours?: boolean
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
  /** `order`: the label groups' order — the largest first (by the first series, the default) or by label (numeric aware). */
  chart: { type: 'bar' | 'line'; by: 'day' | 'label'; label?: SQL; series: Measure[]; order?: 'value' | 'label' }
  /**
   * When `ctx.hourly` and the filters allow it: the summary's rows (label, _all, t0…, s0…, _n, as engine.ts's
   * generic summary) from the pre-aggregated hours plus the raw rows of the hours not clean.
   */
  hourlySummary?(ctx: DatasetContext): SQL | undefined
}

const userName = (alias: string) => sql.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.username)`)
const seconds = (expr: SQL) => sql`round(extract(epoch from ${expr}))::int`
const inPeriod = (column: SQL, ctx: DatasetContext) => sql`${column} >= ${ctx.from} and ${column} < ${ctx.to}`
const teamUsers = (ctx: DatasetContext, team: number) => sql`(select id from users where site_id = ${ctx.siteId} and team_id = ${team})`
/** The campaign filter's mailings: the campaign's of the user's site (another site's campaign has none). */
export const campaignMailings = (ctx: DatasetContext, campaign: number) =>
  sql`(select cm.mailing_id from service_shipments_campaigns_mailings cm where cm.site_id = ${ctx.siteId} and cm.campaign_id = ${campaign})`
/** The campaign filter's leads: those in one of the campaign's mailings. */
export const campaignLeads = (ctx: DatasetContext, campaign: number) =>
  sql`(select l.id from crm_leads l where l.mailing_id in ${campaignMailings(ctx, campaign)})`
/** The chat queue filter on a chat room (aliased `alias`): a chats report's `queue`, the builder's `chat_queue`. */
export const chatQueueIs = (alias: string, queue: number) => sql`${sql.raw(alias)}.queue_id = ${queue}`
/** The classification filter on a row with a classification (a call step, a chat): its classification_id. */
export const classificationIs = (alias: string, classification: number) =>
  sql`(${sql.raw(alias)}.classification->>'classification_id')::int = ${classification}`

/** Conditions on one call step (aliased `r`, or `alias`) for the filters set (the user, team, queue, campaign, classification). */
function stepConditions(ctx: DatasetContext, alias = 'r'): SQL[] {
  const f = ctx.filters
  const a = sql.raw(alias)
  const out: SQL[] = []
  if (f.agent !== undefined) out.push(sql`(${a}.user_id = ${f.agent} or ${a}.caller_user_id = ${f.agent})`)
  if (f.team !== undefined) out.push(sql`(${a}.user_id in ${teamUsers(ctx, f.team)} or ${a}.caller_user_id in ${teamUsers(ctx, f.team)})`)
  if (f.queue !== undefined) out.push(sql`${a}.queue_id = ${f.queue}`)
  if (f.campaign !== undefined) out.push(sql`${a}.lead_id in ${campaignLeads(ctx, f.campaign)}`)
  if (f.classification !== undefined) out.push(classificationIs(alias, f.classification))
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
  // chosen first by their step 1 (index on site and start), so a CSV batch aggregates only its own 2,000 calls. A
  // media app's bridge leg is a step of its caller's call (call-key.ts): not chosen on its own, aggregated with it.
  source: (ctx) => {
    // The period's media legs (call-key.ts) and the call each belongs to: one pass over the period's steps (a leg starts
    // after its caller, at most a day after the period for a call that began just before its end).
    const legs = sql`select l.call_id as leg, p.call_id as caller from call_records l
      join call_records p on p.uid = l.parent_uid and p.site_id = l.site_id and p.call_id <> l.call_id
      where l.site_id = ${ctx.siteId} and l.step = 1 and l.parent_uid is not null
        and l.started_at >= ${ctx.from} and l.started_at < ${ctx.to}::timestamptz + interval '1 day'`
    const matches = stepConditions(ctx, 'm').map(
      (c) => sql`(exists (select 1 from call_records m where m.site_id = ${ctx.siteId} and m.call_id = s.call_id and ${c})
        or exists (select 1 from legs join call_records m on m.site_id = ${ctx.siteId} and m.call_id = legs.leg where legs.caller = s.call_id and ${c}))`,
    )
    const batch = ctx.batch
    const rawOnly = ctx.onlyRawHours ? sql` and ${inRanges(sql`s.started_at`, ctx.rawRanges ?? [])}` : sql``
    const chosen = sql`select s.call_id from call_records s
      where s.site_id = ${ctx.siteId} and s.step = 1 and s.parent_uid is null and ${inPeriod(sql`s.started_at`, ctx)}${rawOnly}${and(matches)}
      ${batch?.after ? sql`and (s.started_at, s.call_id) < (${batch.after.t}::timestamptz, ${batch.after.k})` : sql``}
      ${batch ? sql`order by s.started_at desc, s.call_id desc limit ${batch.limit}` : sql``}`
    return sql`with legs as (${legs}), chosen as (${chosen}),
      rr as (select r.*, r.call_id as k from call_records r where r.site_id = ${ctx.siteId} and r.call_id in (select call_id from chosen)
        union all
        select r.*, legs.caller as k from legs join call_records r on r.site_id = ${ctx.siteId} and r.call_id = legs.leg
        where legs.caller in (select call_id from chosen))
    select r.k as _k, min(r.started_at) filter (where r.step = 1 and r.k = r.call_id) as _t, r.k as call_id,
      min(r.started_at) filter (where r.step = 1 and r.k = r.call_id) as started_at,
      (array_agg(r.direction order by (r.k <> r.call_id), r.step))[1] as direction,
      (array_agg(r.phone order by (r.k <> r.call_id), r.step))[1] as phone,
      (array_agg(coalesce(${userName('u')}, ${userName('cu')}) order by (r.answered_at is null), (coalesce(r.user_id, r.caller_user_id) is null), r.step desc))[1] as agent,
      coalesce((array_agg(q.description order by (r.queue_id is null), (r.k <> r.call_id), r.step))[1], '') as queue,
      bool_or(r.answered_at is not null) as answered,
      coalesce(max(${seconds(sql`r.answered_at - coalesce(r.queue_started_at, r.started_at)`)}) filter (where r.answered_at is not null and r.queue_id is not null),
        max(${seconds(sql`coalesce(r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at)`)}) filter (where r.queue_id is not null)) as wait,
      coalesce(sum(r.answered_duration) filter (where r.answered_at is not null and not ${heldInApp('r')}), 0) as talk,
      ${seconds(sql`max(coalesce(r.ended_at, r.started_at)) - min(r.started_at)`)} as duration,
      (array_agg(r.hung_up_by order by (r.answered_at is null), (r.k <> r.call_id), r.step desc))[1] as hung_up_by,
      (array_agg(cl.description order by (cl.description is null), r.step desc))[1] as classification
    from rr r
      left join users u on u.id = r.user_id
      left join users cu on cu.id = r.caller_user_id
      left join pabx_queues q on q.id = r.queue_id
      left join service_classifications cl on cl.id = (r.classification->>'classification_id')::int and cl.site_id = r.site_id
    group by r.k`
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
  // Unfiltered (a filter keeps calls any of whose steps matches, which the hours cannot tell): the clean hours'
  // buckets plus the calls of the other hours, re-grouped into the user's days. Averages from sums and counts, as
  // round(avg(...)) gives them.
  hourlySummary: (ctx) => {
    const parts = callParts(ctx)
    if (!parts) return undefined
    return sql`with parts as (select (p.at at time zone ${ctx.tz})::date as day, p.* from (${parts}) p)
      select to_char(day, 'YYYY-MM-DD') as label, grouping(day) as _all,
        coalesce(sum(calls), 0) as t0, coalesce(sum(answered), 0) as t1, coalesce(sum(calls) - sum(answered), 0) as t2,
        round(sum(wait_sum)::numeric / nullif(sum(wait_n), 0)) as t3, round(sum(talk_sum)::numeric / nullif(sum(answered), 0)) as t4,
        coalesce(sum(answered), 0) as s0, coalesce(sum(calls) - sum(answered), 0) as s1, coalesce(sum(calls), 0) as _n
      from parts group by grouping sets ((day), ())`
  },
}

/**
 * The unfiltered calls of the period as summable parts (the calls report's summary, the builder's calls queries): the
 * clean hours' buckets of report_call_hours plus the calls of the other hours (the calls source over the raw hours).
 * Columns `at` (the bucket's UTC hour, or the call's start), `agent` (the call's agent's name, null for none),
 * `calls`, `answered`, `wait_sum`, `wait_n` (calls that waited in a queue), `talk_sum` (of the answered calls). Undefined
 * when the hours cannot answer: a filter (it keeps calls *any* step of which matches, which the hours cannot tell),
 * or no raw ranges read (not hourly).
 */
export function callParts(ctx: DatasetContext): SQL | undefined {
  const f = ctx.filters
  if (f.team !== undefined || f.agent !== undefined || f.queue !== undefined || f.campaign !== undefined || f.classification !== undefined) return undefined
  if (!ctx.hourly || !ctx.rawRanges) return undefined
  const clean = sql`select h.hour as at, ${userName('u')} as agent, h.calls, h.calls_answered as answered, h.wait_sum, h.wait_n, h.talk_sum
    from report_call_hours h left join users u on u.id = h.user_id
    where h.site_id = ${ctx.siteId} and h.hour >= ${ctx.from} and h.hour < ${ctx.to} and not ${inRanges(sql`h.hour`, ctx.rawRanges)}`
  // Every hour clean: no raw part (the calls source would still read the period's media legs).
  if (ctx.rawRanges.length === 0) return clean
  const raw = calls.source({ ...ctx, batch: undefined, onlyRawHours: true })
  return sql`${clean}
    union all
    select x._t, x.agent, 1, x.answered::int, coalesce(x.wait, 0), (x.wait is not null)::int, case when x.answered then x.talk else 0 end
    from (${raw}) x`
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
    if (f.queue !== undefined) conditions.push(chatQueueIs('r', f.queue))
    if (f.classification !== undefined) conditions.push(classificationIs('r', f.classification))
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

/** The agent and team filters on a row's user column (`column`: a qualified column name of the source). */
export function agentConditions(ctx: DatasetContext, column: string): SQL[] {
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
    if (f.classification !== undefined) conditions.push(classificationIs('r', f.classification))
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

/**
 * Agent productivity's calls per agent: `ans` (calls offered and answered, once each, and their talk) and `placed`
 * (calls placed, those answered, their talk), from the steps of the period — with `ctx.hourly`, the clean hours from
 * report_call_hours and the other hours from call_records.
 */
function callsPerAgent(ctx: DatasetContext): SQL {
  const ranges = ctx.hourly ? ctx.rawRanges : undefined
  const rawJoin = ranges ? sql` and ${inRanges(sql`r.started_at`, ranges)}` : sql``
  // A media leg counts under its caller's call, and the caller's step held in the app carries no talk (call-key.ts).
  const rawAns = sql`select r.user_id, count(distinct ${callKey('r')}) as n, sum(r.answered_duration) filter (where not ${heldInApp('r')}) as talk from call_records r
    where r.site_id = ${ctx.siteId} and ${inPeriod(sql`r.started_at`, ctx)}${rawJoin} and r.user_id is not null and r.answered_at is not null group by r.user_id`
  const rawPlaced = sql`select r.caller_user_id as user_id, count(distinct ${callKey('r')}) as n,
      count(distinct ${callKey('r')}) filter (where r.answered_at is not null) as answered_n,
      coalesce(sum(r.answered_duration) filter (where r.answered_at is not null and not ${heldInApp('r')}), 0) as talk from call_records r
    where r.site_id = ${ctx.siteId} and ${inPeriod(sql`r.started_at`, ctx)}${rawJoin} and r.caller_user_id is not null group by r.caller_user_id`
  if (!ranges) return sql`ans as (${rawAns}), placed as (${rawPlaced})`
  const clean = sql`from report_call_hours h
    where h.site_id = ${ctx.siteId} and h.hour >= ${ctx.from} and h.hour < ${ctx.to} and not ${inRanges(sql`h.hour`, ranges)} and h.user_id <> 0`
  return sql`ans as (select user_id, sum(n) as n, sum(talk) as talk from (
        select h.user_id, sum(h.agent_answered) as n, sum(h.agent_talk) as talk ${clean} group by h.user_id having sum(h.agent_answered) > 0 or sum(h.agent_talk) > 0
        union all ${rawAns}) a group by user_id),
      placed as (select user_id, sum(n) as n, sum(answered_n) as answered_n, sum(talk) as talk from (
        select h.user_id, sum(h.placed) as n, sum(h.placed_answered) as answered_n, sum(h.placed_talk) as talk ${clean} group by h.user_id having sum(h.placed) > 0
        union all ${rawPlaced}) p group by user_id)`
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
      ${callsPerAgent(ctx)},
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
  // Read through queueCalls (hours.ts): with `hourly`, the clean hours from report_queue_hours; no missed offers.
  source: (ctx) => sql`with qf as (${queueCalls(ctx, ctx.filters.queue, false)}),
      s as (select qf.queue_id, sum(qf.offered) as offered, sum(qf.answered) as answered, sum(qf.in_target) as in_target,
          sum(qf.waited_sum) as waited_sum, sum(qf.waited_n) as waited_n
        from qf group by qf.queue_id having sum(qf.offered) > 0)
    select lower(q.description) || chr(1) || lpad(q.id::text, 12, '0') as _k, ${ctx.from}::timestamptz as _t, q.description as queue,
      s.offered::int as calls_offered, s.answered::int as calls_answered, (s.offered - s.answered)::int as abandoned,
      s.in_target::int as in_target, q.service_level as target,
      round(100.0 * s.in_target / s.offered, 1)::float8 as service_level,
      round(s.waited_sum / s.waited_n)::int as average_wait
    from s join pabx_queues q on q.id = s.queue_id and q.site_id = ${ctx.siteId}`,
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
      callConditions.push(classificationIs('r', f.classification))
      chatConditions.push(classificationIs('r', f.classification))
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

// ---- NPS ----------------------------------------------------------------------------------------------------------

/** Promoter, passive or detractor: 9–10 / 7–8 / 0–6 on the 0–10 scale; 5 / 4 / 1–3 on the 1–5 scale. */
const npsCategory = (score: string, scale: string) =>
  sql.raw(`case when ${scale} = '1-5' then (case when ${score} >= 5 then 'promoter' when ${score} = 4 then 'passive' else 'detractor' end)
    else (case when ${score} >= 9 then 'promoter' when ${score} >= 7 then 'passive' else 'detractor' end) end`)
const pct = (part: SQL, whole: SQL) => sql`case when ${whole} > 0 then round(100.0 * ${part} / ${whole}, 1)::float8 end`

const nps: Dataset = {
  id: 'nps',
  filters: ['team', 'agent', 'queue'],
  order: 'time',
  columns: [
    { key: 'answered_on', kind: 'datetime' },
    { key: 'source', kind: 'text', values: 'npsSource' },
    { key: 'survey', kind: 'text' },
    { key: 'question', kind: 'number' },
    { key: 'scale', kind: 'text' },
    { key: 'score', kind: 'number' },
    { key: 'category', kind: 'text', values: 'npsCategory' },
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'comment', kind: 'text' },
    { key: 'reference', kind: 'text' },
  ],
  // One row per answer: each keypad answer of a telephony survey (question 1, 2, …) and each scored chat survey (one
  // question; its comment beside it), on the day it was answered (a chat's score waiting for its comment: sent).
  // The queue filter names a telephony queue, so it keeps telephony answers only.
  source: (ctx) => {
    const f = ctx.filters
    const who = agentConditions(ctx, 'a.user_id')
    const phoneQueue = f.queue !== undefined ? sql` and n.queue_id = ${f.queue}` : sql``
    const chatQueue = f.queue !== undefined ? sql` and false` : sql``
    return sql`select a.*, ${npsCategory('a.score', 'a.scale')} as category, ${userName('u')} as agent
      from (
        select 't' || lpad(n.id::text, 20, '0') as _k, n.answered_at as _t, n.answered_at as answered_on, 'telephony' as source,
          coalesce(sv.description, '') as survey, n.question + 1 as question, n.scale, n.score, n.user_id,
          coalesce(q.description, '') as queue, '' as comment, n.call_id as reference
        from telephony_nps_answers n
          left join service_nps_telephony sv on sv.id = n.nps_id
          left join pabx_queues q on q.id = n.queue_id
        where n.site_id = ${ctx.siteId} and ${inPeriod(sql`n.answered_at`, ctx)}${phoneQueue}
        union all
        select 'c' || lpad(c.id::text, 20, '0'), coalesce(c.answered_at, c.sent_at), coalesce(c.answered_at, c.sent_at), 'chat',
          coalesce(sv.description, ''), 1, c.scale, c.score, c.user_id, coalesce(q.description, ''), c.comment, r.uid
        from chat_nps_surveys c
          join chat_rooms r on r.id = c.room_id
          left join service_nps_chat sv on sv.id = c.nps_id
          left join chat_queues q on q.id = c.queue_id
        where c.site_id = ${ctx.siteId} and c.score is not null and ${inPeriod(sql`coalesce(c.answered_at, c.sent_at)`, ctx)}${chatQueue}
      ) a left join users u on u.id = a.user_id
      where true${and(who)}`
  },
  totals: [
    count('answers'),
    count('promoters', sql`x.category = 'promoter'`),
    count('passives', sql`x.category = 'passive'`),
    count('detractors', sql`x.category = 'detractor'`),
    {
      key: 'nps',
      kind: 'number',
      sql: sql`case when count(*) > 0 then round(100.0 * (count(*) filter (where x.category = 'promoter') - count(*) filter (where x.category = 'detractor')) / count(*), 1)::float8 end`,
    },
    { key: 'average_score', kind: 'number', sql: sql`round(avg(x.score), 1)::float8` },
  ],
  // The score distribution: answers per score, in score order.
  chart: { type: 'bar', by: 'label', label: sql`x.score::text`, order: 'label', series: [count('answers')] },
}

// ---- agent status timeline ---------------------------------------------------------------------------------------

/** The timeline's categories of the telephony status an agent reported (contract/codes/states.ts). */
const stateCategory = (status: string) =>
  sql.raw(`case when ${status} = 'not_inuse' then 'available'
    when ${status} in ('paused', 'do_not_disturb') then 'paused'
    when ${status} = 'after_service' then 'after_service'
    when ${status} in ('inuse', 'busy', 'ringing', 'ringinuse', 'onhold', 'onmute', 'inconference', 'click_to_call', 'in_activity') then 'call'
    when ${status} in ('unavailable', 'unknown', 'invalid', 'blocked') then 'offline'
    else 'other' end`)

/**
 * The agents' telephony status intervals in the period, split at each midnight of the user's time zone: one row per
 * (status change, day) with `id` (the change), `user_id`, `status`, `category`, `day`, `started_at`, `ended_at`,
 * `seconds`. A status holds until the agent's next change (the last one until now, or the period's end); the status
 * held when the period starts is the last change before it. `who` filters the agents (a condition on `u.id`).
 */
function statusIntervals(ctx: DatasetContext, who: SQL[]): SQL {
  const from = sql`${ctx.from}::timestamptz`
  const to = sql`${ctx.to}::timestamptz`
  return sql`with ag as (select u.id from users u where u.site_id = ${ctx.siteId}${and(who)}),
    ev as (
      select e.id, e.user_id, e.status, e.at from agent_status_events e
      where e.site_id = ${ctx.siteId} and e.channel = 'telephony' and e.at >= ${from} and e.at < ${to} and e.user_id in (select id from ag)
      union all
      select b.id, b.user_id, b.status, b.at from ag cross join lateral (
        select e.id, e.user_id, e.status, e.at from agent_status_events e
        where e.site_id = ${ctx.siteId} and e.user_id = ag.id and e.channel = 'telephony' and e.at < ${from}
        order by e.at desc, e.id desc limit 1) b),
    iv as (select ev.id, ev.user_id, ev.status, ev.at as s,
        coalesce(lead(ev.at) over (partition by ev.user_id order by ev.at, ev.id), least(now(), ${to})) as e
      from ev),
    days as (select d::date as day, (d::date::timestamp at time zone ${ctx.tz}) as ds, ((d::date + 1)::timestamp at time zone ${ctx.tz}) as de
      from generate_series(((${from} at time zone ${ctx.tz})::date)::timestamp, ((${to} at time zone ${ctx.tz})::date - 1)::timestamp, interval '1 day') d)
    select iv.id, iv.user_id, iv.status, ${stateCategory('iv.status')} as category, days.day,
      greatest(iv.s, days.ds) as started_at, least(iv.e, days.de) as ended_at,
      ${seconds(sql`least(iv.e, days.de) - greatest(iv.s, days.ds)`)} as seconds
    from iv join days on iv.s < days.de and iv.e > days.ds`
}

const sumWhere = (key: string, where: SQL, column = 'duration'): Measure => ({
  key,
  kind: 'duration',
  sql: sql`coalesce(sum(x.${sql.raw(column)}) filter (where ${where}), 0)`,
})

const agentStatus: Dataset = {
  id: 'agent-status',
  filters: ['team', 'agent'],
  order: 'time',
  columns: [
    { key: 'started_at', kind: 'datetime' },
    { key: 'ended_at', kind: 'datetime' },
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'status', kind: 'text', values: 'agentState' },
    { key: 'detail', kind: 'text', values: 'endpoint' },
    { key: 'reason', kind: 'text' },
    { key: 'duration', kind: 'duration' },
  ],
  // One row per status interval per agent and day (an interval crossing midnight is two rows, one each side); a
  // pause's reason is the agent's pause report overlapping the interval (the latest one started).
  source: (ctx) => sql`select lpad(i.id::text, 20, '0') || to_char(i.day, 'YYYYMMDD') as _k, i.started_at as _t, i.started_at, i.ended_at,
      ${userName('u')} as agent, coalesce(t.name, '') as team, i.category as status, i.status as detail,
      case when i.category = 'paused' then coalesce((select p.description from pause_reports p
        where p.site_id = ${ctx.siteId} and p.user_id = i.user_id and p.started_at is not null and p.started_at < i.ended_at
          and coalesce(p.ended_at, 'infinity'::timestamptz) > i.started_at
        order by p.started_at desc limit 1), '') else '' end as reason,
      i.seconds as duration
    from (${statusIntervals(ctx, agentConditions(ctx, 'u.id'))}) i
      join users u on u.id = i.user_id
      left join teams t on t.id = u.team_id`,
  totals: [
    count('intervals'),
    sumWhere('available_time', sql`x.status = 'available'`),
    sumWhere('call_time', sql`x.status = 'call'`),
    sumWhere('after_service_time', sql`x.status = 'after_service'`),
    sumWhere('pause_time', sql`x.status = 'paused'`),
    sumWhere('offline_time', sql`x.status = 'offline'`),
  ],
  chart: {
    type: 'bar',
    by: 'label',
    label: sql`x.agent`,
    series: [
      sumWhere('available_time', sql`x.status = 'available'`),
      sumWhere('call_time', sql`x.status = 'call'`),
      sumWhere('after_service_time', sql`x.status = 'after_service'`),
      sumWhere('pause_time', sql`x.status = 'paused'`),
    ],
  },
}

// ---- KPI ---------------------------------------------------------------------------------------------------------

const kpi: Dataset = {
  id: 'kpi',
  filters: ['team', 'agent', 'queue'],
  order: 'label',
  columns: [
    { key: 'day', kind: 'text' },
    { key: 'agent', kind: 'text', values: 'noAgent' },
    { key: 'team', kind: 'text' },
    { key: 'calls_offered', kind: 'number' },
    { key: 'calls_answered', kind: 'number' },
    { key: 'abandoned', kind: 'number' },
    { key: 'missed', kind: 'number' },
    { key: 'service_level', kind: 'percent' },
    { key: 'att', kind: 'duration' },
    { key: 'acw', kind: 'duration' },
    { key: 'aht', kind: 'duration' },
    { key: 'occupancy', kind: 'percent' },
    { key: 'pauses', kind: 'number' },
    { key: 'pause_time', kind: 'duration' },
  ],
  // One row per day and agent. Queue calls (each call once per queue it entered, on the day it entered it) are the
  // answering agent's row — the abandoned ones a row of no agent —, so the rows add up to the queues' totals:
  // received = answered + abandoned, service level = answered within the queue's target / received. `missed`: calls
  // the agent was offered (rung) and did not answer. ATT = talk / answered, ACW = after-service of those calls /
  // after-services, AHT = ATT + ACW. Occupancy (status timeline) = time on calls and in after-service / (that + time
  // available); pauses (not after-service) on the day they started.
  source: (ctx) => {
    const f = ctx.filters
    const day = (column: SQL) => sql`(${column} at time zone ${ctx.tz})::date`
    return sql`with
      qf as (${queueCalls(ctx, f.queue)}),
      cq as (select ${day(sql`qf.at`)} as day, qf.user_id, sum(qf.offered) as offered, sum(qf.answered) as answered,
          sum(qf.offered - qf.answered) as abandoned, sum(qf.in_target) as in_target,
          sum(qf.talk) as talk_sum, sum(qf.acw) as acw_sum, sum(qf.acw_n) as acw_n
        from qf group by 1, 2 having sum(qf.offered) > 0),
      mi as (select ${day(sql`qf.at`)} as day, qf.user_id, sum(qf.missed) as missed from qf group by 1, 2 having sum(qf.missed) > 0),
      st as (select i.day, i.user_id,
          coalesce(sum(i.seconds) filter (where i.category in ('call', 'after_service')), 0) as handling,
          coalesce(sum(i.seconds) filter (where i.category = 'available'), 0) as available
        from (${statusIntervals(ctx, agentConditions(ctx, 'u.id'))}) i group by 1, 2),
      pa as (select ${day(sql`p.started_at`)} as day, p.user_id, count(*) as n,
          sum(coalesce(p.duration, ${seconds(sql`coalesce(p.ended_at, now()) - p.started_at`)})) as secs
        from pause_reports p
        where p.site_id = ${ctx.siteId} and p.started_at is not null and ${inPeriod(sql`p.started_at`, ctx)} and ${notAfterService} group by 1, 2),
      k as (select day, user_id from cq union select day, user_id from mi union select day, user_id from st union select day, user_id from pa)
    select to_char(k.day, 'YYYY-MM-DD') || chr(1) || case when k.user_id = 0 then chr(2) else lower(coalesce(${userName('u')}, '')) end
        || chr(1) || lpad(k.user_id::text, 12, '0') as _k,
      (k.day::timestamp at time zone ${ctx.tz}) as _t, to_char(k.day, 'YYYY-MM-DD') as day,
      case when k.user_id = 0 then '' else ${userName('u')} end as agent, coalesce(t.name, '') as team,
      coalesce(cq.offered, 0)::int as calls_offered, coalesce(cq.answered, 0)::int as calls_answered, coalesce(cq.abandoned, 0)::int as abandoned,
      coalesce(mi.missed, 0)::int as missed, coalesce(cq.in_target, 0)::int as in_target,
      ${pct(sql`cq.in_target`, sql`cq.offered`)} as service_level,
      coalesce(cq.talk_sum, 0)::int as talk_sum, coalesce(cq.acw_sum, 0)::int as acw_sum, coalesce(cq.acw_n, 0)::int as acw_n,
      case when cq.answered > 0 then round(cq.talk_sum::numeric / cq.answered)::int end as att,
      case when cq.acw_n > 0 then round(cq.acw_sum::numeric / cq.acw_n)::int end as acw,
      case when cq.answered > 0 then (round(cq.talk_sum::numeric / cq.answered) + coalesce(round(cq.acw_sum::numeric / nullif(cq.acw_n, 0)), 0))::int end as aht,
      coalesce(st.handling, 0)::int as handling, coalesce(st.available, 0)::int as available,
      ${pct(sql`st.handling`, sql`(st.handling + st.available)`)} as occupancy,
      coalesce(pa.n, 0)::int as pauses, coalesce(pa.secs, 0)::int as pause_time
    from k
      left join users u on u.id = k.user_id and u.site_id = ${ctx.siteId}
      left join teams t on t.id = u.team_id
      left join cq on cq.day = k.day and cq.user_id = k.user_id
      left join mi on mi.day = k.day and mi.user_id = k.user_id
      left join st on st.day = k.day and st.user_id = k.user_id
      left join pa on pa.day = k.day and pa.user_id = k.user_id
    where (k.user_id = 0 or u.id is not null)${and(agentConditions(ctx, 'k.user_id'))}`
  },
  totals: [
    sum('calls_offered', 'calls_offered', 'number'),
    sum('calls_answered', 'calls_answered', 'number'),
    sum('abandoned', 'abandoned', 'number'),
    { key: 'service_level', kind: 'percent', sql: pct(sql`sum(x.in_target)`, sql`sum(x.calls_offered)`) },
    { key: 'att', kind: 'duration', sql: sql`case when sum(x.calls_answered) > 0 then round(sum(x.talk_sum)::numeric / sum(x.calls_answered)) end` },
    { key: 'acw', kind: 'duration', sql: sql`case when sum(x.acw_n) > 0 then round(sum(x.acw_sum)::numeric / sum(x.acw_n)) end` },
    {
      key: 'aht',
      kind: 'duration',
      sql: sql`case when sum(x.calls_answered) > 0 then round(sum(x.talk_sum)::numeric / sum(x.calls_answered)) + coalesce(round(sum(x.acw_sum)::numeric / nullif(sum(x.acw_n), 0)), 0) end`,
    },
    { key: 'occupancy', kind: 'percent', sql: pct(sql`sum(x.handling)`, sql`sum(x.handling + x.available)`) },
    sum('pause_time', 'pause_time'),
  ],
  chart: { type: 'bar', by: 'day', series: [sum('calls_answered', 'calls_answered', 'number'), sum('abandoned', 'abandoned', 'number')] },
}

// ---- dialer results ----------------------------------------------------------------------------------------------

const dialerResults: Dataset = {
  id: 'dialer-results',
  filters: ['campaign'],
  order: 'label',
  columns: [
    { key: 'campaign', kind: 'text' },
    { key: 'mailing', kind: 'text' },
    { key: 'attempts', kind: 'number' },
    { key: 'calls_answered', kind: 'number' },
    { key: 'abandoned', kind: 'number' },
    { key: 'abandon_rate', kind: 'percent' },
    { key: 'busy', kind: 'number' },
    { key: 'no_answer', kind: 'number' },
    { key: 'blacklisted', kind: 'number' },
    { key: 'voicemail', kind: 'number' },
    { key: 'fax', kind: 'number' },
    { key: 'uncertain', kind: 'number' },
    { key: 'statuses', kind: 'text' },
    { key: 'leads_total', kind: 'number' },
    { key: 'leads_done', kind: 'number' },
    { key: 'leads_remaining', kind: 'number' },
  ],
  // One row per campaign and mailing (every mailing linked to a campaign, and any other a try of the period dialled).
  // Attempts: the calls the dialer or a preview placed to the mailing's leads in the period (step 1 of call types 12,
  // 14 and 18; the campaign the dialer wrote on it, else the mailing's campaign), by their dial status; a blacklisted
  // lead (609) is not dialled and is no attempt: it is counted on the day it was blocked. Answered: the customer
  // answered; abandoned: answered with no agent free (the dialer's 'Abandoned'); abandon rate = abandoned / answered
  // (the basis of the dialer's cap). Leads: the mailing's leads now — done, and remaining (pending with attempts left).
  source: (ctx) => {
    const f = ctx.filters
    const campaign = (column: string) => (f.campaign !== undefined ? sql` and ${sql.raw(column)} = ${f.campaign}` : sql``)
    return sql`with
      tries as (select coalesce(case when r.decision->>'campaign' ~ '^[0-9]{1,9}$' then (r.decision->>'campaign')::int end,
            (select min(cm.campaign_id) from service_shipments_campaigns_mailings cm where cm.mailing_id = l.mailing_id)) as campaign_id,
          l.mailing_id, r.dial_status, r.answered_at, r.dial_status_text
        from call_records r join crm_leads l on l.id = r.lead_id
        where r.site_id = ${ctx.siteId} and r.step = 1 and r.lead_id is not null and r.call_type in (12, 14, 18) and ${inPeriod(sql`r.started_at`, ctx)}),
      blocked as (select s.campaign_id, l.mailing_id, 609 as dial_status from dialer_lead_states s join crm_leads l on l.id = s.lead_id
        where s.site_id = ${ctx.siteId} and s.last_status = 609 and ${inPeriod(sql`s.last_dial_at`, ctx)}),
      a as (select campaign_id, mailing_id, count(*) as attempts, count(*) filter (where answered_at is not null) as answered,
          count(*) filter (where dial_status_text = ${ABANDONED_TEXT}) as abandoned,
          count(*) filter (where dial_status in (486, 600)) as busy, count(*) filter (where dial_status in (480, 487, 408)) as no_answer,
          count(*) filter (where dial_status = 552) as voicemail, count(*) filter (where dial_status = 510) as fax,
          count(*) filter (where dial_status = 559) as uncertain
        from tries group by 1, 2),
      b as (select campaign_id, mailing_id, count(*) as n from blocked group by 1, 2),
      codes as (select campaign_id, mailing_id, coalesce(dial_status::text, '…') as code, count(*) as n
        from (select campaign_id, mailing_id, dial_status from tries union all select campaign_id, mailing_id, dial_status from blocked) y group by 1, 2, 3),
      st as (select campaign_id, mailing_id, string_agg(code || ' × ' || n, ', ' order by n desc, code) as statuses from codes group by 1, 2),
      k as (select campaign_id, mailing_id from service_shipments_campaigns_mailings where site_id = ${ctx.siteId}
        union select campaign_id, mailing_id from a union select campaign_id, mailing_id from b)
    select lower(coalesce(c.description, '')) || chr(1) || lpad(coalesce(k.campaign_id, 0)::text, 12, '0') || chr(1)
        || lower(m.description) || chr(1) || lpad(k.mailing_id::text, 12, '0') as _k,
      ${ctx.from}::timestamptz as _t, coalesce(c.description, '') as campaign, m.description as mailing,
      coalesce(a.attempts, 0)::int as attempts, coalesce(a.answered, 0)::int as calls_answered, coalesce(a.abandoned, 0)::int as abandoned,
      ${pct(sql`a.abandoned`, sql`a.answered`)} as abandon_rate,
      coalesce(a.busy, 0)::int as busy, coalesce(a.no_answer, 0)::int as no_answer, coalesce(b.n, 0)::int as blacklisted,
      coalesce(a.voicemail, 0)::int as voicemail, coalesce(a.fax, 0)::int as fax, coalesce(a.uncertain, 0)::int as uncertain,
      coalesce(st.statuses, '') as statuses,
      (select count(*) from crm_leads l where l.site_id = ${ctx.siteId} and l.mailing_id = k.mailing_id)::int as leads_total,
      (select count(*) from crm_leads l where l.site_id = ${ctx.siteId} and l.mailing_id = k.mailing_id and l.status = 'done')::int as leads_done,
      (select count(*) from crm_leads l where l.site_id = ${ctx.siteId} and l.mailing_id = k.mailing_id and l.status = 'pending'
        and l.attempts < coalesce(c.max_attempts, 2147483647))::int as leads_remaining
    from k
      join crm_mailings m on m.id = k.mailing_id and m.site_id = ${ctx.siteId}
      left join service_shipments_campaigns c on c.id = k.campaign_id and c.site_id = ${ctx.siteId}
      left join a on a.campaign_id is not distinct from k.campaign_id and a.mailing_id = k.mailing_id
      left join b on b.campaign_id is not distinct from k.campaign_id and b.mailing_id = k.mailing_id
      left join st on st.campaign_id is not distinct from k.campaign_id and st.mailing_id = k.mailing_id
    where true${campaign('k.campaign_id')}`
  },
  totals: [
    sum('attempts', 'attempts', 'number'),
    sum('calls_answered', 'calls_answered', 'number'),
    sum('abandoned', 'abandoned', 'number'),
    { key: 'abandon_rate', kind: 'percent', sql: pct(sql`sum(x.abandoned)`, sql`sum(x.calls_answered)`) },
    sum('blacklisted', 'blacklisted', 'number'),
    sum('leads_done', 'leads_done', 'number'),
    sum('leads_remaining', 'leads_remaining', 'number'),
  ],
  chart: {
    type: 'bar',
    by: 'label',
    label: sql`x.campaign`,
    series: [sum('attempts', 'attempts', 'number'), sum('calls_answered', 'calls_answered', 'number'), sum('abandoned', 'abandoned', 'number')],
  },
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
  nps,
  kpi,
  'agent-status': agentStatus,
  'dialer-results': dialerResults,
}
