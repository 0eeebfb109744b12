import type { Db } from '../../db/client.ts'
import { rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'
import type { StepDraft } from './records.ts'
import type { Random } from '../../acd/strategies.ts'

// What every part of routing shares (routing.ts, transfers, destinations/): the environment of one decision, the
// call as its steps share it, and the plan of steps a decision answers. Types only, plus two constants, so that the
// parts import this file and never each other in a circle.

/** Chains to another destination (a call group's timeout, a queue's overflow): destinations/index.ts `toDestination`. */
export type ToDestination = (env: Env, base: CallBase, app: string, appdata: string, hops: number) => Promise<Plan>

export type Env = {
  db: Db
  now: Date
  random: Random
  /** The destinations map, carried along so a destination can chain to another without importing the map. */
  destination: ToDestination
  /** The media app's SIP address (`sip:127.0.0.1:5090;transport=udp`), null when it does not run: callers cannot wait. */
  mediaApp?: string | null
  /** This call is the media app bridging a caller it holds on (routing.ts fromMedia): nothing goes back to the app. */
  mediaLeg?: boolean
}

/** What every step of a call shares: who called, through what, from where. */
export type CallBase = Pick<
  StepDraft,
  | 'direction'
  | 'callType'
  | 'caller'
  | 'callee'
  | 'phone'
  | 'callerDeviceId'
  | 'callerUserId'
  | 'inboundRouteId'
  | 'trunkId'
  | 'did'
  | 'areaCode'
  | 'transferOfUid'
  | 'transferType'
  | 'activityId'
> & {
  siteId: number
  domain: string
  callId: string
  clientName: string
  record: boolean
  phone: string
  caller: string
  callee: string
}

/** The steps to record, the last one carrying the decision Kamailio gets. */
export type Plan = StepDraft[]

/** One destination app (contract/entities/apps.ts): plans a call to the destination `appdata` names. */
export type Destination = (env: Env, base: CallBase, appdata: string, hops: number) => Promise<Plan>

/** The ring time of a direct call to a device (internal or an inbound route's pjsip destination). */
export const DEVICE_RING_SECONDS = 60
/** Destinations chained through overflows and timeouts stop after this many hops (a loop in the settings). */
export const MAX_HOPS = 5

export const uri = (user: string, domain: string) => `sip:${user}@${domain}`

/** A destination's id (`appdata`), or null when it is not one. */
export const appId = (appdata: string): number | null => (/^\d+$/.test(appdata) ? Number(appdata) : null)

/** A relay to the media app, whose Request-URI user names what the caller gets there (`queue.3`, `ivrbasic.2`...). */
export function toMediaApp(mediaApp: string, base: CallBase, user: string): Decision {
  return {
    action: 'relay',
    ruri: uri(user, base.domain),
    lookup: false,
    dst: mediaApp,
    headers: '',
    timeout: 10,
    on_failure: false,
    record: false,
    auth: null,
    media: true,
  }
}

/** The reject step when a destination cannot take the call. */
export const unavailable = (base: CallBase): Plan => [{ ...base, kind: 'reject', decision: rejectWith(480) }]
