import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { callKey, heldInApp } from '../telephony/control/call-key.ts'

// The pre-aggregated call hours (schema report-hours.ts, README "Speed at 1,000,000 calls"). A trigger on call_records
// marks dirty, in the writing transaction itself, the UTC hour a step started in and the hour its call's step 1
// started in (migration 00xx_reports19a), bumping the hour's `version`. `refreshHours` recomputes dirty hours from
// call_records — each run of consecutive hours in one transaction: delete the hours' buckets, insert them again from
// the raw rows, then mark clean only the hours whose version is still the one read before — so a write that commits
// meanwhile leaves its hour dirty (a writer still open holds the report_hours row, and the clean waits for it, then
// sees the new version). A report reads clean hours from report_call_hours and every other hour of its period from
// call_records, in one statement (one snapshot). Idempotent: refreshing a clean hour rewrites the same figures.

/** The origin of the UTC hour grid (date_bin does not depend on the session's time zone, unlike date_trunc). */
export const hourOf = (at: SQL) => sql`date_bin('1 hour', ${at}, timestamptz '2000-01-01 00:00:00+00')`

export type HourRange = { from: Date; to: Date }

/**
 * The runs of consecutive hours of [from, to) (whole UTC hours) that must be read from call_records (not clean),
 * read before the report's query and handed to it as constant ranges: the query reads those from call_records and
 * every other hour from report_call_hours, each hour exactly once (a plan over constant ranges uses the started_at
 * index; a join against a computed set of hours let PostgreSQL scan the whole table). An hour dirtied between the two
 * queries is read from its last refresh, as if the report had run a moment earlier.
 */
export async function rawRanges(db: Db, siteId: number, from: Date, to: Date): Promise<HourRange[]> {
  const hours = await rows(
    db,
    sql`select g.hour from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 hour', interval '1 hour') g(hour)
      where not exists (select 1 from report_hours c where c.site_id = ${siteId} and c.hour = g.hour and not c.dirty) order by g.hour`,
  )
  const ranges: HourRange[] = []
  for (const row of hours) {
    const hour = new Date(row.hour as string)
    const last = ranges[ranges.length - 1]
    if (last && last.to.getTime() === hour.getTime()) last.to = new Date(hour.getTime() + HOUR)
    else ranges.push({ from: hour, to: new Date(hour.getTime() + HOUR) })
  }
  return ranges
}

/**
 * A period of days in the user's zone, bounded by PostgreSQL's rules (a DST day is 23 or 25 hours long), and whether
 * every day of it starts on a whole UTC hour — then the pre-aggregated hours can answer it exactly (not in zones of
 * half- or quarter-hour offsets: Asia/Kolkata, Asia/Kathmandu, America/St_Johns). The reports' and the builder's.
 */
export async function periodBounds(db: Db, dateFrom: string, dateTo: string, tz: string): Promise<{ from: Date; to: Date; wholeHours: boolean }> {
  const [bounds] = await rows(
    db,
    sql`select (${dateFrom}::date::timestamp at time zone ${tz}) as "from", ((${dateTo}::date + 1)::timestamp at time zone ${tz}) as "to",
      (select bool_and(date_bin('1 hour', b, timestamptz '2000-01-01 00:00:00+00') = b)
        from generate_series(0, ${dateTo}::date - ${dateFrom}::date + 1) i, lateral (select (${dateFrom}::date + i)::timestamp at time zone ${tz} as b) d) as whole_hours`,
  )
  return { from: new Date(bounds!.from as string), to: new Date(bounds!.to as string), wholeHours: bounds!.whole_hours === true }
}

/** `column` falls in one of the ranges (false when there is none). */
export const inRanges = (column: SQL, ranges: readonly HourRange[]) =>
  ranges.length === 0
    ? sql`false`
    : sql`(${sql.join(
        ranges.map((r) => sql`(${column} >= ${r.from} and ${column} < ${r.to})`),
        sql` or `,
      )})`

type Raw = Record<string, unknown>
const rows = async (db: Db, query: SQL): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows

const HOUR = 3_600_000

/**
 * report_call_hours' rows of [lo, hi) computed from call_records (see the columns in schema/report-hours.ts). A media
 * app's bridge leg (call-key.ts) is not a call of its own: its step 1 is left out of `calls`, and the agent's figures
 * count the leg's answered step (the caller's step held in the app is left out of them); a call's talk in `calls` is
 * its own steps' (the held step's time is the bridged conversation's).
 */
function bucketsOf(siteId: number, lo: Date, hi: Date): SQL {
  const user = sql`coalesce(r.user_id, r.caller_user_id)`
  return sql`
    with calls as (
      select ${hourOf(sql`s.started_at`)} as hour,
        coalesce((array_agg(${user} order by (r.answered_at is null), (${user} is null), r.step desc))[1], 0) as user_id,
        coalesce((array_agg(r.queue_id order by (r.queue_id is null), r.step))[1], 0) as queue_id,
        bool_or(r.answered_at is not null) as answered,
        coalesce(max(round(extract(epoch from r.answered_at - coalesce(r.queue_started_at, r.started_at)))::int) filter (where r.answered_at is not null and r.queue_id is not null),
          max(round(extract(epoch from coalesce(r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at)))::int) filter (where r.queue_id is not null)) as wait,
        coalesce(sum(r.answered_duration) filter (where r.answered_at is not null), 0) as talk
      from call_records s join call_records r on r.site_id = s.site_id and r.call_id = s.call_id
      where s.site_id = ${siteId} and s.step = 1 and s.parent_uid is null and s.started_at >= ${lo} and s.started_at < ${hi}
      group by s.call_id, s.started_at),
    touched as (select distinct call_id from call_records where site_id = ${siteId} and started_at >= ${lo} and started_at < ${hi}),
    -- Per call and agent offered it: the first step they answered (the call counts once, there).
    answered as (
      select ${hourOf(sql`min(r.started_at)`)} as hour, r.user_id, coalesce((array_agg(r.queue_id order by r.started_at, r.step))[1], 0) as queue_id
      from call_records r join touched t on t.call_id = r.call_id
      where r.site_id = ${siteId} and r.user_id is not null and r.answered_at is not null and not ${heldInApp('r')}
      group by r.call_id, r.user_id),
    -- Per call and agent who placed it: the first step, and the first answered step.
    placed as (
      select ${hourOf(sql`min(r.started_at)`)} as hour, ${hourOf(sql`min(r.started_at) filter (where r.answered_at is not null)`)} as answered_hour,
        r.caller_user_id as user_id, coalesce((array_agg(r.queue_id order by r.started_at, r.step))[1], 0) as queue_id
      from call_records r join touched t on t.call_id = r.call_id
      where r.site_id = ${siteId} and r.caller_user_id is not null
      group by r.call_id, r.caller_user_id),
    steps as (
      select ${hourOf(sql`r.started_at`)} as hour, r.user_id, r.caller_user_id, coalesce(r.queue_id, 0) as queue_id, r.answered_at, r.answered_duration,
        ${heldInApp('r')} as held
      from call_records r where r.site_id = ${siteId} and r.started_at >= ${lo} and r.started_at < ${hi}),
    parts (hour, user_id, queue_id, calls, calls_answered, wait_sum, wait_n, talk_sum, agent_answered, agent_talk, placed, placed_answered, placed_talk) as (
      select hour, user_id, queue_id, 1, answered::int, coalesce(wait, 0), (wait is not null)::int, case when answered then talk else 0 end, 0, 0, 0, 0, 0 from calls
      union all
      select hour, user_id, queue_id, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0 from answered where hour >= ${lo} and hour < ${hi}
      union all
      select hour, user_id, queue_id, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 from placed where hour >= ${lo} and hour < ${hi}
      union all
      select answered_hour, user_id, queue_id, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 from placed where answered_hour >= ${lo} and answered_hour < ${hi}
      union all
      select hour, user_id, queue_id, 0, 0, 0, 0, 0, 0, coalesce(answered_duration, 0), 0, 0, 0 from steps where user_id is not null and answered_at is not null and not held
      union all
      select hour, caller_user_id, queue_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, coalesce(answered_duration, 0) from steps where caller_user_id is not null and answered_at is not null and not held)
    select ${siteId}::int as site_id, hour, user_id, queue_id, sum(calls)::int, sum(calls_answered)::int, sum(wait_sum)::bigint, sum(wait_n)::int,
      sum(talk_sum)::bigint, sum(agent_answered)::int, sum(agent_talk)::bigint, sum(placed)::int, sum(placed_answered)::int, sum(placed_talk)::bigint
    from parts group by hour, user_id, queue_id`
}

/**
 * Each call once per queue it entered (KPI, queue service level): the queue steps of call_records (alias `r`)
 * matching `where`, grouped by call (a media leg under its caller's, call-key.ts) and queue. One row per such call —
 * `first_at` (its first step in the queue), `qstart` (when it entered it), `queue_id`, `user_id` (who answered, 0:
 * abandoned), `offered` 1, `answered`, `in_target` (answered within the queue's service_level), `waited_sum` (seconds
 * from entering to the answer or the end), `waited_n`, `talk`, `acw`, `acw_n` — and one row per other agent it was
 * offered to (`missed` 1; left out without `withMissed`: queue service level does not need them). The refresh groups
 * these rows into report_queue_hours; a report reads them for its raw hours.
 */
export function rawQueueCalls(siteId: number, where: SQL, withMissed = true): SQL {
  return sql`with qs as (
      select ${callKey('r')} as call_id, r.queue_id, r.user_id, r.offered_user_ids, r.answered_at, r.started_at,
        case when ${heldInApp('r')} then null else r.answered_duration end as answered_duration, r.after_service_duration,
        coalesce(r.queue_started_at, r.started_at) as qstart,
        extract(epoch from coalesce(r.answered_at, r.ended_at, r.started_at) - coalesce(r.queue_started_at, r.started_at)) as waited
      from call_records r where r.site_id = ${siteId} and r.queue_id is not null and ${where}),
    qc as (select qs.call_id, qs.queue_id, min(qs.started_at) as first_at, min(qs.qstart) as qstart,
        (array_agg(qs.user_id order by qs.answered_at) filter (where qs.answered_at is not null))[1] as agent_id,
        bool_or(qs.answered_at is not null) as answered,
        min(extract(epoch from qs.answered_at - qs.qstart)) filter (where qs.answered_at is not null) as answer_wait,
        max(qs.waited) as waited,
        coalesce(sum(qs.answered_duration) filter (where qs.answered_at is not null), 0) as talk,
        coalesce(sum(qs.after_service_duration) filter (where qs.answered_at is not null), 0) as acw,
        count(qs.after_service_duration) filter (where qs.answered_at is not null) as acw_n
      from qs group by qs.call_id, qs.queue_id),
    offers as (select distinct qs.call_id, qs.queue_id, o.uid from qs
        cross join lateral unnest(array_append(array(select jsonb_array_elements_text(qs.offered_user_ids)::int), qs.user_id)) o(uid)
      where o.uid is not null)
    select qc.first_at, qc.qstart, qc.queue_id, coalesce(qc.agent_id, 0) as user_id, 1 as offered, qc.answered::int as answered,
      (qc.answered and qc.answer_wait <= q.service_level)::int as in_target, qc.waited as waited_sum, 1 as waited_n,
      qc.talk, qc.acw, qc.acw_n, 0 as missed
    from qc join pabx_queues q on q.id = qc.queue_id
    ${
      withMissed
        ? sql`    union all
    select qc.first_at, qc.qstart, qc.queue_id, offers.uid, 0, 0, 0, 0, 0, 0, 0, 0, 1
    from offers join qc on qc.call_id = offers.call_id and qc.queue_id = offers.queue_id
    where qc.agent_id is distinct from offers.uid`
        : sql``
    }`
}

/** A report's period and, with `hourly`, the hours it must read raw (engine.ts / builder.ts read them first). */
export type HourlyScope = { siteId: number; from: Date; to: Date; hourly?: boolean; rawRanges?: HourRange[] }

/**
 * The period's queue calls as rawQueueCalls' rows (`at`: when each entered the queue, its UTC hour for the
 * pre-aggregated ones), optionally of one queue: with `hourly`, the clean hours' from report_queue_hours (summed
 * per hour, agent and queue) and the raw ones from call_records; else all from call_records — each hour once.
 */
export function queueCalls(scope: HourlyScope, queue?: number, withMissed = true): SQL {
  const inScope = sql`r.started_at >= ${scope.from} and r.started_at < ${scope.to}${queue === undefined ? sql`` : sql` and r.queue_id = ${queue}`}`
  const columns = sql`queue_id, user_id, offered, answered, in_target, waited_sum, waited_n, talk, acw, acw_n, missed`
  const ranges = scope.hourly ? scope.rawRanges : undefined
  if (!ranges) return sql`select qstart as at, ${columns} from (${rawQueueCalls(scope.siteId, inScope, withMissed)}) c`
  return sql`select h.queue_hour as at, h.queue_id, h.user_id, h.offered, h.answered, h.in_target, h.waited_sum, h.waited_n,
      h.talk_sum as talk, h.acw_sum as acw, h.acw_n, h.missed
    from report_queue_hours h
    where h.site_id = ${scope.siteId} and h.hour >= ${scope.from} and h.hour < ${scope.to} and not ${inRanges(sql`h.hour`, ranges)}
      ${queue === undefined ? sql`` : sql`and h.queue_id = ${queue}`}
    union all
    select qstart, ${columns} from (${rawQueueCalls(scope.siteId, sql`${inScope} and ${inRanges(sql`r.started_at`, ranges)}`, withMissed)}) c`
}

/**
 * report_queue_hours' rows of [lo, hi): the queue calls whose first step in the queue started in it, their steps
 * read a day either side (a call's steps in one queue span less than that).
 */
function queueBucketsOf(siteId: number, lo: Date, hi: Date): SQL {
  const window = sql`r.started_at >= ${lo}::timestamptz - interval '1 day' and r.started_at < ${hi}::timestamptz + interval '1 day'`
  return sql`select ${siteId}::int, ${hourOf(sql`c.first_at`)}, ${hourOf(sql`c.qstart`)}, c.user_id, c.queue_id, sum(c.offered)::int, sum(c.answered)::int,
      sum(c.in_target)::int, coalesce(sum(c.waited_sum), 0), sum(c.waited_n)::int, sum(c.talk)::bigint, sum(c.acw)::bigint, sum(c.acw_n)::int, sum(c.missed)::int
    from (${rawQueueCalls(siteId, window)}) c where c.first_at >= ${lo} and c.first_at < ${hi}
    group by 2, 3, 4, 5`
}

/** Tests: runs inside a refresh's transaction between computing the buckets and cleaning the hours. */
export type AfterCompute = (tx: Db) => Promise<void>

/** Recomputes one run of hours [lo, hi) of a site; cleans those of `versions` (hour ms → version) still unchanged. */
async function refreshRun(db: Db, siteId: number, lo: Date, hi: Date, versions: Map<number, number>, afterCompute?: AfterCompute): Promise<number> {
  const pairs = sql.join(
    [...versions].map(([hour, version]) => sql`(${new Date(hour)}::timestamptz, ${version}::bigint)`),
    sql`, `,
  )
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db
    await t.execute(sql`delete from report_call_hours where site_id = ${siteId} and hour >= ${lo} and hour < ${hi}`)
    await t.execute(sql`insert into report_call_hours (site_id, hour, user_id, queue_id, calls, calls_answered, wait_sum, wait_n, talk_sum,
        agent_answered, agent_talk, placed, placed_answered, placed_talk) ${bucketsOf(siteId, lo, hi)}`)
    await t.execute(sql`delete from report_queue_hours where site_id = ${siteId} and hour >= ${lo} and hour < ${hi}`)
    await t.execute(sql`insert into report_queue_hours (site_id, hour, queue_hour, user_id, queue_id, offered, answered, in_target, waited_sum,
        waited_n, talk_sum, acw_sum, acw_n, missed) ${queueBucketsOf(siteId, lo, hi)}`)
    await afterCompute?.(t)
    const cleaned = await rows(
      t,
      sql`update report_hours c set dirty = false, refreshed_at = now() from (values ${pairs}) v(hour, version)
        where c.site_id = ${siteId} and c.hour = v.hour and c.version = v.version returning c.hour`,
    )
    return cleaned.length
  })
}

/**
 * Recomputes up to `limit` dirty hours (oldest first, of one site or all), a run of consecutive hours per transaction
 * (at most `runHours` long). Returns the hours cleaned (fewer than found when writes came in meanwhile).
 */
export async function refreshHours(db: Db, options: { siteId?: number; limit?: number; runHours?: number; afterCompute?: AfterCompute } = {}): Promise<number> {
  const limit = options.limit ?? 500
  const runHours = options.runHours ?? 24
  const dirty = await rows(
    db,
    sql`select site_id, hour, version from report_hours where dirty ${options.siteId === undefined ? sql`` : sql`and site_id = ${options.siteId}`}
      order by site_id, hour limit ${limit}`,
  )
  let cleaned = 0
  let run: { siteId: number; versions: Map<number, number>; lo: number; hi: number } | undefined
  const flush = async () => {
    if (run) cleaned += await refreshRun(db, run.siteId, new Date(run.lo), new Date(run.hi), run.versions, options.afterCompute)
    run = undefined
  }
  for (const row of dirty) {
    const siteId = Number(row.site_id)
    const hour = new Date(row.hour as string).getTime()
    if (!run || run.siteId !== siteId || hour !== run.hi || run.versions.size >= runHours) {
      await flush()
      run = { siteId, versions: new Map(), lo: hour, hi: hour }
    }
    run.versions.set(hour, Number(row.version))
    run.hi = hour + HOUR
  }
  await flush()
  return cleaned
}

/**
 * Rebuilds a site's hours of [from, to) on demand (calls written before the trigger existed, or a repair): marks
 * every hour of it that holds a step dirty, then refreshes them all.
 */
export async function rebuildHours(db: Db, siteId: number, from: Date, to: Date): Promise<number> {
  await db.execute(sql`insert into report_hours (site_id, hour, dirty, version)
    select distinct ${siteId}::int, ${hourOf(sql`started_at`)}, true, 1 from call_records
    where site_id = ${siteId} and started_at >= ${from} and started_at < ${to}
    on conflict (site_id, hour) do update set dirty = true, version = report_hours.version + 1`)
  let cleaned = 0
  for (;;) {
    const done = await refreshHours(db, { siteId, limit: 500 })
    cleaned += done
    if (done === 0) return cleaned
  }
}

/**
 * Refreshes dirty hours every `everyMs`, at most `limit` a tick (a tick still running skips the next), so hours
 * marked by the migration on an existing database are built a few days' worth at a time (the report routes start it;
 * stop on close).
 */
export function startHourRefresher(db: Db, log: { error(o: unknown, m?: string): void }, everyMs = 60_000, limit = 168): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined
  let stopped = false
  const timer = setInterval(() => {
    if (stopped || running) return
    running = refreshHours(db, { limit })
      .catch((error: unknown) => log.error({ err: error }, 'report hours refresh failed'))
      .finally(() => (running = undefined))
  }, everyMs)
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
