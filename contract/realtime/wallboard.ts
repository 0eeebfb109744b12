import * as v from 'valibot'
import { ENDPOINT_STATUSES } from '../codes/states.ts'
import { message } from '../messages.ts'

// The supervisor wallboard feed on the service socket (/ws/business/): issue 19 item 1, spec 000 §2 /dashboards, §6
// sites.view_dashboard_supervisor. Ours: the spec names no frames for it. A supervisor's socket sends
// `wallboard_subscribe`; the server answers a `wallboardSnapshot` (every agent and queue of the site), then
// `wallboardDelta`s (what changed, coalesced) for as long as the socket stays subscribed. Every delta names the
// revision it applies to (`base`): a client whose revision differs asks again (subscribe with its feed and revision)
// and gets the missed deltas, or a new snapshot when the server no longer has them. Times are ISO 8601 UTC; the
// client ticks them locally, the server never sends a clock.

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)
const Status = v.nullable(v.picklist(ENDPOINT_STATUSES))
const IsoTime = v.string()
const nullableIso = v.nullable(IsoTime)

/** The running pause of an agent, as the wallboard shows it. */
export const WallboardPauseShape = v.strictObject({
  description: v.string(),
  started_at: nullableIso,
  /** Seconds (0: no maximum). */
  maximum_duration: v.number(),
  /** A supervisor's pause waiting for the agent's call to end. */
  pending: v.boolean(),
  started_by: v.nullable(v.number()),
})

/** The call an agent is on (ringing or talking). */
export const WallboardCallShape = v.strictObject({
  /** The other party: the customer's number, or the colleague's extension on internal calls. */
  number: v.string(),
  direction: v.picklist(['inbound', 'outbound', 'internal']),
  /** ringing until answered. */
  state: v.picklist(['ringing', 'talking']),
  since: IsoTime,
  queue: v.nullable(v.number()),
})

export const WallboardAfterServiceShape = v.strictObject({
  started_at: IsoTime,
  /** null: the team's mode holds it until the agent ends it. */
  ends_at: nullableIso,
})

export const WallboardAgentShape = v.strictObject({
  id: v.number(),
  name: v.string(),
  username: v.string(),
  team: v.nullable(v.number()),
  team_name: v.string(),
  status: Status,
  status_since: nullableIso,
  chat_status: Status,
  chat_status_since: nullableIso,
  login_telephony: v.boolean(),
  login_chat: v.boolean(),
  pause: v.nullable(WallboardPauseShape),
  call: v.nullable(WallboardCallShape),
  /** Open chats the agent serves now. */
  chats: v.number(),
  after_service: v.nullable(WallboardAfterServiceShape),
  /** Queue keys the agent is a member of (`calls:<id>`, `chats:<id>`). */
  queues: v.array(v.string()),
})

export const WallboardQueueShape = v.strictObject({
  /** `calls:<id>` or `chats:<id>`. */
  key: v.string(),
  id: v.number(),
  kind: v.picklist(['calls', 'chats']),
  name: v.string(),
  waiting: v.number(),
  /** When the caller (or chat) waiting longest entered the queue; null when nobody waits. */
  longest_since: nullableIso,
  answered: v.number(),
  abandoned: v.number(),
  /** Answered within `target` seconds (today). */
  answered_in_target: v.number(),
  target: v.number(),
  /** answered_in_target / (answered + abandoned), 0–100; null before the first call of the day. */
  service_level: v.nullable(v.number()),
  agents_logged: v.number(),
  agents_free: v.number(),
})

export type WallboardPause = v.InferOutput<typeof WallboardPauseShape>
export type WallboardCall = v.InferOutput<typeof WallboardCallShape>
export type WallboardAgent = v.InferOutput<typeof WallboardAgentShape>
export type WallboardQueue = v.InferOutput<typeof WallboardQueueShape>

/** Client → server. `feed` and `revision` are the last ones the client applied (null: send a snapshot). */
export const WALLBOARD_CLIENT_MESSAGES = {
  wallboard_subscribe: v.object({
    action: v.literal('wallboard_subscribe'),
    feed: v.optional(v.nullable(v.pipe(v.string(invalid), v.maxLength(64, invalid))), null),
    revision: v.optional(v.nullable(v.pipe(v.number(invalid), v.integer(invalid), v.minValue(0, invalid), v.maxValue(Number.MAX_SAFE_INTEGER, invalid))), null),
  }),
  wallboard_unsubscribe: v.object({ action: v.literal('wallboard_unsubscribe') }),
} as const

export const WallboardSnapshotShape = v.strictObject({
  action: v.literal('wallboardSnapshot'),
  /** This server's feed of the site; another feed's revisions mean nothing here. */
  feed: v.string(),
  revision: v.number(),
  /** The start of "today" for the queue counters. */
  day_start: IsoTime,
  agents: v.array(WallboardAgentShape),
  queues: v.array(WallboardQueueShape),
})

export const WallboardDeltaShape = v.strictObject({
  action: v.literal('wallboardDelta'),
  feed: v.string(),
  /** The revision this delta applies to; the client's must equal it. */
  base: v.number(),
  revision: v.number(),
  /** Agents added or changed (whole rows), and agents gone (deactivated, deleted). */
  agents: v.array(WallboardAgentShape),
  removed_agents: v.array(v.number()),
  queues: v.array(WallboardQueueShape),
  removed_queues: v.array(v.string()),
  day_start: IsoTime,
})

export type WallboardSnapshot = v.InferOutput<typeof WallboardSnapshotShape>
export type WallboardDelta = v.InferOutput<typeof WallboardDeltaShape>
