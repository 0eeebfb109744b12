import * as v from 'valibot'
import { message } from '../messages.ts'
import { AGENT_CHANNELS, CHAT_STATUSES, Id, TELEPHONY_STATUSES } from '../api/agent.ts'
import type { AgentChannel, Pause } from '../api/agent.ts'
import { isHttpUrl } from '../api/activities.ts'
import type { Activity } from '../api/activities.ts'
import type { FieldErrors } from '../api/errors.ts'
import { ENDPOINT_STATUSES } from '../codes/states.ts'
import type { EndpointStatus } from '../codes/states.ts'
import type { ChatRoom } from '../api/chat.ts'
import { ChatRoomShape } from './chat-socket.ts'
import { WALLBOARD_CLIENT_MESSAGES, WallboardDeltaShape, WallboardSnapshotShape } from './wallboard.ts'
import type { WallboardDelta, WallboardSnapshot } from './wallboard.ts'
import { CampaignProgressShape } from '../api/dialer.ts'
import type { CampaignProgress } from '../api/dialer.ts'
import { QueueCallersShape } from './queue-callers.ts'
import type { QueueCallers } from './queue-callers.ts'

// The service socket (the status feed) on /ws/business/ — spec 000 §4 "Logout", "Shared service ownership", §7
// "Websocket (status feed)"; spec 001 §4 "Service ownership", §7 "Shared service socket". Every frame is one JSON
// object `{ action, ...fields }`. The spec names the actions but not their fields, so the fields here are ours; the
// machines in machines/ speak exactly these shapes.

export const SERVICE_SOCKET_PATH = '/ws/business/'

/** Any frame on the socket, before its action is known (the shape machines/types.ts SocketMessage mirrors). */
export type SocketMessage = { action: string; [field: string]: unknown }

/**
 * The subprotocol that carries an API token where a browser cannot set `Authorization` (spec 001 §7 "subprotocols
 * include a token"): `new WebSocket(url, ['token', key])` sends `Sec-WebSocket-Protocol: token, <key>`; the server
 * answers with `token` (never echoes the key).
 */
export const TOKEN_SUBPROTOCOL = 'token'

/** Close codes of the service socket (4000–4999 are the application's). */
export const SOCKET_CLOSE_CODES = {
  /** The session or token ended (logout, password change, user disabled, expiry). */
  sessionEnded: 4401,
  /** Too many frames in a short time, or a frame too large. */
  policy: 1008,
  /** No frame for too long (the client pings every 5 s). */
  idle: 4408,
  /** The server is shutting down; reconnect. */
  goingAway: 1001,
} as const

/** Largest frame a client may send (bytes). */
export const MAX_CLIENT_FRAME_BYTES = 64 * 1024

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const PAGE_MAX = 2000

// ---------------------------------------------------------------------------------------------------------------
// Sent by the browser

/** Payload schemas of the client actions the server acts on; each frame is `{ action, ...fields }`. */
export const CLIENT_MESSAGES = {
  /** First frame after open: starts the service-ownership decision (answered startService or serviceElsewhere). */
  login: v.object({ action: v.literal('login') }),
  /** Every 5 s; answered `pong`. */
  ping: v.object({ action: v.literal('ping') }),
  /** The answer to the server's `serverPing`. */
  server_pong: v.object({ action: v.literal('server_pong') }),
  /** Answered `pause` with the running pause (or null). */
  get_pauses: v.object({ action: v.literal('get_pauses') }),
  /** Answered `activity` with the pending activities. */
  get_activities: v.object({ action: v.literal('get_activities') }),
  /** 'Atender aqui': this connection becomes the serving one. */
  service_here: v.object({ action: v.literal('service_here') }),
  /** The SPA navigated (spec 000 §4 "page changes are reported"); spec 000 §7 spells it changePage. */
  change_page: v.object({ action: v.literal('change_page'), page: v.pipe(v.string(invalid), v.maxLength(PAGE_MAX, invalid)) }),
  changePage: v.object({ action: v.literal('changePage'), page: v.pipe(v.string(invalid), v.maxLength(PAGE_MAX, invalid)) }),
  /** The agent's aggregate status of one channel (agentStatus and webchatStatus machines). */
  change_state: v.variant(
    'channel',
    [
      v.object({ action: v.literal('change_state'), channel: v.literal('telephony'), status: v.picklist(TELEPHONY_STATUSES, invalid) }),
      v.object({ action: v.literal('change_state'), channel: v.literal('chat'), status: v.picklist(CHAT_STATUSES, invalid) }),
    ],
    invalid,
  ),
  /** After POST pause/start/: the pause report id now running (answered `pause` only if the server's differs). */
  start_pause: v.object({ action: v.literal('start_pause'), id: Id }),
  /** An activity was worked to its end. */
  done_activity: v.object({ action: v.literal('done_activity'), id: Id }),
  /** The app is signing out: this connection gives up the service. */
  logout: v.object({ action: v.literal('logout') }),
  /**
   * The webphone accepted a call, 2 s after the answer (spec 000 §4): `uid` the call step's (X-Atende-Uid or the SIP
   * Call-ID), `call_id` the webphone's own id of the call. The step records the agent's answer time.
   */
  webphone_answer: v.object({
    action: v.literal('webphone_answer'),
    uid: v.pipe(v.string(invalid), v.nonEmpty(invalid), v.maxLength(255, invalid)),
    call_id: v.optional(v.nullable(v.pipe(v.string(invalid), v.maxLength(255, invalid)))),
  }),
  /** The after-service ended in the browser; `session_id` is its pause report (after-service/start's `id`). */
  after_service_finished: v.object({ action: v.literal('after_service_finished'), session_id: Id }),
  // The chat's counters on the service socket (spec 001 §7 "Also sent"): the serving tab checks its rooms against the
  // server's. Each names a room of the agent's (or any room of the site, for a supervisor); another is an `error`.
  /** The console holds `count` messages of the room: answered `numberOfMessages` (reload them when not `equal`). */
  compare_number_of_messages: v.object({
    action: v.literal('compare_number_of_messages'),
    step_id: Id,
    count: v.pipe(v.number(invalid), v.integer(invalid), v.minValue(0, invalid), v.maxValue(Number.MAX_SAFE_INTEGER, invalid)),
  }),
  /** Answered `unreadMessages`: the customer's unread messages of the room. */
  count_unread_messages: v.object({ action: v.literal('count_unread_messages'), step_id: Id }),
  /** Answered `unreadAllMessages`: over all the agent's rooms. */
  count_unread_all_messages: v.object({ action: v.literal('count_unread_all_messages') }),
  /** Sent 500 ms after a message change (spec 001 §4): answered `syncStep` with the room as the server has it. */
  sync_step: v.object({ action: v.literal('sync_step'), step_id: Id }),
  /**
   * The webphone's after-service started: `timeout` its seconds (0 when untimed), `step_uid` the call step,
   * `session_id` its pause report (after-service/start's `id`). The server notes the webphone's start on the step.
   */
  after_service_timer: v.object({
    action: v.literal('after_service_timer'),
    timeout: v.pipe(v.number(invalid), v.integer(invalid), v.minValue(0, invalid), v.maxValue(86_400, invalid)),
    step_uid: v.pipe(v.string(invalid), v.nonEmpty(invalid), v.maxLength(255, invalid)),
    session_id: v.nullable(Id),
  }),
  /** The supervisor wallboard (contract/realtime/wallboard.ts): sites.view_dashboard_supervisor only. */
  ...WALLBOARD_CLIENT_MESSAGES,
  /**
   * The coworkers page (spec 000 §2 /coworkers; ours): while subscribed, the socket hears every `agentStatus` of the
   * site (supervisors hear them anyway), so the directory's presence is live. Any signed-in user: GET
   * /v1/crm/coworkers/ shows them the same statuses.
   */
  coworkers_subscribe: v.object({ action: v.literal('coworkers_subscribe') }),
  coworkers_unsubscribe: v.object({ action: v.literal('coworkers_unsubscribe') }),
} as const

export type ClientAction = keyof typeof CLIENT_MESSAGES
export type ClientMessage = { [A in ClientAction]: v.InferOutput<(typeof CLIENT_MESSAGES)[A]> }[ClientAction]

/**
 * Client actions of the spec that belong to later issues (calls, after-service, chat counters, debugging). The server
 * ignores them today like any unknown action; listed so nobody mistakes them for typos.
 */
export const LATER_CLIENT_ACTIONS = ['answer_call', 'debug', 'debug_frontend'] as const

export function isClientAction(action: unknown): action is ClientAction {
  return typeof action === 'string' && Object.hasOwn(CLIENT_MESSAGES, action)
}

// ---------------------------------------------------------------------------------------------------------------
// Sent by the server

/** A pending activity (scheduled call) as `activity` lists it (contract/api/activities.ts). */
export type SocketActivity = Activity

/** One agent's status as supervisors receive it (ours: the spec names no action for the supervisor feed). */
export type AgentStatusChange = {
  user: number
  channel: AgentChannel
  status: EndpointStatus
  previous: EndpointStatus | null
  changed_at: string
}

export type ServerMessage =
  | { action: 'pong' }
  | { action: 'serverPing' }
  /** Answer to get_pauses, and a sync after a pause changed elsewhere (another tab, a REST call). */
  | { action: 'pause'; pause: Pause | null }
  /** A pause started by someone else (a supervisor): `pause.started_by` says who. */
  | { action: 'startPause'; pause: Pause }
  /** The running pause was stopped by someone else; `stopped_by` says who. */
  | { action: 'stopPause'; pause: Pause | null; stopped_by: number | null }
  | { action: 'activity'; activities: SocketActivity[] }
  /** This connection is the one serving calls and chats. */
  | { action: 'startService' }
  /** Another connection (tab or browser) of the user serves; ours, the spec names none (machines/README.md). */
  | { action: 'serviceElsewhere' }
  | { action: 'dnd'; dnd: boolean }
  /** The profile changed: refetch it. */
  | { action: 'updateUser' }
  /** Remote logout: the console shows a notice and signs out after 15 s (spec 000 §4). */
  | { action: 'logout'; reason?: string }
  | { action: 'refresh' }
  | { action: 'openUrl'; url: string }
  /** An agent's status changed (to supervisors of the agent's site, and to sockets on the coworkers page). */
  | ({ action: 'agentStatus' } & AgentStatusChange)
  /** Sign in to the webphone, as 'Logar no webphone' does (spec 000 §7; LATER_SERVER_ACTIONS). */
  | { action: 'startWebphone' }
  /** Dial `number` at once (origin click-to-call); `force` dials even during do-not-disturb or a pause. */
  | { action: 'clickToCall'; number: string; force?: boolean }
  /** The endpoint's device state as the exchange sees it (after_service, blocked, in_activity ... refuse new calls). */
  | { action: 'changeDeviceState'; state: EndpointStatus | null }
  /** Answer to compare_number_of_messages: the server's count of the room's messages. */
  | { action: 'numberOfMessages'; step_id: number; count: number; equal: boolean }
  /** Answer to count_unread_messages. */
  | { action: 'unreadMessages'; step_id: number; count: number }
  /** Answer to count_unread_all_messages. */
  | { action: 'unreadAllMessages'; count: number }
  /** Answer to sync_step: the room as the server has it (contract/api/chat.ts). */
  | { action: 'syncStep'; step_id: number; room: ChatRoom }
  /**
   * The server ended the agent's after-service (its time and grace are over, or a supervisor ended it): `uid` the
   * call step (null: whichever runs), `session_id` its pause report (null when the webphone had not started one).
   */
  | { action: 'afterServiceTimeout'; uid: string | null; session_id: number | null }
  /**
   * The agent's live call is another call step now (spec 000 §7 names the action): the customer of an attended or
   * pendulum transfer replaced the colleague on the consulted agent's call. `uid` the step the webphone knew,
   * `step_uid` the one to send the form, classification and after-service to from now on, `call_id` its SIP Call-ID.
   */
  | { action: 'changeCallStep'; uid: string; step_uid: string; call_id: string }
  /** The supervisor wallboard: every agent and queue of the site, then what changed (contract/realtime/wallboard.ts). */
  | WallboardSnapshot
  | WallboardDelta
  /** A dialer campaign's progress, to the site's supervisors while it runs (contract/api/dialer.ts). */
  | ({ action: 'dialerProgress' } & CampaignProgress)
  /** A new message in a voicemail box of the user's extension (the top bar's notifications list the unheard ones). */
  | { action: 'voicemail'; voicemail: number; message: number }
  /** Every caller waiting in a telephony queue of the site, after each change (contract/realtime/queue-callers.ts). */
  | QueueCallers
  /** A frame the server could not act on; `request` is the action it answered (when it had one). */
  | { action: 'error'; detail: string; request: string | null; errors?: FieldErrors }

export type ServerAction = ServerMessage['action']

/** Every server action, for clients that check what they receive. */
export const SERVER_ACTIONS = [
  'pong',
  'serverPing',
  'pause',
  'startPause',
  'stopPause',
  'activity',
  'startService',
  'serviceElsewhere',
  'dnd',
  'updateUser',
  'logout',
  'refresh',
  'openUrl',
  'agentStatus',
  'error',
  'startWebphone',
  'clickToCall',
  'changeDeviceState',
  'numberOfMessages',
  'unreadMessages',
  'unreadAllMessages',
  'syncStep',
  'afterServiceTimeout',
  'changeCallStep',
  'wallboardSnapshot',
  'wallboardDelta',
  'dialerProgress',
  'voicemail',
  'queueCallers',
] as const satisfies readonly ServerAction[]

/**
 * Server actions of the spec (000 §7) that the console already acts on but no server code sends yet: the telephony
 * and dialer issues will (a supervisor's or the dialer's command). A test holds the server to every other action.
 */
export const LATER_SERVER_ACTIONS = ['startWebphone', 'clickToCall', 'changeDeviceState'] as const satisfies readonly ServerAction[]

/**
 * Server actions only the media app's calls cause (the telephony engines must run): their test with the engines holds
 * the server to them (tests/server/media-voicemail.test.ts), the engine-free tour of the socket does not.
 */
export const MEDIA_APP_SERVER_ACTIONS = ['voicemail'] as const satisfies readonly ServerAction[]

const PauseShape = v.looseObject({ id: v.number(), user: v.number(), started_by: v.nullable(v.number()), pending: v.boolean() })
const Status = v.picklist(TELEPHONY_STATUSES)
const nullableId = v.nullable(v.number())
const ActivityShape = v.strictObject({
  id: v.number(),
  user: v.number(),
  destination: v.string(),
  client: nullableId,
  mailing: nullableId,
  mailing_client: nullableId,
  campaign: nullableId,
  dialer: nullableId,
  count: v.number(),
  done: v.boolean(),
  start: v.string(),
  end: v.nullable(v.string()),
  subject: v.string(),
  type: v.string(),
  target: v.string(),
  active: v.boolean(),
  automatic_execution: v.boolean(),
  created_by: nullableId,
  created: v.string(),
  updated: v.string(),
})

/** Schemas of the server's frames: the SPA can parse what it receives; the server's tests check what it sends. */
export const SERVER_MESSAGES = {
  pong: v.strictObject({ action: v.literal('pong') }),
  serverPing: v.strictObject({ action: v.literal('serverPing') }),
  pause: v.strictObject({ action: v.literal('pause'), pause: v.nullable(PauseShape) }),
  startPause: v.strictObject({ action: v.literal('startPause'), pause: PauseShape }),
  stopPause: v.strictObject({ action: v.literal('stopPause'), pause: v.nullable(PauseShape), stopped_by: v.nullable(v.number()) }),
  activity: v.strictObject({ action: v.literal('activity'), activities: v.array(ActivityShape) }),
  startService: v.strictObject({ action: v.literal('startService') }),
  serviceElsewhere: v.strictObject({ action: v.literal('serviceElsewhere') }),
  dnd: v.strictObject({ action: v.literal('dnd'), dnd: v.boolean() }),
  updateUser: v.strictObject({ action: v.literal('updateUser') }),
  logout: v.strictObject({ action: v.literal('logout'), reason: v.optional(v.string()) }),
  refresh: v.strictObject({ action: v.literal('refresh') }),
  openUrl: v.strictObject({ action: v.literal('openUrl'), url: v.pipe(v.string(), v.url(), v.check(isHttpUrl)) }),
  agentStatus: v.strictObject({
    action: v.literal('agentStatus'),
    user: v.number(),
    channel: v.picklist(AGENT_CHANNELS),
    status: Status,
    previous: v.nullable(Status),
    changed_at: v.string(),
  }),
  error: v.strictObject({
    action: v.literal('error'),
    detail: v.string(),
    request: v.nullable(v.string()),
    errors: v.optional(v.record(v.string(), v.array(v.string()))),
  }),
  startWebphone: v.strictObject({ action: v.literal('startWebphone') }),
  clickToCall: v.strictObject({
    action: v.literal('clickToCall'),
    number: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(64)),
    force: v.optional(v.boolean()),
  }),
  changeDeviceState: v.strictObject({ action: v.literal('changeDeviceState'), state: v.nullable(v.picklist(ENDPOINT_STATUSES)) }),
  numberOfMessages: v.strictObject({ action: v.literal('numberOfMessages'), step_id: v.number(), count: v.number(), equal: v.boolean() }),
  unreadMessages: v.strictObject({ action: v.literal('unreadMessages'), step_id: v.number(), count: v.number() }),
  unreadAllMessages: v.strictObject({ action: v.literal('unreadAllMessages'), count: v.number() }),
  syncStep: v.strictObject({ action: v.literal('syncStep'), step_id: v.number(), room: ChatRoomShape }),
  afterServiceTimeout: v.strictObject({
    action: v.literal('afterServiceTimeout'),
    uid: v.nullable(v.pipe(v.string(), v.maxLength(255))),
    session_id: v.nullable(v.number()),
  }),
  changeCallStep: v.strictObject({
    action: v.literal('changeCallStep'),
    uid: v.pipe(v.string(), v.nonEmpty(), v.maxLength(255)),
    step_uid: v.pipe(v.string(), v.nonEmpty(), v.maxLength(255)),
    call_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(255)),
  }),
  wallboardSnapshot: WallboardSnapshotShape,
  wallboardDelta: WallboardDeltaShape,
  dialerProgress: v.strictObject({ action: v.literal('dialerProgress'), ...CampaignProgressShape.entries }),
  voicemail: v.strictObject({ action: v.literal('voicemail'), voicemail: v.number(), message: v.number() }),
  queueCallers: QueueCallersShape,
} as const satisfies Record<ServerAction, v.GenericSchema>

/** One server frame after its schema: what a handler of `action` receives. */
export type ParsedServerMessage<A extends ServerAction = ServerAction> = v.InferOutput<(typeof SERVER_MESSAGES)[A]>

/** A received frame read against the contract: the message, an action nobody knows, or a known action that is malformed. */
export type ServerFrame =
  { kind: 'message'; message: ParsedServerMessage } | { kind: 'unknown'; action: string | null } | { kind: 'invalid'; action: ServerAction; issues: string[] }

/** Reads one received frame (already JSON-parsed) against its action's schema. */
export function readServerFrame(value: unknown): ServerFrame {
  const action = value && typeof value === 'object' ? (value as { action?: unknown }).action : undefined
  if (typeof action !== 'string' || !Object.hasOwn(SERVER_MESSAGES, action)) return { kind: 'unknown', action: typeof action === 'string' ? action : null }
  const known = action as ServerAction
  const result = v.safeParse(SERVER_MESSAGES[known], value)
  if (result.success) return { kind: 'message', message: result.output as ParsedServerMessage }
  return { kind: 'invalid', action: known, issues: result.issues.map((issue) => `${v.getDotPath(issue) ?? '(frame)'}: ${issue.message}`) }
}

/** Parses one received frame; null when it is not a server message this contract knows. */
export function parseServerMessage(value: unknown): ServerMessage | null {
  const frame = readServerFrame(value)
  return frame.kind === 'message' ? (frame.message as ServerMessage) : null
}
