import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { BuilderDataset, BuilderFilter, BuilderQuery, BuilderResult, BuilderValueKind } from '../../contract/api/builder.ts'
import { BUILDER_CATALOGUE, BUILDER_FILTERS, BUILDER_TEXTS, builderText, queryErrors } from '../../contract/api/builder.ts'
import type { ReportColumnKind, ReportFilters } from '../../contract/api/reports.ts'
import { REPORT_TEXTS, reportText } from '../../contract/api/reports.ts'
import type { ReportTextKey } from '../../contract/api/reports.ts'
import type { Db } from '../db/client.ts'
import { fieldErrors } from '../http/errors.ts'
import { message } from '../../contract/messages.ts'
import type { Locale } from '../../contract/locales.ts'
import { DATASETS, agentConditions, callParts, campaignMailings, chatQueueIs } from './datasets.ts'
import { periodBounds, rawRanges } from './hours.ts'
import type { DatasetContext } from './datasets.ts'
import { todayIn } from './today.ts'

// The builder's queries (contract/api/builder.ts): a dataset's rows — the report datasets of datasets.ts, or the thin
// ones below that only the builder needs — aggregated by one measure, optionally grouped by the day or hour they
// started or by one of their text columns. Every identifier comes from the catalogue (checked before any SQL is
// built) and reaches SQL as a quoted identifier; values are parameters; the site is always the signed-in user's.

type Raw = Record<string, unknown>
const rows = async (db: Db, query: SQL): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows

type Column = { key: string; kind: ReportColumnKind; values?: string }
/** What the builder reads of a dataset: its columns and its rows over the period (`_t`: when each started). */
type Source = { columns: readonly Column[]; source(ctx: DatasetContext): SQL }

const userName = (alias: string) => sql.raw(`coalesce(nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), ''), ${alias}.username)`)
const inPeriod = (column: SQL, ctx: DatasetContext) => sql`${column} >= ${ctx.from} and ${column} < ${ctx.to}`
const and = (conditions: SQL[]) => (conditions.length ? sql` and ${sql.join(conditions, sql` and `)}` : sql``)

/** Chat messages written in the period: by agent (who wrote it), chat queue (its room's), channel and type (text, image, audio, …). */
const messages: Source = {
  columns: [
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'channel', kind: 'text' },
    { key: 'type', kind: 'text' },
  ],
  source: (ctx) => {
    const conditions = agentConditions(ctx, 'm.user_id')
    // A chat dataset's `queue` filter names a chat queue (runQuery hands it the query's chat_queue).
    if (ctx.filters.queue !== undefined) conditions.push(chatQueueIs('r', ctx.filters.queue))
    return sql`select m.created_at as _t, coalesce(${userName('u')}, '') as agent, coalesce(q.description, '') as queue,
        coalesce(ch.description, '') as channel, m.type
      from chat_room_messages m
        join chat_rooms r on r.id = m.room_id
        left join users u on u.id = m.user_id
        left join chat_queues q on q.id = r.queue_id
        left join chat_channels ch on ch.id = m.channel_id
      where m.site_id = ${ctx.siteId} and ${inPeriod(sql`m.created_at`, ctx)}${and(conditions)}`
  },
}

/** Agents' status changes in the period (each change once): by agent, team, status and channel. */
const statuses: Source = {
  columns: [
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'status', kind: 'text' },
    { key: 'channel', kind: 'text' },
  ],
  source: (ctx) => sql`select e.at as _t, ${userName('u')} as agent, coalesce(t.name, '') as team, e.status, e.channel
    from agent_status_events e
      join users u on u.id = e.user_id
      left join teams t on t.id = u.team_id
    where e.site_id = ${ctx.siteId} and ${inPeriod(sql`e.at`, ctx)}${and(agentConditions(ctx, 'e.user_id'))}`,
}

/** NPS answers of the period: telephony keys (each question) and chat surveys answered, with their score. */
const nps: Source = {
  columns: [
    { key: 'agent', kind: 'text' },
    { key: 'queue', kind: 'text' },
    { key: 'channel', kind: 'text' },
    { key: 'score', kind: 'number' },
  ],
  source: (ctx) => {
    const tel = agentConditions(ctx, 'a.user_id')
    const chat = agentConditions(ctx, 's.user_id')
    if (ctx.filters.queue !== undefined) {
      tel.push(sql`a.queue_id = ${ctx.filters.queue}`)
      chat.push(sql`s.queue_id = ${ctx.filters.queue}`)
    }
    return sql`select a.answered_at as _t, coalesce(${userName('u')}, '') as agent, coalesce(q.description, '') as queue, 'telephony' as channel, a.score
        from telephony_nps_answers a left join users u on u.id = a.user_id left join pabx_queues q on q.id = a.queue_id
        where a.site_id = ${ctx.siteId} and ${inPeriod(sql`a.answered_at`, ctx)}${and(tel)}
      union all
      select s.answered_at, coalesce(${userName('u')}, ''), coalesce(q.description, ''), 'chat', s.score
        from chat_nps_surveys s left join users u on u.id = s.user_id left join chat_queues q on q.id = s.queue_id
        where s.site_id = ${ctx.siteId} and s.score is not null and s.answered_at is not null and ${inPeriod(sql`s.answered_at`, ctx)}${and(chat)}`
  },
}

/** Leads created in the period: by mailing and dial status, with their attempts. */
const leads: Source = {
  columns: [
    { key: 'mailing', kind: 'text' },
    { key: 'status', kind: 'text' },
    { key: 'attempts', kind: 'number' },
  ],
  source: (ctx) => {
    const conditions: SQL[] = []
    if (ctx.filters.campaign !== undefined) conditions.push(sql`l.mailing_id in ${campaignMailings(ctx, ctx.filters.campaign)}`)
    return sql`select l.created_at as _t, coalesce(m.description, '') as mailing, l.status, l.attempts
      from crm_leads l left join crm_mailings m on m.id = l.mailing_id
      where l.site_id = ${ctx.siteId} and ${inPeriod(sql`l.created_at`, ctx)}${and(conditions)}`
  },
}

/**
 * Activities (scheduled callbacks) due in the period: by agent, team, type and whether done, with their attempts. The
 * campaign filter keeps those whose mailing is one of the campaign's (as a lead's).
 */
const activities: Source = {
  columns: [
    { key: 'agent', kind: 'text' },
    { key: 'team', kind: 'text' },
    { key: 'type', kind: 'text' },
    { key: 'status', kind: 'text' },
    { key: 'attempts', kind: 'number' },
  ],
  source: (ctx) => sql`select a.start as _t, ${userName('u')} as agent, coalesce(t.name, '') as team, a.type,
      case when a.done then 'done' when a.active then 'pending' else 'inactive' end as status, a.count as attempts
    from activities a
      join users u on u.id = a.user_id
      left join teams t on t.id = u.team_id
    where a.site_id = ${ctx.siteId} and ${inPeriod(sql`a.start`, ctx)}${and([
      ...agentConditions(ctx, 'a.user_id'),
      ...(ctx.filters.campaign !== undefined ? [sql`a.mailing_id in ${campaignMailings(ctx, ctx.filters.campaign)}`] : []),
    ])}`,
}

/** Each builder dataset's source: a report dataset where one exists, else a thin one of this file. */
export const BUILDER_SOURCES: Record<BuilderDataset, Source> = {
  calls: DATASETS.calls,
  steps: DATASETS['call-steps'],
  chats: DATASETS.chats,
  messages,
  pauses: DATASETS.pauses,
  'after-service': DATASETS['after-service'],
  statuses,
  nps,
  leads,
  activities,
  agents: DATASETS['agent-productivity'],
  queues: DATASETS['queue-service-level'],
}

const VALUE_TEXTS: Record<string, string> = { direction: 'direction', hung_up_by: 'party', state: 'chatState', ended_by: 'endedBy', kind: 'target' }

/** The first and last day (YYYY-MM-DD) of a period, counted in the user's time zone. */
export function periodDays(period: BuilderQuery['period'], tz: string, now = new Date()): { from: string; to: string } {
  const today = todayIn(tz, now)
  const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
  switch (period) {
    case 'yesterday':
      return { from: shift(today, -1), to: shift(today, -1) }
    case 'last_7_days':
      return { from: shift(today, -6), to: today }
    case 'last_30_days':
      return { from: shift(today, -29), to: today }
    case 'this_month':
      return { from: `${today.slice(0, 8)}01`, to: today }
    default:
      return { from: today, to: today }
  }
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** Where each filter's ids live: an id must be a row of the user's site there (GET filters' choices; any agent). */
const FILTER_TABLES: Record<BuilderFilter, string> = {
  team: 'teams',
  agent: 'users',
  queue: 'pabx_queues',
  chat_queue: 'chat_queues',
  campaign: 'service_shipments_campaigns',
  classification: 'service_classifications',
}

/** Field errors for filter ids that are no row of the site (unknown, or another site's): one query for all of them. */
export async function filterIdErrors(
  db: Db,
  siteId: number,
  values: Partial<Record<BuilderFilter, number | null>>,
  lang: string,
): Promise<Record<string, string[]>> {
  const asked = BUILDER_FILTERS.filter((key) => values[key] != null)
  if (!asked.length) return {}
  const checks = asked.map(
    (key) => sql`exists (select 1 from ${sql.identifier(FILTER_TABLES[key])} where id = ${values[key]!} and site_id = ${siteId}) as ${sql.identifier(key)}`,
  )
  const [found] = await rows(db, sql`select ${sql.join(checks, sql`, `)}`)
  const errors: Record<string, string[]> = {}
  for (const key of asked) if (found?.[key] !== true) errors[key] = [message('invalidValue', lang as Locale)]
  return errors
}

/** A chat dataset's `queue` names a chat queue (the report datasets' convention): the query's chat_queue goes there. */
const CHAT_QUEUE_DATASETS: readonly BuilderDataset[] = ['chats', 'messages']

/** The builder datasets whose sources read the pre-aggregated hours (the others skip reading the raw ranges). */
const HOURLY_DATASETS: readonly BuilderDataset[] = ['calls', 'agents', 'queues']

/**
 * Runs a query over the site's rows: 400 (field errors) for one the catalogue refuses or whose filter ids are not the
 * site's.
 */
export async function runQuery(
  db: Db,
  siteId: number,
  query: BuilderQuery,
  tz: string,
  lang: string,
  now = new Date(),
  options: { hourly?: boolean } = {},
): Promise<BuilderResult> {
  const errors = queryErrors(query, lang)
  if (!isTimeZone(tz)) errors.tz = [message('invalidValue', lang as Locale)]
  if (Object.keys(errors).length) throw fieldErrors(errors)
  const unknown = await filterIdErrors(db, siteId, query, lang)
  if (Object.keys(unknown).length) throw fieldErrors(unknown)
  const dataset = BUILDER_SOURCES[query.dataset]
  const days = periodDays(query.period, tz, now)
  const bounds = await periodBounds(db, days.from, days.to, tz)
  const filters: ReportFilters = { tz }
  for (const key of ['team', 'agent', 'queue', 'campaign', 'classification'] as const) if (query[key] != null) filters[key] = query[key]
  if (query.chat_queue != null && CHAT_QUEUE_DATASETS.includes(query.dataset)) filters.queue = query.chat_queue
  // As the report pages: the pre-aggregated hours when the period's days start on whole UTC hours (hours.ts), the
  // hours not clean read raw — the datasets that read them do (calls below, agents, queues).
  const hourly = (options.hourly ?? true) && bounds.wholeHours && HOURLY_DATASETS.includes(query.dataset)
  const ctx: DatasetContext = {
    siteId,
    from: bounds.from,
    to: bounds.to,
    tz,
    filters,
    hourly,
    rawRanges: hourly ? await rawRanges(db, siteId, bounds.from, bounds.to) : undefined,
  }

  const field = query.measure === 'count' ? null : query.measure_field!
  const column = field ? dataset.columns.find((c) => c.key === field) : undefined
  if (field && !column) throw fieldErrors({ measure_field: [builderText(BUILDER_TEXTS.notForDataset, lang)] })
  const fn = { sum: 'sum', avg: 'avg', min: 'min', max: 'max' }[query.measure as 'sum']
  const measure = field ? sql`round(${sql.raw(fn)}(x.${sql.identifier(field)})::numeric, 1)::float8` : sql`count(*)`
  const kind: BuilderValueKind =
    !column || query.measure === 'count' ? 'number' : column.kind === 'duration' ? 'duration' : column.kind === 'percent' ? 'percent' : 'number'

  const group = query.group_by
  let label: SQL
  if (group === 'day') label = sql`to_char((x._t at time zone ${tz})::date, 'YYYY-MM-DD')`
  else if (group === 'hour') label = sql`lpad(extract(hour from x._t at time zone ${tz})::int::text, 2, '0') || ':00'`
  else if (group === 'none') label = sql`''`
  else {
    if (!dataset.columns.some((c) => c.key === group)) throw fieldErrors({ group_by: [builderText(BUILDER_TEXTS.notForDataset, lang)] })
    label = sql`coalesce(x.${sql.identifier(group)}::text, '')`
  }
  const fromHours = query.dataset === 'calls' ? hourlyCalls(ctx, query, group) : undefined
  const data = await rows(
    db,
    fromHours ??
      sql`select x._label as label, grouping(x._label) as _all, ${measure} as value
      from (select x.*, ${label} as _label from (${dataset.source(ctx)}) x) x
      group by grouping sets ((x._label), ())`,
  )
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))
  const total = data.find((row) => Number(row._all) === 1)
  let groups = data.filter((row) => Number(row._all) === 0).map((row) => ({ label: String(row.label ?? ''), value: num(row.value) }))
  if (group === 'none') groups = []
  else if (group === 'day' || group === 'hour') {
    // Every day (or hour) of the period, with zeros where nothing happened, in order.
    const byLabel = new Map(groups.map((g) => [g.label, g.value]))
    const labels: string[] = []
    if (group === 'hour') for (let h = 0; h < 24; h++) labels.push(`${String(h).padStart(2, '0')}:00`)
    else for (let d = days.from; d <= days.to; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) labels.push(d)
    groups = labels.map((l) => ({ label: l, value: byLabel.get(l) ?? (query.measure === 'count' || query.measure === 'sum' ? 0 : null) }))
  } else {
    const values = dataset.columns.find((c) => c.key === group)?.values ?? VALUE_TEXTS[group]
    const yes = reportText('yes', lang)
    const no = reportText('no', lang)
    groups = groups
      .map((g) => {
        let text = g.label
        if (group === 'answered') text = g.label === 'true' ? yes : no
        else if (values && `${values}.${g.label}` in REPORT_TEXTS) text = reportText(`${values}.${g.label}` as ReportTextKey, lang)
        return { label: text, value: g.value }
      })
      .sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.label.localeCompare(b.label))
      .slice(0, query.limit)
  }
  const measureLabel = field
    ? `${builderText(BUILDER_TEXTS.measures[query.measure], lang)} — ${builderText(BUILDER_TEXTS.fields[field], lang)}`
    : builderText(BUILDER_TEXTS.measures.count, lang)
  return {
    dataset: query.dataset,
    measure: { key: field ?? 'count', label: measureLabel, kind },
    group: { key: group, label: builderText(BUILDER_TEXTS.groups[group], lang) },
    total: num(total?.value),
    groups,
    from: ctx.from.toISOString(),
    to: ctx.to.toISOString(),
  }
}

/**
 * A calls query the pre-aggregated hours answer exactly (datasets.ts callParts: unfiltered, whole-hour days): the
 * count, or the sum or average of the wait or the talk, in all or by day, hour or agent. The same rounding as the raw
 * query's `round(fn(x.field)::numeric, 1)`: an average from the sums and counts, a sum null over no value.
 */
function hourlyCalls(ctx: DatasetContext, query: BuilderQuery, group: BuilderQuery['group_by']): SQL | undefined {
  const parts = callParts(ctx)
  if (!parts) return undefined
  let label: SQL
  if (group === 'day') label = sql`to_char((p.at at time zone ${ctx.tz})::date, 'YYYY-MM-DD')`
  else if (group === 'hour') label = sql`lpad(extract(hour from p.at at time zone ${ctx.tz})::int::text, 2, '0') || ':00'`
  else if (group === 'agent') label = sql`coalesce(p.agent, '')`
  else if (group === 'none') label = sql`''`
  else return undefined
  const [total, n] =
    query.measure_field === 'wait'
      ? [sql`sum(p.wait_sum)`, sql`sum(p.wait_n)`]
      : query.measure_field === 'talk'
        ? [sql`sum(p.talk_sum)`, sql`sum(p.calls)`]
        : []
  let measure: SQL
  if (query.measure === 'count') measure = sql`coalesce(sum(p.calls), 0)`
  else if (!total || !n) return undefined
  else if (query.measure === 'sum') measure = sql`case when ${n} > 0 then round(${total}::numeric, 1)::float8 end`
  else if (query.measure === 'avg') measure = sql`round(${total}::numeric / nullif(${n}, 0), 1)::float8`
  else return undefined
  return sql`select p._label as label, grouping(p._label) as _all, ${measure} as value
    from (select p.*, ${label} as _label from (${parts}) p) p
    group by grouping sets ((p._label), ())`
}

/** The catalogue and the datasets agree (a test checks it): every grouping and measured column exists. */
export function catalogueMismatches(): string[] {
  const out: string[] = []
  for (const [id, entry] of Object.entries(BUILDER_CATALOGUE) as [BuilderDataset, (typeof BUILDER_CATALOGUE)[BuilderDataset]][]) {
    const keys = new Set(BUILDER_SOURCES[id].columns.map((c) => c.key))
    for (const g of entry.groups) if (g !== 'answered' && !keys.has(g)) out.push(`${id}.group.${g}`)
    if (entry.groups.includes('answered') && !keys.has('answered')) out.push(`${id}.group.answered`)
    for (const f of entry.fields) if (!keys.has(f)) out.push(`${id}.field.${f}`)
  }
  return out
}
