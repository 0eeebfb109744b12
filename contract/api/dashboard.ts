import * as v from 'valibot'

// The home dashboard's day (spec 000 §2 "/" and "/dashboard", dashboard page id 1; the path is ours): what the signed-in
// agent did today — or, for holders of sites.view_dashboard_supervisor who ask for it, the whole site — counted from
// the call records, chat rooms, pause reports and activities. "Today" is the calendar day in the browser's time zone,
// so a call at 23:30 in São Paulo is not tomorrow's (the day's bounds come from PostgreSQL's time-zone rules, DST too).
export const DASHBOARD_PATHS = { today: '/v1/dashboard/today/' } as const

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

export const DashboardScope = v.picklist(['me', 'site'])
export type DashboardScope = v.InferOutput<typeof DashboardScope>

export const DashboardTodayQuery = v.object({
  scope: v.optional(DashboardScope, 'me'),
  /** An IANA time zone (America/Sao_Paulo); UTC by default. */
  tz: v.optional(v.pipe(v.string(), v.maxLength(64), v.check(isTimeZone)), 'UTC'),
  /** The day to count (YYYY-MM-DD in `tz`); today by default. */
  date: v.optional(v.pipe(v.string(), v.isoDate())),
})
export type DashboardTodayQuery = v.InferOutput<typeof DashboardTodayQuery>

/** Calls that started in one hour of the day (hour 0 = from local midnight; a DST day has 23 or 25). */
export type DashboardHour = { start: string; answered: number; unanswered: number }

export type DashboardToday = {
  scope: DashboardScope
  date: string
  tz: string
  /** The day's bounds as instants. */
  from: string
  to: string
  calls: {
    /** Calls to the agent (offered to them) or, for the site, from outside. */
    inbound: number
    inbound_answered: number
    outbound: number
    outbound_answered: number
    /** Internal calls between colleagues (site scope; for an agent they count as inbound or outbound). */
    internal: number
    /** Seconds of conversation. */
    talk_seconds: number
    hours: DashboardHour[]
  }
  chats: { answered: number; finished: number; open: number }
  pauses: { count: number; seconds: number; by_reason: { description: string; count: number; seconds: number }[] }
  after_service: { count: number; seconds: number }
  activities: { due_today: number; overdue: number; next: { id: number; start: string; subject: string; destination: string }[] }
}
