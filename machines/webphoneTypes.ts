import { fromCallback } from 'xstate'
import type { RegistrationState } from './types.ts'

// The shapes the webphone machines share with the sip.js adapter (src/features/webphone/sipPhone.ts) and the root
// actor system. The machines never import sip.js: the phone is a callback actor built from a `SipPhone` with
// `phoneActor`, started by the webphone machine and stopped with it. Commands go in as `PhoneCommand`, what happens
// on the line comes back as `PhoneEvent`.

export type { RegistrationState }

export type CallDirection = 'incoming' | 'outgoing'
export type TransferType = 'blind' | 'attend' | 'pendulum'

/** Spec 000 §2 "Webphone panel": what the panel shows. */
export type WebphoneStage =
  | 'dialpad'
  | 'phonebook'
  | 'settings'
  | 'transfer'
  | 'transfer-attend'
  | 'transfer-pendulum'
  | 'transferring'
  | 'conference'
  | 'after-service'
  | 'classification'

/** The voip part of the profile (spec 000 §3). */
export type VoipProfile = {
  websocket: string
  endpoint: string
  realm: string
  password: string
  device_state_busy_at: number
}

/** The team flags the webphone reads (spec 000 §3 Team). */
export type WebphoneTeam = {
  outbound_routes: { id: number; description?: string }[]
  enable_auto_login_webphone: boolean
  enable_webphone_auto_answer: boolean
  enable_after_service?: boolean
  duration_of_after_service?: number
  ignore_after_service_with_duration_shorter_than?: number
  ignore_after_service_unaccepted?: boolean
  /** contract/codes/after-service.ts AFTER_SERVICE_MODES; the spec's countdown when absent. */
  after_service_mode?: string
}

export type AudioDevices = { input: string | null; output: string | null }

/** What the adapter needs to register: the voip profile plus the chosen audio devices. */
export type PhoneConfig = {
  websocket: string
  endpoint: string
  realm: string
  password: string
  audio: AudioDevices
}

/** SIP headers (name → value), X-Atende-* on our calls (spec 000 §7 "Calling headers"). */
export type CallHeaders = Record<string, string>

/** Headers of the calling signalling, by name (spec 000 §7). Incoming ones are read case-insensitively. */
export const CALL_HEADERS = {
  uid: 'X-Atende-Uid',
  route: 'X-Atende-Route',
  transfer: 'X-Atende-Transfer',
  phone: 'X-Atende-Phone',
  parentUid: 'X-Atende-Parent-Uid',
  clientVariable: 'X-Atende-Client-Variable',
  callType: 'X-Atende-Call-Type',
  dialer: 'X-Atende-Dialer',
  campaign: 'X-Atende-Campaign',
  mailing: 'X-Atende-Mailing',
  mailingClient: 'X-Atende-Mailing-Client',
  client: 'X-Atende-Client',
  clientName: 'X-Atende-Client-Name',
  attempts: 'X-Atende-Attempts',
  queue: 'X-Atende-Queue',
} as const

/**
 * The client's name an INVITE carries (X-Atende-Client-Name): the dialer sends it percent-encoded (SIP header values
 * are ASCII, server/dialer/runner.ts headersFor); a value that is not valid percent-encoding is shown as it came.
 */
export function clientNameOf(headers: CallHeaders): string {
  const raw = Object.entries(headers).find(([name]) => name.toLowerCase() === CALL_HEADERS.clientName.toLowerCase())?.[1] ?? ''
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** Commands the machines give the phone. */
export type PhoneCommand =
  | { type: 'call'; callId: string; target: string; headers: CallHeaders }
  | { type: 'answer'; callId: string }
  /** Hangs up (BYE), cancels (CANCEL) or rejects (`code`, 486 by default) as the call's state requires. */
  | { type: 'hangup'; callId: string; code?: number; reason?: string }
  | { type: 'hold'; callId: string; on: boolean }
  | { type: 'mute'; callId: string; on: boolean }
  /** RFC 4733 telephone-event; `duration` and `gap` in ms (spec 000 §9). */
  | { type: 'dtmf'; callId: string; tone: string; duration: number; gap: number }
  /** REFER to a number (blind transfer). */
  | { type: 'transferBlind'; callId: string; target: string }
  /** REFER with Replaces: `callId`'s party is joined to `targetCallId`'s (attended transfer). */
  | { type: 'transferAttended'; callId: string; targetCallId: string }
  /** Mixes the calls' audio (each hears the agent and the others); an empty list ends the mixing. */
  | { type: 'conference'; callIds: string[] }
  | { type: 'audioDevices'; input: string | null; output: string | null }

/**
 * A supervisor whispering to this agent or barging in on the agent's call (server/media/README.md "Monitoring"): the
 * media app's second leg, answered silently. `supervisor` is the name the server sent.
 */
export type Coaching = { mode: 'whisper' | 'barge'; supervisor: string }

/** What the phone reports. */
export type PhoneEvent =
  /** The user agent runs (its transport is connecting). */
  | { type: 'PHONE_STARTED' }
  /** It could not start: `media` (no microphone or permission refused), `config`, `transport`. */
  | { type: 'PHONE_FAILED'; code: 'media' | 'config' | 'transport'; message: string }
  /** The SIP websocket, and the OPTIONS keepalive: a failed OPTIONS reports `connected: false`. */
  | { type: 'PHONE_TRANSPORT'; connected: boolean }
  | { type: 'PHONE_REGISTRATION'; state: Extract<RegistrationState, 'registered' | 'unregistered' | 'registrationFailed'> }
  | { type: 'PHONE_INCOMING'; callId: string; uid: string; phone: string; name: string; headers: CallHeaders }
  /** A provisional answer (100, 180, 183) of an outgoing call; `uid` once the far end gave one. */
  | { type: 'PHONE_PROGRESS'; callId: string; code: number; uid?: string }
  /** The call is established (200 OK sent or received). */
  | { type: 'PHONE_ACCEPTED'; callId: string; uid?: string }
  /**
   * Another party took the call's place (an INVITE with Replaces: the customer a colleague transferred to this phone
   * after consulting it); the call goes on with that party's step uid, number and name.
   */
  | { type: 'PHONE_REPLACED'; callId: string; uid: string; phone: string; name: string; headers: CallHeaders }
  /** The far end of the call transfers us to `target` (a number of our exchange): the webphone calls it. */
  | { type: 'PHONE_REFERRED'; callId: string; target: string }
  /** The call is over: the SIP status code (or null for a BYE) and reason. */
  | { type: 'PHONE_ENDED'; callId: string; code: number | null; reason: string }
  /** The answer to a REFER. */
  | { type: 'PHONE_TRANSFERRED'; callId: string; ok: boolean; reason?: string }
  /** A command failed without ending anything (hold refused, DTMF unsupported, ...). */
  | { type: 'PHONE_ERROR'; callId: string | null; code: string; message: string }
  /** A supervisor's leg began, changed mode or ended (null): never a call of the agent's. */
  | { type: 'PHONE_COACHING'; coaching: Coaching | null }

/** The adapter's surface: one registered user agent and its calls. */
export interface SipPhone {
  /** Connects and registers; failures arrive as PHONE_FAILED. */
  start(): Promise<void>
  /** Hangs up every call, unregisters and disconnects. */
  stop(): Promise<void>
  call(callId: string, target: string, headers: CallHeaders): Promise<void>
  answer(callId: string): Promise<void>
  hangup(callId: string, code?: number, reason?: string): Promise<void>
  hold(callId: string, on: boolean): Promise<void>
  mute(callId: string, on: boolean): void
  dtmf(callId: string, tone: string, duration: number, gap: number): void
  transferBlind(callId: string, target: string): Promise<void>
  transferAttended(callId: string, targetCallId: string): Promise<void>
  conference(callIds: string[]): void
  setAudioDevices(devices: AudioDevices): Promise<void>
}

export type CreateSipPhone = (config: PhoneConfig, emit: (event: PhoneEvent) => void) => SipPhone

/** Runs one command on the phone; a rejected promise becomes PHONE_ERROR. */
export async function runPhoneCommand(phone: SipPhone, command: PhoneCommand): Promise<void> {
  switch (command.type) {
    case 'call':
      return phone.call(command.callId, command.target, command.headers)
    case 'answer':
      return phone.answer(command.callId)
    case 'hangup':
      return phone.hangup(command.callId, command.code, command.reason)
    case 'hold':
      return phone.hold(command.callId, command.on)
    case 'mute':
      return phone.mute(command.callId, command.on)
    case 'dtmf':
      return phone.dtmf(command.callId, command.tone, command.duration, command.gap)
    case 'transferBlind':
      return phone.transferBlind(command.callId, command.target)
    case 'transferAttended':
      return phone.transferAttended(command.callId, command.targetCallId)
    case 'conference':
      return phone.conference(command.callIds)
    case 'audioDevices':
      return phone.setAudioDevices({ input: command.input, output: command.output })
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The phone as the callback actor the webphone machine starts (`actors.phone`). */
export function phoneActor(create: CreateSipPhone) {
  return fromCallback<PhoneCommand, PhoneConfig>(({ input, sendBack, receive }) => {
    const phone = create(input, (event) => sendBack(event))
    phone.start().catch((error: unknown) => sendBack({ type: 'PHONE_FAILED', code: 'transport', message: errorMessage(error) }))
    receive((command) => {
      const callId = 'callId' in command ? command.callId : null
      Promise.resolve()
        .then(() => runPhoneCommand(phone, command))
        .catch((error: unknown) => sendBack({ type: 'PHONE_ERROR', callId, code: command.type, message: errorMessage(error) }))
    })
    return () => void phone.stop().catch(() => {})
  })
}
