import * as v from 'valibot'
import { message } from '../messages.ts'
import { ENDPOINT_STATUSES } from '../codes/states.ts'
import type { EndpointStatus } from '../codes/states.ts'
import type { PendingCall } from './service-actions.ts'

// Spec 000 §7 "Agent channel and pause" (paths relative to /api), the pause of §3, and the supervisor's side of §6
// ("a supervisor can pause an agent"). The supervisor paths and the status list are ours: the spec names no path.
export const AGENT_PATHS = {
  channelLogin: '/v1/agent/channel/login/',
  channelLogout: '/v1/agent/channel/logout/',
  pauseStart: '/v1/agent/pause/start/',
  pauseStop: '/v1/agent/pause/stop/',
  pauseCheck: '/v1/agent/pause/check/',
  pendencies: '/v1/agent/pendencies/',
  supervisorPause: '/v1/agent/supervisor/pause/',
  supervisorUnpause: '/v1/agent/supervisor/unpause/',
  status: '/v1/agent/status/',
} as const

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const required = (issue: v.BaseIssue<unknown>) => message('required', issue.lang)

/** A positive database id, as a JSON number or a numeric string (query strings, form posts). */
export const Id = v.pipe(
  v.union([v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.regex(/^\d{1,10}$/, invalid), v.transform(Number)), v.number(invalid)], invalid),
  v.integer(invalid),
  v.minValue(1, invalid),
  v.maxValue(2_147_483_647, invalid),
)

// ---------------------------------------------------------------------------------------------------------------
// Channels

export const AGENT_CHANNELS = ['telephony', 'chat'] as const
export type AgentChannel = (typeof AGENT_CHANNELS)[number]
export const LOGGED_IN_BY = ['user', 'system'] as const

export const ChannelLoginQuery = v.object({
  channel: v.picklist(AGENT_CHANNELS, invalid),
  logged_in_by: v.optional(v.picklist(LOGGED_IN_BY, invalid), 'user'),
})
export type ChannelLoginQuery = v.InferOutput<typeof ChannelLoginQuery>

export const ChannelLogoutQuery = v.object({ channel: v.picklist(AGENT_CHANNELS, invalid) })
export type ChannelLogoutQuery = v.InferOutput<typeof ChannelLogoutQuery>

/** Both channel calls answer the user's channel flags after the change (userextra login_channel_*). */
export type ChannelResponse = {
  success: true
  channel: AgentChannel
  logged_in: boolean
  logged_in_by: (typeof LOGGED_IN_BY)[number] | null
  login_channel_telephony: boolean
  login_channel_chat: boolean
}

// ---------------------------------------------------------------------------------------------------------------
// Pause (break)

/**
 * Spec 000 §3 "Pause (break)": one running (or pending) pause of an agent. `id` is the pause REPORT id (what
 * report_pause_id and the socket's start_pause carry); `pause_id` is the pause type. `started_timestamp` is in Unix
 * seconds; `seconds` is how long it has run when the answer was made. The call flags are ours (the webphone needs
 * them: spec 000 §4 "the current pause disallows incoming calls", "a pause that allows outgoing calls").
 */
export type Pause = {
  id: number
  pause_id: number | null
  description: string
  started_time: string | null
  started_timestamp: number | null
  maximum_duration: number
  seconds: number
  exceeded: boolean
  user: number
  started_by: number | null
  pending: boolean
  enable_webphone: boolean
  enable_webchat: boolean
  allow_incoming_call: boolean
  allow_outgoing_call: boolean
  allow_incoming_chat: boolean
  allow_outgoing_chat: boolean
  lock_screen: boolean
}

/** A pause type the agent may start: the profile's `pauses` (spec 000 §3), which the pause widget's select lists. */
export type PauseOption = {
  id: number
  description: string
  maximum_duration: number
  color: string
  productive: boolean
  enable_webphone: boolean
  allow_incoming_call: boolean
  allow_outgoing_call: boolean
  enable_webchat: boolean
  allow_incoming_chat: boolean
  allow_outgoing_chat: boolean
  lock_screen: boolean
}

/**
 * `code` of the start/stop answers. 5 is the spec's (an exceeded pause needs a justification); the others are ours.
 * Failures answer 200 with success false (the pause machine reads them as answers, not errors); unknown ids 404.
 */
export const PAUSE_CODES = {
  ok: 0,
  notAllowed: 2,
  alreadyPaused: 3,
  notPaused: 4,
  exceeded: 5,
  reportMismatch: 6,
} as const
export type PauseCode = (typeof PAUSE_CODES)[keyof typeof PAUSE_CODES]

/** Longest justification kept for an exceeded pause. */
export const PAUSE_REASON_MAX = 1000

const reason = v.optional(
  v.pipe(
    v.string(invalid),
    v.trim(),
    v.maxLength(PAUSE_REASON_MAX, (i) => message('maxLength', i.lang, { n: PAUSE_REASON_MAX })),
  ),
)

export const PauseStartQuery = v.object({ report_pause_id: v.optional(Id) })
export type PauseStartQuery = v.InferOutput<typeof PauseStartQuery>

/** `pause_id` chooses the pause type; `reason` justifies stopping an exceeded pause being swapped away. */
export const PauseStartBody = v.object({ pause_id: Id, reason })
export type PauseStartBody = v.InferOutput<typeof PauseStartBody>

/** The stop form: a reason only when justifying an exceeded pause (blank means none). */
export const PauseStopBody = v.optional(v.object({ reason }), {})
export type PauseStopBody = v.InferOutput<typeof PauseStopBody>

export type PauseResponse = { success: boolean; pause: Pause | null; detail: string; code: PauseCode }

/** GET /v1/agent/pause/check/: the running or pending pause, or null. */
export type PauseCheckResponse = Pause | null

/** GET /v1/agent/pendencies/: the agent's answered calls not classified yet or still in after-service. */
export type PendenciesResponse = { calls: PendingCall[] }

export const SupervisorPauseBody = v.object({ user_id: Id, pause_id: Id })
export type SupervisorPauseBody = v.InferOutput<typeof SupervisorPauseBody>

export const SupervisorUnpauseBody = v.object({ user_id: Id })
export type SupervisorUnpauseBody = v.InferOutput<typeof SupervisorUnpauseBody>

// ---------------------------------------------------------------------------------------------------------------
// Agent status (spec 000 §4 aggregate status, spec 001 §4 webchat status), as the server keeps it.

/** Any endpoint status of contract/codes/states.ts for telephony; the webchat ones for chat. */
export const TELEPHONY_STATUSES = ENDPOINT_STATUSES
export const CHAT_STATUSES = ['not_inuse', 'unavailable', 'busy', 'paused'] as const satisfies readonly EndpointStatus[]

/** One agent on GET /v1/agent/status/ (supervisors; `sites.view_dashboard_supervisor`). */
export type AgentStatusRow = {
  user: number
  username: string
  name: string
  team: number | null
  telephony_status: EndpointStatus | null
  telephony_changed_at: string | null
  chat_status: EndpointStatus | null
  chat_changed_at: string | null
  login_channel_telephony: boolean
  login_channel_chat: boolean
  /** The running or pending pause, if any. */
  pause: Pause | null
}

export type AgentStatusListResponse = { count: number; results: AgentStatusRow[] }
