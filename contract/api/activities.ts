import * as v from 'valibot'
import { ACTIVITY_MAX_ATTEMPTS } from '../constants.ts'
import { message } from '../messages.ts'
import { Id } from './agent.ts'

// Activities — scheduled callbacks of one agent (spec 000 §2 activity screen, §3 Activity, §4 "when available and
// scheduled activities are pending, the next is dialled automatically (an activity is done after 50 attempts)"),
// and a supervisor's remote commands to an agent's console (spec 000 §4 Logout, §7 websocket actions). The paths are
// ours: the spec names none. The socket's `activity` frame lists the same `Activity` shape.
export const ACTIVITY_PATHS = {
  /** GET: the caller's pending activities (due ones; `?upcoming=true` adds those not due yet). POST: schedule one. */
  list: '/v1/agent/activities/',
  /** POST: the caller marks their own activity done. */
  done: '/v1/agent/activities/:id/done/',
  /** POST: the caller's webphone dialled it once more; the 50th attempt makes it done. */
  attempt: '/v1/agent/activities/:id/attempt/',
} as const

/**
 * The SIP header that carries the activity id on the call the webphone dials for it (ours: the spec lists the calling
 * headers without names). Call control keeps it on every step of the call when the activity is the caller's own (tab-form `activity`).
 */
export const ACTIVITY_CALL_HEADER = 'X-Atende-Activity'

export const COMMAND_PATHS = {
  dnd: '/v1/agent/supervisor/dnd/',
  refresh: '/v1/agent/supervisor/refresh/',
  openUrl: '/v1/agent/supervisor/open-url/',
  logout: '/v1/agent/supervisor/logout/',
  /** Ends the agent's after-service now (spec 000 §7 afterServiceTimeout: "a supervisor or the server may end it"). */
  endAfterService: '/v1/agent/supervisor/end-after-service/',
} as const

export { ACTIVITY_MAX_ATTEMPTS }

/** One activity, as the REST answers and the socket's `activity` frame carry it. Dates are ISO 8601 UTC. */
export type Activity = {
  id: number
  user: number
  destination: string
  client: number | null
  mailing: number | null
  mailing_client: number | null
  campaign: number | null
  dialer: number | null
  /** Dial attempts so far (done at ACTIVITY_MAX_ATTEMPTS). */
  count: number
  done: boolean
  start: string
  end: string | null
  subject: string
  type: string
  target: string
  active: boolean
  automatic_execution: boolean
  created_by: number | null
  created: string
  updated: string
}

export type ActivityListResponse = { count: number; results: Activity[] }

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const required = (issue: v.BaseIssue<unknown>) => message('required', issue.lang)
const maxLength = (n: number) => (issue: v.BaseIssue<unknown>) => message('maxLength', issue.lang, { n })

/** An ISO 8601 date-time; one without a zone is read as UTC. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/i
export const DateTime = v.pipe(
  v.string(required),
  v.trim(),
  v.nonEmpty(required),
  v.regex(ISO_DATE_TIME, invalid),
  v.transform((text) => new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`)),
  v.check((date) => !Number.isNaN(date.getTime()), invalid),
)

const text = (max: number) => v.optional(v.pipe(v.string(invalid), v.trim(), v.maxLength(max, maxLength(max))), '')
const ref = v.optional(v.nullable(Id), null)

export const DESTINATION_MAX = 64
export const SUBJECT_MAX = 255
export const TYPE_MAX = 32
export const TARGET_MAX = 1000

/** POST /v1/agent/activities/ (sites.add_activity): an activity for an agent of the caller's site. */
export const ActivityCreateBody = v.pipe(
  v.object({
    user: Id,
    destination: v.pipe(
      v.string(required),
      v.trim(),
      v.nonEmpty(required),
      v.maxLength(DESTINATION_MAX, maxLength(DESTINATION_MAX)),
      v.regex(/^[0-9+*#]+$/, invalid),
    ),
    start: DateTime,
    end: v.optional(v.nullable(DateTime), null),
    subject: text(SUBJECT_MAX),
    type: v.optional(v.pipe(v.string(invalid), v.trim(), v.nonEmpty(required), v.maxLength(TYPE_MAX, maxLength(TYPE_MAX))), 'call'),
    target: text(TARGET_MAX),
    active: v.optional(v.boolean(invalid), true),
    automatic_execution: v.optional(v.boolean(invalid), true),
    client: ref,
    mailing: ref,
    mailing_client: ref,
    campaign: ref,
    dialer: ref,
  }),
  v.forward(
    v.check(
      (body) => body.end === null || body.end.getTime() >= body.start.getTime(),
      (issue) => message('endBeforeStart', issue.lang),
    ),
    ['end'],
  ),
)
export type ActivityCreateBody = v.InferOutput<typeof ActivityCreateBody>

export const ActivityListQuery = v.object({ upcoming: v.optional(v.picklist(['true', 'false'], invalid), 'false') })

// ---------------------------------------------------------------------------------------------------------------
// A supervisor's remote commands (sites.command_agent). Each answers {success, detail} once the frame is on the bus.

export const DndCommandBody = v.object({ user_id: Id, dnd: v.boolean(invalid) })
export const UserCommandBody = v.object({ user_id: Id })
export const URL_MAX = 2000
export const OpenUrlCommandBody = v.object({
  user_id: Id,
  url: v.pipe(
    v.string(required),
    v.trim(),
    v.nonEmpty(required),
    v.maxLength(URL_MAX, maxLength(URL_MAX)),
    v.check(isHttpUrl, (issue) => message('httpUrlOnly', issue.lang)),
  ),
})

/** Only http(s) pages may be opened on an agent's console (never javascript:, data: or file:). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

export type CommandResponse = { success: true; detail: string }
