import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { DashboardHour, DashboardToday, DashboardTodayQuery } from '../../contract/api/dashboard.ts'
import type { Db } from '../db/client.ts'
import { callKey, heldInApp } from '../telephony/control/call-key.ts'

// The home dashboard's day (contract/api/dashboard.ts). Every figure is one indexed range query over the day's bounds
// (site, started_at) — never a scan of the history — so the page opens as fast on the millionth call as on the first.

type Raw = Record<string, unknown>
const rows = async (db: Db, query: SQL): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows
const n = (value: unknown) => Number(value ?? 0)
const iso = (value: unknown) => new Date(value as string).toISOString()

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(tz: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

export type DayViewer = { siteId: number; userId: number }

export async function dashboardToday(db: Db, viewer: DayViewer, query: DashboardTodayQuery, now = new Date()): Promise<DashboardToday> {
  const { siteId, userId } = viewer
  const date = query.date ?? todayIn(query.tz, now)
  // The day's bounds by PostgreSQL's own time-zone rules (a DST day is 23 or 25 hours long).
  const [bounds] = await rows(
    db,
    sql`select (${date}::date::timestamp at time zone ${query.tz}) as "from", ((${date}::date + 1)::timestamp at time zone ${query.tz}) as "to"`,
  )
  const from = new Date(bounds!.from as string)
  const to = new Date(bounds!.to as string)
  const mine = query.scope === 'me'
  const me = JSON.stringify([userId])

  // One row per call that started today (the agent's: placed, offered or answered by them), by hour since midnight.
  // A media app's bridge leg counts under the caller's call, and its talk once (call-key.ts).
  const talkRows = sql`answered_at is not null and not ${heldInApp('r')}`
  const callRows = await rows(
    db,
    sql`with c as (
      select k as call_id,
        min(started_at) as started,
        ${
          mine
            ? sql`case when bool_or(caller_user_id is not distinct from ${userId}) then 'outbound' else 'inbound' end`
            : sql`(array_agg(r.direction order by r.started_at, (r.k <> r.call_id), r.step))[1]`
        } as dir,
        ${
          mine
            ? sql`coalesce(bool_or(answered_at is not null and (user_id is not distinct from ${userId} or caller_user_id is not distinct from ${userId})), false)`
            : sql`coalesce(bool_or(answered_at is not null), false)`
        } as answered,
        coalesce(sum(answered_duration) filter (where ${talkRows} ${mine ? sql`and (user_id is not distinct from ${userId} or caller_user_id is not distinct from ${userId})` : sql``}), 0) as talk
      from (select r.*, ${callKey('r')} as k from call_records r
        where r.site_id = ${siteId} and r.started_at >= ${from} and r.started_at < ${to}
          ${mine ? sql`and (r.user_id = ${userId} or r.caller_user_id = ${userId} or r.offered_user_ids @> ${me}::jsonb)` : sql``}) r
      group by k
    )
    select floor(extract(epoch from (started - ${from}::timestamptz)) / 3600)::int as hour, dir,
      count(*) filter (where answered) as answered, count(*) filter (where not answered) as unanswered, sum(talk) as talk
    from c group by 1, 2`,
  )
  const hourCount = Math.round((to.getTime() - from.getTime()) / 3_600_000)
  const hours: DashboardHour[] = Array.from({ length: hourCount }, (_, h) => ({
    start: new Date(from.getTime() + h * 3_600_000).toISOString(),
    answered: 0,
    unanswered: 0,
  }))
  const calls = { inbound: 0, inbound_answered: 0, outbound: 0, outbound_answered: 0, internal: 0, talk_seconds: 0, hours }
  for (const row of callRows) {
    const answered = n(row.answered)
    const total = answered + n(row.unanswered)
    const hour = hours[Math.min(Math.max(n(row.hour), 0), hourCount - 1)]!
    hour.answered += answered
    hour.unanswered += n(row.unanswered)
    calls.talk_seconds += n(row.talk)
    if (row.dir === 'outbound') {
      calls.outbound += total
      calls.outbound_answered += answered
    } else if (row.dir === 'internal') {
      calls.internal += total
    } else {
      calls.inbound += total
      calls.inbound_answered += answered
    }
  }

  const userRooms = mine ? sql`and user_id = ${userId}` : sql``
  const [chatRow] = await rows(
    db,
    sql`select
      count(*) filter (where answered_at >= ${from} and answered_at < ${to}) as answered,
      count(*) filter (where ended_at >= ${from} and ended_at < ${to}) as finished,
      count(*) filter (where answered_at is not null and ended_at is null) as open
    from chat_rooms where site_id = ${siteId} ${userRooms}
      and (ended_at is null or ended_at >= ${from}) and started_at < ${to}`,
  )

  // Pauses overlapping the day, clipped to it; an after-service's pause report is counted as after-service instead.
  const pauseRows = await rows(
    db,
    sql`select description, count(*) as count,
      sum(extract(epoch from least(coalesce(p.ended_at, ${now}::timestamptz), ${to}::timestamptz) - greatest(p.started_at, ${from}::timestamptz))) as seconds
    from pause_reports p
    where p.site_id = ${siteId} ${mine ? sql`and p.user_id = ${userId}` : sql``}
      and p.started_at is not null and p.started_at < ${to} and coalesce(p.ended_at, ${now}::timestamptz) > ${from}
      and not exists (select 1 from call_records r where r.after_service_pause_report_id = p.id)
    group by description order by seconds desc`,
  )
  const byReason = pauseRows.map((row) => ({
    description: String(row.description ?? ''),
    count: n(row.count),
    seconds: Math.max(0, Math.round(n(row.seconds))),
  }))

  const [afterRow] = await rows(
    db,
    sql`select count(*) as count,
      coalesce(sum(coalesce(after_service_duration, extract(epoch from ${now}::timestamptz - after_service_started_at))), 0) as seconds
    from call_records
    where site_id = ${siteId} and after_service_started_at >= ${from} and after_service_started_at < ${to}
      ${mine ? sql`and user_id = ${userId}` : sql``}`,
  )

  const userActivities = mine ? sql`and user_id = ${userId}` : sql``
  const [activityRow] = await rows(
    db,
    sql`select count(*) filter (where start >= ${from} and start < ${to}) as due_today, count(*) filter (where start < ${from}) as overdue
    from activities where site_id = ${siteId} and done = false and active = true and start < ${to} ${userActivities}`,
  )
  const next = await rows(
    db,
    sql`select id, start, subject, destination from activities
    where site_id = ${siteId} and done = false and active = true and start < ${to} ${userActivities}
    order by start limit 5`,
  )

  return {
    scope: query.scope,
    date,
    tz: query.tz,
    from: from.toISOString(),
    to: to.toISOString(),
    calls,
    chats: { answered: n(chatRow?.answered), finished: n(chatRow?.finished), open: n(chatRow?.open) },
    pauses: {
      count: byReason.reduce((sum, r) => sum + r.count, 0),
      seconds: byReason.reduce((sum, r) => sum + r.seconds, 0),
      by_reason: byReason,
    },
    after_service: { count: n(afterRow?.count), seconds: Math.max(0, Math.round(n(afterRow?.seconds))) },
    activities: {
      due_today: n(activityRow?.due_today),
      overdue: n(activityRow?.overdue),
      next: next.map((row) => ({ id: n(row.id), start: iso(row.start), subject: String(row.subject ?? ''), destination: String(row.destination ?? '') })),
    },
  }
}
