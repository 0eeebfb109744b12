import * as v from 'valibot'
import { message } from '../messages.ts'
import { Id } from './agent.ts'
import { DIALLABLE_APPS } from '../codes/transfer.ts'

// Call records (spec 000 §3 "Call (detail)", 001 §3 "Call detail", 001 §7 call steps and recordings) and the
// webphone's lookups of spec 000 §7 (outbound routes, permission apps). Paths relative to /api.
export const CALL_PATHS = {
  calls: '/v1/report/calls/',
  callSteps: '/v1/report/call-steps/:callId/',
  recording: '/v1/report/recordings/:callId/',
  permissionApps: '/v1/pabx/action/endpoint/permission-apps/:endpoint/:app/:kind/',
  outboundRoutes: '/v1/pabx/outbound-routes/',
} as const

/**
 * The recording player's media path (spec 001 §7), served beside /media rather than under /api:
 * `?file_response=false` plays (inline audio/mpeg), `?download=1&extension=mp3` downloads.
 */
export const RECORDING_PLAYER_PATH = '/recordings/player/:callId'

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

const Count = v.pipe(v.string(invalid), v.regex(/^\d{1,9}$/, invalid), v.transform(Number))
/** A date (yyyy-mm-dd, the whole day) or an ISO date-time. */
const DateParam = v.pipe(
  v.string(invalid),
  v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, invalid),
  v.check((s) => !Number.isNaN(new Date(s).getTime()), invalid),
)

/** GET /v1/report/calls/: DRF paging plus the filters of the calls screen. */
export const CallListQuery = v.object({
  offset: v.optional(Count),
  limit: v.optional(Count),
  /** started on or after / on or before (a bare date covers that whole day, UTC). */
  start_date: v.optional(DateParam),
  end_date: v.optional(DateParam),
  call_type: v.optional(v.pipe(v.string(invalid), v.regex(/^\d{2}(,\d{2})*$/, invalid))),
  dial_status: v.optional(v.pipe(v.string(invalid), v.regex(/^\d{3}(,\d{3})*$/, invalid))),
  /** Part of the phone, caller or callee. */
  search: v.optional(v.pipe(v.string(invalid), v.trim(), v.maxLength(80, invalid))),
  user: v.optional(Id),
  queue: v.optional(Id),
  /** Calls the agents classified so (issue 15: supervisors filter calls by classification). */
  classification: v.optional(Id),
  sub_classification: v.optional(Id),
})
export type CallListQuery = v.InferOutput<typeof CallListQuery>

export const CallIdParam = v.object({
  callId: v.pipe(v.string(invalid), v.minLength(1, invalid), v.maxLength(255, invalid)),
})

export const RecordingQuery = v.object({
  download: v.optional(v.picklist(['0', '1', 'true', 'false'], invalid)),
  extension: v.optional(v.picklist(['mp3', 'wav'], invalid)),
  file_response: v.optional(v.string()),
})

export const PERMISSION_APP_NAMES = DIALLABLE_APPS
export const PermissionAppsParams = v.object({
  endpoint: v.pipe(v.string(invalid), v.regex(/^[\w.+-]{1,80}$/, invalid)),
  app: v.picklist(PERMISSION_APP_NAMES, invalid),
  kind: v.picklist(['transfer', 'call'], invalid),
})

/** The webphone's route list: `?webphone=true`. */
export const WebphoneRoutesQuery = v.object({
  webphone: v.literal('true', invalid),
})

/** One call of the calls screen: its main step (the answered one, else the last) with the call's totals. */
export type CallRow = {
  id: number
  uid: string
  call_id: string
  datetime: string
  total_duration: number | null
  total_answer_duration: number | null
  endpoint: string
  user: number | null
  user_description: string
  queue: number | null
  queue_description: string
  /** The agent's classification and sub-classification of the call, by name; null before it is classified. */
  classification: string | null
  sub_classification: string | null
  comment: string
  phone: string
  phone_type: string
  dial_status: number | null
  dial_status_text: string
  queue_started_datetime: string | null
  queue_answered_datetime: string | null
  call_type: number
  direction: string
  queue_ended_by: string | null
  hung_up_by: string | null
  inbound_route_id: number | null
  did: string
  country: string
  area_code: string
  outbound_route_id: number | null
  trunk: number | null
  trunk_description: string
  recording: boolean
  /** The form the agent sent for the call: its id, its name and the answers (null when none was sent). */
  form: CallFormAnswers | null
  /** The callback activity the classification scheduled, if any. */
  activity: number | null
}

export type CallFormAnswers = { id: number; description: string; values: Record<string, unknown>; sent_at: string | null }

export type CallStepRow = {
  id: number
  uid: string
  parent_uid: string | null
  call_id: string
  step: number
  kind: string
  direction: string
  call_type: number
  caller: string
  callee: string
  phone: string
  user: number | null
  user_description: string
  endpoint: string
  queue: number | null
  queue_description: string
  trunk: number | null
  dial_status: number | null
  dial_status_text: string
  started_at: string
  ringing_at: string | null
  answered_at: string | null
  ended_at: string | null
  total_duration: number | null
  answered_duration: number | null
  queue_wait: number | null
  hung_up_by: string | null
  /** What the agent recorded on this step: the classification by name, the comment, the form answers, the activity. */
  classification: string | null
  sub_classification: string | null
  comment: string
  schedule_date: string | null
  form: CallFormAnswers | null
  activity: number | null
  after_service_duration: number | null
}

export type LookupRow = { id: number; description: string }
export type PermissionAppRow = LookupRow & { app: string; appdata: string }
