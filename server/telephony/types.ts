// The messages Kamailio and Node exchange over evapi (JSON in netstrings), as fixed in server/telephony/README.md, and
// the CallControl interface that decides where calls go (implemented in server/telephony/control/).

export type SipTransport = 'ws' | 'wss' | 'udp' | 'tcp'

/** A new INVITE, after authentication (a device) or identification (a trunk); Kamailio holds it until Node answers. */
export type RouteRequest = {
  event: 'route'
  tindex: number
  tlabel: number
  call_id: string
  from_user: string
  from_domain: string
  ruri_user: string
  ruri_domain: string
  src_ip: string
  src_port: number
  transport: SipTransport
  /** `media`: the media app (server/media/app/) bridging a caller it holds on to a destination. */
  source: 'device' | 'trunk' | 'media'
  trunk_id: number | null
  x_headers: Record<string, string>
}

/** A relayed branch failed and the decision had asked `on_failure`: Kamailio waits for a new decision. */
export type FailureRequest = {
  event: 'failure'
  tindex: number
  tlabel: number
  call_id: string
  code: number
  reason: string
}

export type CallEvent = {
  event: 'call'
  call_id: string
  state: 'ringing' | 'answered' | 'ended' | 'failed'
  code: number
  reason: string
  by: 'caller' | 'callee' | ''
  ts: number
  /** `answered` only: the user of the device that answered (the AOR of the answering branch), '' when unknown. */
  callee?: string
}

export type RegistrationEvent = {
  event: 'registration'
  aor: string
  state: 'registered' | 'unregistered'
  expires: number
}

export type RelayDecision = {
  action: 'relay'
  /** The request URI, e.g. `sip:10002@localhost`. */
  ruri: string
  /** Look the AOR up in the location table (a registered device). */
  lookup: boolean
  /** With `lookup`: further AORs rung in parallel with `ruri` (ring-all queues and call groups), e.g. `sip:10002@localhost`. */
  branches?: string[]
  /** Send to this address instead (a trunk), e.g. `sip:127.0.0.1:5090;transport=udp`. */
  dst: string | null
  /** Extra headers, each line ending with CRLF (`X-Atende-Call-Type: 31\r\n`). */
  headers: string
  /** Ring time in seconds. */
  timeout: number
  /** Ask Node again (a `failure` event) when every branch failed. */
  on_failure: boolean
  record: boolean
  /** Credentials to answer a trunk's 401/407. */
  auth: { user: string; password: string } | null
  /** The call step's uid: Kamailio puts it as `X-Atende-Uid` on the replies toward the caller (records.ts). */
  uid?: string
  /** To the media app (`dst` is its address): Kamailio leaves the call's media to it (no rtpengine offer/answer/delete). */
  media?: boolean
}

export type RejectDecision = { action: 'reject'; code: number; reason: string }

export type RouteDecision = RelayDecision | RejectDecision

/** What the evapi client asks the call-control layer. Implemented by createCallControl (server/telephony/control/). */
export interface CallControl {
  route(request: RouteRequest): Promise<RouteDecision>
  failure(request: FailureRequest): Promise<RouteDecision>
  /** Call progress and registrations: fire-and-forget. */
  event(event: CallEvent | RegistrationEvent): void
}

export type CredentialEntry = { user: string; domain: string; ha1: string; max_calls: number }
export type TrunkEntry = { id: number; ip: string; port: number; max_calls: number }

/** Node → Kamailio commands. */
export type KamailioCommand =
  | ({ cmd: 'route'; tindex: number; tlabel: number } & RouteDecision)
  | { cmd: 'creds'; reset: boolean; entries: CredentialEntry[] }
  | { cmd: 'creds_del'; entries: { user: string; domain: string }[] }
  | { cmd: 'trunks'; reset: boolean; entries: TrunkEntry[] }
  /** The trusted networks (CIDR, comma-separated): never pike-banned. */
  | { cmd: 'networks'; value: string }
  /** Which of these Call-IDs have no live dialog: answered by a `dialogs` event. */
  | { cmd: 'dialogs'; call_ids: string[] }
  /** Kamailio's memory and load: answered by a `stats` event. */
  | { cmd: 'stats' }

/** Kamailio → Node: the Call-IDs of a `dialogs` question that have no dialog. */
export type DialogsEvent = { event: 'dialogs'; gone: string[]; checked: number }

/** Kamailio → Node: the answer to `stats` (bytes and counts). */
export type StatsEvent = {
  event: 'stats'
  shm_total: number
  shm_used: number
  shm_max_used: number
  dialogs: number
  registered: number
  tcp_connections: number
  websockets: number
}
