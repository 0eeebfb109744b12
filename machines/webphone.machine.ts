import { ATTENDED_TRANSFER_PREFIX, parseAppTarget } from '../contract/codes/transfer.ts'
import { setup, and, assign, enqueueActions, sendParent, stopChild, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import { callMachine, type CallActorRef, type CallSummary } from './call.machine.ts'
import { conferenceMachine } from './conference.machine.ts'
import { missingAction, missingCallback, missingPromise } from './effects.ts'
import { BLIND_TRANSFER_PREFIX } from '../contract/codes/transfer.ts'
import { transferMachine, type TransferOutput } from './transfer.machine.ts'
import type { Notice, RegistrationState, SocketMessage } from './types.ts'
import type { EndpointStatus } from '../contract/codes/states.ts'
import { CALL_TYPE } from '../contract/codes/call-types.ts'
import { afterServiceEndable, afterServiceMode, afterServiceTimed, type AfterServiceMode } from '../contract/codes/after-service.ts'
import {
  CALL_HEADERS,
  type AudioDevices,
  type CallHeaders,
  type PhoneCommand,
  type PhoneConfig,
  type PhoneEvent,
  type TransferType,
  type VoipProfile,
  type WebphoneStage,
  type WebphoneTeam,
  type Coaching,
  clientNameOf,
} from './webphoneTypes.ts'

// The webphone — spec 000 §2 "Webphone panel", §4 "Registration and endpoint states" and "Webphone state", §5
// (dialling and transfer rules), §7 (calling headers), §8 (toasts), §9 (softphone constants).
// Panel: off ('Logar no webphone'), otherTab (another tab serves), missingPermissions ('Recarregar Webphone'),
// starting (the phone actor starts: microphone, user agent), ready (registration region: connecting, registered,
// unregistered, registrationFailed, disconnected). While starting or ready the `phone` callback actor (the sip.js
// adapter, machines/webphoneTypes.ts) runs; leaving them stops it and with it every call.
// Calls are `call` children (one per call, in order of arrival); a transfer is a `transfer` child, a local conference
// a `conference` child. Incoming calls are auto-rejected for the reasons of spec 000 §4; outgoing calls are refused
// with the spec's toasts. The root system maps the snapshot to agentStatus (`webphoneStatusInputs`).

export const DIAL_REFUSED_NOTICE = 'Não possível fazer uma ligação durante este status'
/** Spec 000 §8: a call asked of a tab that does not serve (the activities page's 'Ligar', a click-to-call). */
export const SERVICE_ELSEWHERE_NOTICE = 'Seu atendimento está em outra aba'
/** Spec 000 §5: an unsent, invalid form blocks a transfer; the toast shows for 3 s. */
export const FORM_BEFORE_TRANSFER_NOTICE = 'É necessário salvar o formulário antes de fazer a transferência.'
export const FORM_BEFORE_TRANSFER_MS = 3000
export const ROUTE_REQUIRED_NOTICE = 'Selecione uma rota de saída'
/** SIP answer to an auto-rejected call: 486 Busy Here. */
export const REJECT_CODE = 486
/** Spec 000 §9: outgoing call type 10; internal extensions of 5 digits (10000-99999) use 31; incoming default 20. */
export const OUTGOING_CALL_TYPE = 10
export const INTERNAL_CALL_TYPE = 31
export const CLICK_TO_CALL_TYPE = 11
export const INCOMING_CALL_TYPE = 20

/** Why an incoming call was rejected at once (spec 000 §4, in the spec's order). */
export type RejectReason = 'dnd' | 'pauseSwap' | 'busyLimit' | 'endpointBusy' | 'pause'

/** Endpoint states (socket changeDeviceState) in which the endpoint is not idle for a new call. */
export const ENDPOINT_NOT_IDLE: readonly EndpointStatus[] = ['after_service', 'blocked', 'in_activity', 'click_to_call']

/** Stages in which a call that ends does not start after-service (spec 000 §4). */
/** The delayed AFTER_SERVICE_END of a running after-service. */
const AFTER_SERVICE_TIMER = 'afterServiceTimer'
export const NO_AFTER_SERVICE_STAGES: readonly WebphoneStage[] = ['transfer', 'transfer-attend', 'transfer-pendulum', 'transferring', 'conference']

export type CallEntry = { id: string; ref: CallActorRef }

export type WebphoneTransfer = {
  type: TransferType
  originCallId: string
  destinationCallId: string | null
  destination: string
  /** What the agent picked, as shown (a queue's name for `queue.3`); the destination itself when typed. */
  label: string
}

/**
 * After-service of an ended call (spec 000 §4, §7; contract/codes/after-service.ts): `endsAt` in epoch ms, null when
 * the team's mode has no time limit; `sessionId` the pause report after-service/start answered; `classified` once the
 * call's classification was sent (the mandatory modes wait for it before the agent may end it).
 */
export type AfterService = {
  callId: string
  uid: string | null
  phone: string
  duration: number
  startedAt: number
  endsAt: number | null
  mode: AfterServiceMode
  sessionId: number | null
  classified: boolean
}

/** What the webphone tells the server when an after-service ends (tab-form ?type=hangup, after_service_finished). */
export type AfterServiceEnd = { callId: string; uid: string | null; sessionId: number | null; duration: number }

/** What after-service/start answered (contract/api/service-actions.ts AfterServiceStartResponse). */
export type AfterServiceStartOutput = { id: number | null; ignore_after_service_dial_status: boolean }

/** Spec 000 §8 toasts of after-service/start. */
export const AFTER_SERVICE_START_FAILED_NOTICE = 'Erro ao iniciar o Pós-atendimento {error}'
/** The start of that toast: the machine appends the server's error. */
export const AFTER_SERVICE_START_PREFIX = 'Erro ao iniciar o Pós-atendimento '
export const NO_AFTER_SERVICE_NOTICE = 'Esta chamada não tem Pós-atendimento'

export type PauseInputs = { allowIncoming: boolean; allowOutgoing: boolean; webphonePause: boolean; pauseSwap: boolean }

export type WebphoneContext = {
  serving: boolean | null
  permissions: { audio: boolean; notifications: boolean } | null
  voip: VoipProfile | null
  team: WebphoneTeam | null
  /** The agent asked for the webphone ('Logar no webphone', startWebphone, or the team's auto login). */
  wanted: boolean
  registration: RegistrationState
  connected: boolean
  calls: CallEntry[]
  /** Each call's last summary, by id. */
  callStates: Record<string, CallSummary>
  currentCallId: string | null
  stage: WebphoneStage
  dnd: boolean
  routeId: number | null
  busyAt: number
  autoAnswer: boolean
  autoLogin: boolean
  transfer: WebphoneTransfer | null
  conferenceCallIds: string[]
  error: null | { code: string; message: string }
  pause: PauseInputs
  deviceState: EndpointStatus | null
  afterService: AfterService | null
  audio: AudioDevices
  lastRejected: null | { callId: string; phone: string; reason: RejectReason }
  /** Calls placed because the far end transferred us (REFER): new call id → the call it came from, and whether answered. */
  referrals: Record<string, { from: string; answered: boolean }>
  nextCall: number
  /** The phone child runs (starting, ready). */
  phoneRunning: boolean
  /** A transfer child runs (from TRANSFER to its result, confirm included). */
  transferRunning: boolean
  /** The confirmed transfer, kept until its REFER is answered: a refusal brings it back. */
  confirmedTransfer: WebphoneTransfer | null
  /** Each call's form beside it (by call id), as the form area reports it: kept until its after-service ends. */
  forms: Record<string, CallFormState>
  /**
   * Calls this agent transferred that are still ending: a blind transfer's REFER is answered before the far end's BYE
   * arrives, so the transfer is over when the call ends — and that end is the transfer's, with no after-service.
   */
  transferredCallIds: string[]
  /**
   * A supervisor whispering to the agent or barging in (the media app's leg, answered by the phone on its own): shown as
   * a small notice, never a call. Null when none (and whenever the phone is not ready).
   */
  coaching: Coaching | null
}

/** A call's form as the webphone needs it: whether it was sent, whether its answers are valid now. */
export type CallFormState = { uid: string | null; sent: boolean; valid: boolean }

export type DialOrigin = 'manual' | 'clickToCall' | 'mailingClient' | 'activity'

export type WebphoneEvent =
  // from the views
  | { type: 'START' }
  | { type: 'STOP' }
  | { type: 'RELOAD' }
  | { type: 'DIAL'; number: string; routeId?: number | null; force?: boolean; origin?: DialOrigin; headers?: CallHeaders }
  | { type: 'ANSWER'; callId: string }
  | { type: 'HANGUP'; callId: string }
  | { type: 'HOLD'; callId: string }
  | { type: 'UNHOLD'; callId: string }
  | { type: 'MUTE'; callId: string }
  | { type: 'UNMUTE'; callId: string }
  | { type: 'DTMF'; callId: string; tone: string }
  | { type: 'SELECT_CALL'; callId: string }
  | { type: 'SET_STAGE'; stage: WebphoneStage }
  | { type: 'SET_ROUTE'; routeId: number | null }
  | { type: 'TRANSFER'; transferType: TransferType; destination: string; app?: string; appdata?: string; label?: string }
  | { type: 'TRANSFER_CONFIRM' }
  | { type: 'TRANSFER_CANCEL' }
  | { type: 'CONFERENCE'; callIds: string[] }
  | { type: 'SET_DND'; dnd: boolean }
  | { type: 'SET_AUDIO_DEVICES'; input: string | null; output: string | null }
  // from the root system
  | { type: 'SERVING_CHANGED'; serving: boolean }
  | ({ type: 'PAUSE_CHANGED' } & PauseInputs)
  | { type: 'PERMISSIONS'; audio: boolean; notifications: boolean }
  | { type: 'PROFILE'; voip: VoipProfile | null; team: WebphoneTeam | null }
  | { type: 'DEVICE_STATE'; state: EndpointStatus | null }
  /** The agent ends the after-service (allowed by the team's mode). */
  | { type: 'AFTER_SERVICE_END' }
  /** Its time ran out (the machine's own timer). */
  | { type: 'AFTER_SERVICE_EXPIRED' }
  /** The server ended it (socket afterServiceTimeout): `uid` the step, null for whichever runs. */
  | { type: 'AFTER_SERVICE_TIMEOUT'; uid: string | null }
  /**
   * The server says a break of the agent runs (socket pause/startPause, not pending): it holds no after-service then
   * (an agent's own break is refused during one, a supervisor's waits as pending), so one still counted down here is
   * over — its afterServiceTimeout was missed or is still on its way.
   */
  | { type: 'SERVER_PAUSE_STARTED' }
  /** The server moved a live call to another step (socket changeCallStep, spec 000 §7). */
  | { type: 'CALL_STEP_CHANGED'; uid: string; stepUid: string }
  /** The call's classification was sent (the form beside the call). */
  | { type: 'CALL_CLASSIFIED'; uid: string | null }
  /** The form area: the call's form, sent or not, valid or not (absent calls have none). */
  | ({ type: 'CALL_FORM'; callId: string } & CallFormState)
  | { type: 'xstate.done.actor.afterServiceStart'; output: AfterServiceStartOutput }
  | { type: 'xstate.error.actor.afterServiceStart'; error: unknown }
  // from the children
  | PhoneEvent
  | { type: 'PHONE_COMMAND'; command: PhoneCommand }
  | { type: 'CALL_CHANGED'; summary: CallSummary }
  | { type: 'CALL_SOCKET'; message: SocketMessage }
  | { type: 'TRANSFER_NOTICE'; notice: Notice }
  | { type: 'CONFERENCE_START'; callIds: string[] }
  | { type: 'CONFERENCE_END' }
  | { type: 'xstate.done.actor.transfer'; output: TransferOutput }
  | { type: 'xstate.done.actor.conference'; output: { callIds: string[] } }

export type WebphoneInput = {
  serving?: boolean | null
  voip?: VoipProfile | null
  team?: WebphoneTeam | null
  permissions?: { audio: boolean; notifications: boolean } | null
  audio?: AudioDevices
  dnd?: boolean
}

/** The call machine as the webphone runs it: its effects go to the webphone (the metadata fetch to the root). */
export const webphoneCallMachine = callMachine.provide({
  actions: {
    phone: sendParent((_, command: PhoneCommand) => ({ type: 'PHONE_COMMAND', command })),
    sendSocket: sendParent((_, message: SocketMessage) => ({ type: 'CALL_SOCKET', message })),
    changed: sendParent((_, summary: CallSummary) => ({ type: 'CALL_CHANGED', summary })),
  },
})

export const webphoneTransferMachine = transferMachine.provide({
  actions: {
    phone: sendParent((_, command: PhoneCommand) => ({ type: 'PHONE_COMMAND', command })),
    notify: sendParent((_, notice: Notice) => ({ type: 'TRANSFER_NOTICE', notice })),
    startConference: sendParent((_, { callIds }: { callIds: string[] }) => ({ type: 'CONFERENCE_START', callIds })),
    endConference: sendParent({ type: 'CONFERENCE_END' }),
  },
})

export const webphoneConferenceMachine = conferenceMachine.provide({
  actions: { phone: sendParent((_, command: PhoneCommand) => ({ type: 'PHONE_COMMAND', command })) },
})

type Panel = 'otherTab' | 'missingPermissions' | 'off' | 'on'

/** Which placeholder (or the phone) the context calls for. */
export function panelFor(context: Pick<WebphoneContext, 'serving' | 'permissions' | 'wanted' | 'voip'>): Panel {
  if (context.serving === false) return 'otherTab'
  if (context.serving === null) return 'off'
  if (context.permissions && (!context.permissions.audio || !context.permissions.notifications)) return 'missingPermissions'
  if (!context.wanted || !context.voip) return 'off'
  return 'on'
}

/** Spec 000 §4: why an incoming call must be rejected at once, or null. */
export function rejectReason(context: WebphoneContext): RejectReason | null {
  if (context.dnd) return 'dnd'
  if (context.pause.pauseSwap) return 'pauseSwap'
  if (context.busyAt > 0 && context.calls.length >= context.busyAt) return 'busyLimit'
  if (context.afterService || (context.deviceState && ENDPOINT_NOT_IDLE.includes(context.deviceState))) return 'endpointBusy'
  if (!context.pause.allowIncoming) return 'pause'
  return null
}

/** Spec 000 §4: an outgoing call is allowed when idle, or in a pause allowing outgoing calls, or forced. */
export function dialAllowed(context: WebphoneContext, force: boolean): boolean {
  if (context.afterService) return false
  if (force) return true
  if (context.dnd || context.pause.pauseSwap) return false
  return !context.pause.webphonePause || context.pause.allowOutgoing
}

/** The digits a number box or a contact holds, ready for the dial string. */
export function dialString(number: string): string {
  // A destination of the webphone's lists (`queue.3`, contract/codes/transfer.ts) goes as it is.
  const trimmed = number.trim()
  if (parseAppTarget(trimmed)) return trimmed
  return trimmed.replace(/[^0-9*#+]/g, '')
}

export function outgoingCallType(target: string, origin: DialOrigin = 'manual'): number {
  if (origin === 'clickToCall') return CLICK_TO_CALL_TYPE
  // A lead of a preview campaign the agent dials (issue 18; spec 000 §4 type 18).
  if (origin === 'mailingClient') return CALL_TYPE.preview
  if (parseAppTarget(target)) return INTERNAL_CALL_TYPE
  if (/^\d{5}$/.test(target) && Number(target) >= 10000) return INTERNAL_CALL_TYPE
  return OUTGOING_CALL_TYPE
}

function header(headers: CallHeaders, name: string): string | null {
  const wanted = name.toLowerCase()
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value
  return null
}

/** What agentStatus hears from the webphone (machines/agentStatus.machine.ts AgentStatusInputs). */
export function webphoneStatusInputs(snapshot: SnapshotFrom<typeof webphoneMachine>) {
  const context = snapshot.context
  const states = Object.values(context.callStates)
  return {
    registration: context.registration,
    connected: context.connected,
    calls: context.calls.length,
    ringing: states.filter((call) => call.direction === 'incoming' && call.state === 'ringing').length,
    afterService: context.afterService !== null,
    dnd: context.dnd,
  }
}

function phoneConfig(context: WebphoneContext): PhoneConfig {
  const voip = context.voip as VoipProfile
  return { websocket: voip.websocket, endpoint: voip.endpoint, realm: voip.realm, password: voip.password, audio: context.audio }
}

/** The context an input of the panel (tab ownership, browser permissions, profile) leads to. */
function panelInput(context: WebphoneContext, event: WebphoneEvent): Partial<WebphoneContext> {
  switch (event.type) {
    case 'SERVING_CHANGED':
      return { serving: event.serving }
    case 'PERMISSIONS':
      return { permissions: { audio: event.audio, notifications: event.notifications } }
    case 'PROFILE': {
      const team = event.team
      const autoLogin = !!team?.enable_auto_login_webphone
      return {
        voip: event.voip,
        team,
        busyAt: event.voip?.device_state_busy_at ?? 0,
        autoAnswer: !!team?.enable_webphone_auto_answer,
        autoLogin,
        // Auto login asks for the phone the first time the profile says so.
        wanted: context.wanted || (autoLogin && !context.autoLogin),
      }
    }
    default:
      return {}
  }
}

type Enqueue = { sendTo: (to: string, event: PhoneCommand) => void }

/** A command to the phone, when it runs (a late command of a call being torn down goes nowhere). */
function toPhone(enqueue: unknown, context: WebphoneContext, command: PhoneCommand): void {
  if (context.phoneRunning) (enqueue as Enqueue).sendTo('phone', command)
}

function refOf(context: WebphoneContext, callId: string): CallActorRef | null {
  return context.calls.find((call) => call.id === callId)?.ref ?? null
}

/** Enqueue, as the helpers below use it (the machine's own enqueue, typed loosely outside the setup). */
type LooseEnqueue = {
  (action: string | { type: string; params: unknown }): void
  assign: (values: Partial<WebphoneContext>) => void
  cancel: (id: string) => void
  stopChild: (id: string) => void
  raise: (event: WebphoneEvent, options: { id: string; delay: number }) => void
  spawnChild: (src: 'startAfterService', options: { id: string; input: { uid: string } }) => void
}

/** Spec 000 §4, §7: after-service starts — the stage, the countdown (timed modes), after-service/start. */
function beginAfterService(enqueue: LooseEnqueue, context: WebphoneContext, afterService: AfterService): void {
  if (context.afterService) enqueue('finishAfterService')
  enqueue.cancel(AFTER_SERVICE_TIMER)
  enqueue.stopChild('afterServiceStart')
  enqueue.assign({ afterService, stage: 'after-service' })
  if (afterService.endsAt !== null)
    enqueue.raise({ type: 'AFTER_SERVICE_EXPIRED' }, { id: AFTER_SERVICE_TIMER, delay: Math.max(0, afterService.endsAt - Date.now()) })
  if (afterService.uid) enqueue.spawnChild('startAfterService', { id: 'afterServiceStart', input: { uid: afterService.uid } })
}

const PER_CALL = ['ANSWER', 'HANGUP', 'HOLD', 'UNHOLD', 'MUTE', 'UNMUTE', 'DTMF'] as const

export const webphoneMachine = setup({
  types: {
    context: {} as WebphoneContext,
    events: {} as WebphoneEvent,
    input: {} as WebphoneInput,
  },
  actors: {
    phone: missingCallback<PhoneCommand, PhoneConfig>('webphone', 'phone'),
    call: webphoneCallMachine,
    transfer: webphoneTransferMachine,
    conference: webphoneConferenceMachine,
    /** POST after-service/start/{uid}/ (spec 000 §7); rejects with `code: 'noAfterService'` when the call has none. */
    startAfterService: missingPromise<AfterServiceStartOutput, { uid: string }>('webphone', 'startAfterService'),
  },
  actions: {
    sendSocket: missingAction<SocketMessage>('webphone', 'sendSocket'),
    /** tab-form ?type=hangup&after_service_type=3&after_service_duration= (and the call's form saved, when unsent). */
    afterServiceEnded: missingAction<AfterServiceEnd>('webphone', 'afterServiceEnded'),
    /** tab-form ?type=form&form_id= with the form area's answers (sent once). */
    saveForm: missingAction<{ callId: string; uid: string | null }>('webphone', 'saveForm'),
    /** Before a transfer: an unsent valid form is saved first (spec 000 §5). */
    saveFormBeforeTransfer: enqueueActions(({ context, enqueue }) => {
      const callId = context.currentCallId
      const form = callId ? context.forms[callId] : undefined
      if (!callId || !form || form.sent || !form.valid) return
      enqueue({ type: 'saveForm', params: { callId, uid: form.uid } })
      enqueue.assign({ forms: { ...context.forms, [callId]: { ...form, sent: true } } })
    }),
    refuseTransferForm: enqueueActions(({ enqueue }) =>
      enqueue({ type: 'notify', params: { message: FORM_BEFORE_TRANSFER_NOTICE, severity: 'warning', duration: FORM_BEFORE_TRANSFER_MS } }),
    ),
    notify: missingAction<Notice>('webphone', 'notify'),
    /** The desktop notification of a new incoming call; `actions` false when it is answered automatically. */
    notifyIncoming: missingAction<{ callId: string; phone: string; name: string; actions: boolean }>('webphone', 'notifyIncoming'),
    startPhone: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild('phone')
      enqueue.spawnChild('phone', { id: 'phone', input: phoneConfig(context) })
      enqueue.assign({ phoneRunning: true })
    }),
    /** The phone and every call with it. */
    stopPhone: enqueueActions(({ context, enqueue }) => {
      for (const call of context.calls) enqueue.stopChild(call.ref)
      enqueue.stopChild('transfer')
      enqueue.stopChild('conference')
      enqueue.stopChild('phone')
      enqueue.assign({
        calls: [],
        callStates: {},
        currentCallId: null,
        transfer: null,
        conferenceCallIds: [],
        registration: 'disconnected',
        connected: false,
        stage: 'dialpad',
        phoneRunning: false,
        transferRunning: false,
      })
    }),
    forwardToCall: enqueueActions(({ context, event, enqueue }) => {
      const callId = 'callId' in event ? event.callId : null
      const ref = callId ? refOf(context, callId) : null
      if (!ref) {
        if (callId && (PER_CALL as readonly string[]).includes(event.type)) enqueue.assign({ error: { code: 'session_not_found', message: callId } })
        return
      }
      switch (event.type) {
        case 'DTMF':
          return enqueue.sendTo(ref, { type: 'DTMF', tone: event.tone })
        case 'ANSWER':
        case 'HANGUP':
        case 'HOLD':
        case 'UNHOLD':
        case 'MUTE':
        case 'UNMUTE':
          return enqueue.sendTo(ref, { type: event.type })
        case 'PHONE_PROGRESS':
        case 'PHONE_ACCEPTED':
        case 'PHONE_REPLACED':
        case 'PHONE_ENDED':
          return enqueue.sendTo(ref, event)
      }
    }),
    /** Answering a call puts the others that are talking on hold (outside a conference). */
    holdOthers: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'ANSWER') return
      for (const call of context.calls) {
        const state = context.callStates[call.id]?.state
        if (call.id !== event.callId && !context.conferenceCallIds.includes(call.id) && (state === 'inuse' || state === 'onmute'))
          enqueue.sendTo(call.ref, { type: 'HOLD' })
      }
    }),
    reject: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PHONE_INCOMING') return
      const reason = rejectReason(context) as RejectReason
      toPhone(enqueue, context, { type: 'hangup', callId: event.callId, code: REJECT_CODE, reason })
      enqueue.assign({ lastRejected: { callId: event.callId, phone: event.phone, reason } })
    }),
    register: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PHONE_INCOMING') return
      const callType = Number(header(event.headers, CALL_HEADERS.callType)) || INCOMING_CALL_TYPE
      const name = clientNameOf(event.headers) || event.name
      enqueue.assign({
        calls: ({ context, spawn }) => [
          ...context.calls,
          {
            id: event.callId,
            ref: spawn('call', {
              id: event.callId,
              input: {
                id: event.callId,
                direction: 'incoming',
                phone: event.phone,
                name,
                uid: event.uid || header(event.headers, CALL_HEADERS.uid),
                callType,
                queue: header(event.headers, CALL_HEADERS.queue),
                headers: event.headers,
              },
            }) as CallActorRef,
          },
        ],
        currentCallId: context.currentCallId ?? event.callId,
        // Ringing from the first moment (the call's own report follows): the status never reads busy in between.
        callStates: {
          ...context.callStates,
          [event.callId]: {
            callId: event.callId,
            state: 'ringing',
            accepted: false,
            uid: event.uid || null,
            direction: 'incoming',
            hasMetadata: false,
            answeredAt: null,
            endedAt: null,
            phone: event.phone,
          },
        },
      })
      enqueue({ type: 'notifyIncoming', params: { callId: event.callId, phone: event.phone, name, actions: !context.autoAnswer } })
      if (context.autoAnswer) enqueue.raise({ type: 'ANSWER', callId: event.callId })
    }),
    dial: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'DIAL') return
      const target = dialString(event.number)
      const routeId = event.routeId ?? context.routeId
      const callId = `call-${context.nextCall}`
      const headers: CallHeaders = { ...event.headers, [CALL_HEADERS.phone]: target }
      if (routeId != null) headers[CALL_HEADERS.route] = String(routeId)
      const callType = outgoingCallType(target, event.origin)
      toPhone(enqueue, context, { type: 'call', callId, target, headers: { ...headers, [CALL_HEADERS.callType]: String(callType) } })
      enqueue.assign({
        nextCall: context.nextCall + 1,
        calls: ({ context, spawn }) => [
          ...context.calls,
          {
            id: callId,
            ref: spawn('call', { id: callId, input: { id: callId, direction: 'outgoing', phone: target, callType, headers } }) as CallActorRef,
          },
        ],
        currentCallId: callId,
        stage: 'dialpad',
        routeId,
        error: null,
      })
    }),
    /**
     * The far end transfers us (spec 000 §4 transfer, seen from the transferee): the webphone calls the number the REFER
     * names, holding the call it came from, which it hangs up once the new call is answered (or resumes when it fails).
     * No dial rule applies: the conversation goes on, the agent placed nothing.
     */
    followReferral: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PHONE_REFERRED') return
      const from = refOf(context, event.callId)
      const callId = `call-${context.nextCall}`
      const target = event.target
      // What the agent sees: the destination without our prefixes; a join of a consultation is the same conversation.
      const shown = target.startsWith(BLIND_TRANSFER_PREFIX)
        ? target.slice(BLIND_TRANSFER_PREFIX.length)
        : target.startsWith(ATTENDED_TRANSFER_PREFIX)
          ? String((from?.getSnapshot().context as { phone?: string } | undefined)?.phone ?? '')
          : target
      const callType = outgoingCallType(shown)
      const headers: CallHeaders = { [CALL_HEADERS.phone]: shown }
      if (from && context.callStates[event.callId]?.state === 'inuse') enqueue.sendTo(from, { type: 'HOLD' })
      toPhone(enqueue, context, { type: 'call', callId, target, headers: { ...headers, [CALL_HEADERS.callType]: String(callType) } })
      enqueue.assign({
        nextCall: context.nextCall + 1,
        calls: ({ context, spawn }) => [
          ...context.calls,
          { id: callId, ref: spawn('call', { id: callId, input: { id: callId, direction: 'outgoing', phone: shown, callType, headers } }) as CallActorRef },
        ],
        currentCallId: callId,
        referrals: { ...context.referrals, [callId]: { from: event.callId, answered: false } },
      })
    }),
    refuseDial: enqueueActions(({ enqueue }) => enqueue({ type: 'notify', params: { message: DIAL_REFUSED_NOTICE, severity: 'warning' } })),
    refuseRoute: enqueueActions(({ enqueue }) => enqueue({ type: 'notify', params: { message: ROUTE_REQUIRED_NOTICE, severity: 'warning' } })),
    /** A call changed: its summary, and what its end means for the list, the transfer, the conference, after-service. */
    callChanged: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'CALL_CHANGED') return
      const { summary } = event
      const transfer = context.transfer
      const children = { transfer: context.transferRunning, conference: context.conferenceCallIds.length > 0 }
      const referral = context.referrals[summary.callId]
      // A transfer we followed: answered → the call it came from is over; failed → that call resumes.
      if (referral && !referral.answered && (summary.accepted || summary.state === 'ended')) {
        const from = refOf(context, referral.from)
        if (from) enqueue.sendTo(from, { type: summary.accepted ? 'HANGUP' : 'UNHOLD' })
        enqueue.assign({ referrals: { ...context.referrals, [summary.callId]: { ...referral, answered: summary.accepted } } })
      }
      if (summary.state !== 'ended') {
        enqueue.assign({ callStates: { ...context.callStates, [summary.callId]: summary } })
        if (transfer && summary.callId === transfer.destinationCallId && summary.accepted && children.transfer)
          enqueue.sendTo('transfer', { type: 'DESTINATION_ACCEPTED' })
        return
      }
      const calls = context.calls.filter((call) => call.id !== summary.callId)
      const { [summary.callId]: _gone, ...callStates } = context.callStates
      const currentCallId = context.currentCallId === summary.callId ? (calls[0]?.id ?? null) : context.currentCallId
      enqueue.assign({ calls, callStates, currentCallId })
      if (context.transferredCallIds.includes(summary.callId))
        enqueue.assign({ transferredCallIds: context.transferredCallIds.filter((id) => id !== summary.callId) })
      if (children.transfer && transfer) {
        if (summary.callId === transfer.destinationCallId) enqueue.sendTo('transfer', { type: 'DESTINATION_ENDED' })
        if (summary.callId === transfer.originCallId) enqueue.sendTo('transfer', { type: 'ORIGIN_ENDED' })
      } else if (children.transfer && context.stage === 'transferring') {
        enqueue.sendTo('transfer', { type: 'ORIGIN_ENDED' })
      }
      if (children.conference && context.conferenceCallIds.includes(summary.callId))
        enqueue.sendTo('conference', { type: 'CALL_ENDED', callId: summary.callId })
      const afterService = afterServiceFor(context, summary, phoneOf(context, summary))
      if (!afterService) {
        // No after-service: the call is dropped now, its valid unsent form saved with it.
        const form = context.forms[summary.callId]
        if (form && !form.sent && form.valid) enqueue({ type: 'saveForm', params: { callId: summary.callId, uid: form.uid } })
        if (form) {
          const { [summary.callId]: _dropped, ...forms } = context.forms
          enqueue.assign({ forms })
        }
      }
      if (afterService) beginAfterService(enqueue as unknown as LooseEnqueue, context, afterService)
      else if (context.team?.enable_after_service && summary.accepted)
        // No after-service for this call (a transfer, a conference, a short call): the server, which counts one from
        // every answered call's end, hears at once that there is none.
        enqueue({ type: 'afterServiceEnded', params: { callId: summary.callId, uid: summary.uid, sessionId: null, duration: 0 } })
    }),
    /** The after-service is over (its time, the agent, the server): the server hears it, the stage goes back. */
    finishAfterService: enqueueActions(({ context, enqueue }) => {
      const running = context.afterService
      enqueue.cancel(AFTER_SERVICE_TIMER)
      enqueue.stopChild('afterServiceStart')
      if (!running) return
      const duration = Math.max(0, Math.round((Date.now() - running.startedAt) / 1000))
      // Spec 000 §4: the form is saved at the end of after-service — when valid; an invalid one is skipped.
      const form = context.forms[running.callId]
      if (form && !form.sent && form.valid) enqueue({ type: 'saveForm', params: { callId: running.callId, uid: form.uid } })
      const { [running.callId]: _done, ...forms } = context.forms
      enqueue.assign({ forms })
      enqueue({ type: 'afterServiceEnded', params: { callId: running.callId, uid: running.uid, sessionId: running.sessionId, duration } })
      if (running.sessionId !== null) enqueue({ type: 'sendSocket', params: { action: 'after_service_finished', session_id: running.sessionId } })
      enqueue.assign({ afterService: null, stage: context.stage === 'after-service' || context.stage === 'classification' ? 'dialpad' : context.stage })
    }),
    /** after-service/start answered: its pause report (the socket's after_service_timer), or none needed. */
    afterServiceStarted: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'xstate.done.actor.afterServiceStart' || !context.afterService) return
      const running = context.afterService
      if (event.output.ignore_after_service_dial_status || event.output.id === null) return enqueue('finishAfterService')
      enqueue.assign({ afterService: { ...running, sessionId: event.output.id } })
      enqueue({
        type: 'sendSocket',
        params: {
          action: 'after_service_timer',
          timeout: running.endsAt === null ? 0 : running.duration,
          step_uid: running.uid as string,
          session_id: event.output.id,
        },
      })
    }),
    /** after-service/start failed: 'Esta chamada não tem Pós-atendimento' (info) or 'Erro ao iniciar…'; it ends. */
    afterServiceFailed: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'xstate.error.actor.afterServiceStart' || !context.afterService) return
      const error = event.error as { status?: number; code?: string; message?: string } | null
      if (error?.code === 'noAfterService') enqueue({ type: 'notify', params: { message: NO_AFTER_SERVICE_NOTICE, severity: 'info' } })
      else enqueue({ type: 'notify', params: { message: `${AFTER_SERVICE_START_PREFIX}${error?.message ?? ''}`.trim(), severity: 'error' } })
      enqueue('finishAfterService')
    }),
    startTransfer: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'TRANSFER') return
      const origin = context.currentCallId as string
      const originUid = context.callStates[origin]?.uid ?? null
      const destination = dialString(event.destination)
      const label = event.label || destination
      if (event.transferType === 'blind') {
        enqueue.assign({
          transfer: { type: 'blind', originCallId: origin, destinationCallId: null, destination, label },
          stage: 'transferring',
          transferRunning: true,
        })
        enqueue.spawnChild('transfer', {
          id: 'transfer',
          input: { type: 'blind', originCallId: origin, originUid, destinationCallId: null, destination, app: event.app, appdata: event.appdata },
        })
        return
      }
      const callId = `call-${context.nextCall}`
      const headers: CallHeaders = {
        [CALL_HEADERS.phone]: destination,
        [CALL_HEADERS.transfer]: event.transferType,
        ...(originUid ? { [CALL_HEADERS.parentUid]: originUid } : {}),
      }
      const callType = outgoingCallType(destination)
      const ref = refOf(context, origin)
      if (ref && context.callStates[origin]?.state !== 'onhold') enqueue.sendTo(ref, { type: 'HOLD' })
      toPhone(enqueue, context, { type: 'call', callId, target: destination, headers: { ...headers, [CALL_HEADERS.callType]: String(callType) } })
      enqueue.assign({
        nextCall: context.nextCall + 1,
        calls: ({ context, spawn }) => [
          ...context.calls,
          {
            id: callId,
            ref: spawn('call', {
              id: callId,
              input: { id: callId, direction: 'outgoing', phone: destination, name: event.label ?? '', callType, headers },
            }) as CallActorRef,
          },
        ],
        currentCallId: callId,
        transfer: { type: event.transferType, originCallId: origin, destinationCallId: callId, destination, label },
        stage: event.transferType === 'attend' ? 'transfer-attend' : 'transfer-pendulum',
        transferRunning: true,
      })
      enqueue.spawnChild('transfer', {
        id: 'transfer',
        input: { type: event.transferType, originCallId: origin, originUid, destinationCallId: callId, destination, app: event.app, appdata: event.appdata },
      })
    }),
    /** Cancel: back to the origin, the destination hung up, the dialpad (spec 000 §4). */
    returnToOrigin: enqueueActions(({ context, enqueue }) => {
      const transfer = context.transfer
      if (!transfer) return
      const destination = transfer.destinationCallId ? refOf(context, transfer.destinationCallId) : null
      if (destination) enqueue.sendTo(destination, { type: 'HANGUP' })
      const origin = refOf(context, transfer.originCallId)
      if (origin && context.callStates[transfer.originCallId]?.state === 'onhold') enqueue.sendTo(origin, { type: 'UNHOLD' })
      enqueue.assign({ currentCallId: origin ? transfer.originCallId : (context.calls[0]?.id ?? null), stage: 'dialpad', transfer: null })
    }),
    transferDone: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'xstate.done.actor.transfer') return
      enqueue.stopChild('transfer')
      enqueue.assign({ transferRunning: false, confirmedTransfer: null })
      const { result } = event.output
      if (result === 'cancelled' && context.transfer) {
        enqueue('returnToOrigin')
        return
      }
      if (result === 'failed' && event.output.type === 'blind') {
        enqueue.assign({
          transfer: null,
          stage: 'dialpad',
          currentCallId: context.calls.some((c) => c.id === event.output.originCallId) ? event.output.originCallId : context.currentCallId,
        })
        return
      }
      enqueue.assign({ transfer: null, stage: context.afterService ? 'after-service' : 'dialpad' })
      if (result === 'transferred' && context.calls.some((c) => c.id === event.output.originCallId))
        enqueue.assign({ transferredCallIds: [...context.transferredCallIds, event.output.originCallId] })
    }),
    startConference: enqueueActions(({ context, event, enqueue }) => {
      const callIds = event.type === 'CONFERENCE' || event.type === 'CONFERENCE_START' ? event.callIds.filter((id) => refOf(context, id)) : []
      for (const id of callIds) {
        const state = context.callStates[id]?.state
        if (state === 'onhold') enqueue.sendTo(refOf(context, id) as CallActorRef, { type: 'UNHOLD' })
      }
      enqueue.stopChild('conference')
      enqueue.spawnChild('conference', { id: 'conference', input: { callIds } })
      enqueue.assign({ conferenceCallIds: callIds })
      if (event.type === 'CONFERENCE') enqueue.assign({ stage: 'conference' })
    }),
    applyPause: assign({
      pause: ({ context, event }) =>
        event.type === 'PAUSE_CHANGED'
          ? { allowIncoming: event.allowIncoming, allowOutgoing: event.allowOutgoing, webphonePause: event.webphonePause, pauseSwap: event.pauseSwap }
          : context.pause,
    }),
    applyPanelInput: assign(({ context, event }) => panelInput(context, event)),
  },
  guards: {
    panelChanges: ({ context, event }) => panelFor(context) !== panelFor({ ...context, ...panelInput(context, event) }),
    panelOtherTab: ({ context }) => panelFor(context) === 'otherTab',
    panelMissingPermissions: ({ context }) => panelFor(context) === 'missingPermissions',
    panelOn: ({ context }) => panelFor(context) === 'on',
    mustReject: ({ context }) => rejectReason(context) !== null,
    dialRefused: ({ context, event }) => event.type === 'DIAL' && !dialAllowed(context, !!event.force),
    routeMissing: ({ context, event }) =>
      event.type === 'DIAL' && (context.team?.outbound_routes.length ?? 0) > 1 && (event.routeId ?? context.routeId) == null,
    emptyNumber: ({ event }) => event.type === 'DIAL' && dialString(event.number) === '',
    canTransfer: ({ context, event }) =>
      event.type === 'TRANSFER' &&
      !context.transfer &&
      !!context.currentCallId &&
      !!context.callStates[context.currentCallId]?.accepted &&
      dialString(event.destination) !== '',
    canConference: ({ context, event }) => event.type === 'CONFERENCE' && event.callIds.filter((id) => context.callStates[id]?.accepted).length >= 2,
    hasCalls: ({ context }) => context.calls.length > 0,
    /** Spec 000 §5: the current call's form is unsent and invalid — no transfer. */
    formBlocksTransfer: ({ context }) => {
      const form = context.currentCallId ? context.forms[context.currentCallId] : undefined
      return !!form && !form.sent && !form.valid
    },
    afterServiceEndable: ({ context }) => !!context.afterService && afterServiceEndable(context.afterService.mode, context.afterService.classified),
    knownCall: ({ context, event }) => 'callId' in event && !!refOf(context, event.callId as string),
  },
}).createMachine({
  id: 'webphone',
  context: ({ input }) => ({
    serving: input.serving ?? null,
    permissions: input.permissions ?? null,
    voip: input.voip ?? null,
    team: input.team ?? null,
    wanted: !!input.team?.enable_auto_login_webphone,
    registration: 'disconnected',
    connected: false,
    calls: [],
    callStates: {},
    currentCallId: null,
    stage: 'dialpad',
    dnd: input.dnd ?? false,
    routeId: null,
    busyAt: input.voip?.device_state_busy_at ?? 0,
    autoAnswer: !!input.team?.enable_webphone_auto_answer,
    autoLogin: !!input.team?.enable_auto_login_webphone,
    transfer: null,
    conferenceCallIds: [],
    error: null,
    pause: { allowIncoming: true, allowOutgoing: true, webphonePause: false, pauseSwap: false },
    deviceState: null,
    afterService: null,
    audio: input.audio ?? { input: null, output: null },
    lastRejected: null,
    referrals: {},
    transferredCallIds: [],
    coaching: null,
    nextCall: 1,
    phoneRunning: false,
    transferRunning: false,
    confirmedTransfer: null,
    forms: {},
  }),
  on: {
    SERVING_CHANGED: [{ guard: 'panelChanges', target: '.evaluating', actions: 'applyPanelInput' }, { actions: 'applyPanelInput' }],
    PERMISSIONS: [{ guard: 'panelChanges', target: '.evaluating', actions: 'applyPanelInput' }, { actions: 'applyPanelInput' }],
    PROFILE: [{ guard: 'panelChanges', target: '.evaluating', actions: 'applyPanelInput' }, { actions: 'applyPanelInput' }],
    PAUSE_CHANGED: { actions: 'applyPause' },
    DEVICE_STATE: { actions: assign({ deviceState: ({ event }) => event.state }) },
    SET_DND: { actions: assign({ dnd: ({ event }) => event.dnd }) },
    SET_STAGE: { actions: assign({ stage: ({ event }) => event.stage }) },
    SET_ROUTE: { actions: assign({ routeId: ({ event }) => event.routeId }) },
    SET_AUDIO_DEVICES: {
      actions: [
        assign({ audio: ({ event }) => ({ input: event.input, output: event.output }) }),
        enqueueActions(({ context, event, enqueue }) => toPhone(enqueue, context, { type: 'audioDevices', input: event.input, output: event.output })),
      ],
    },
    AFTER_SERVICE_END: { guard: 'afterServiceEndable', actions: 'finishAfterService' },
    AFTER_SERVICE_EXPIRED: { actions: 'finishAfterService' },
    AFTER_SERVICE_TIMEOUT: {
      guard: ({ context, event }) => !!context.afterService && (event.uid === null || event.uid === context.afterService.uid),
      actions: 'finishAfterService',
    },
    SERVER_PAUSE_STARTED: { guard: ({ context }) => !!context.afterService, actions: 'finishAfterService' },
    CALL_STEP_CHANGED: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        for (const call of context.calls)
          if (context.callStates[call.id]?.uid === event.uid) enqueue.sendTo(call.ref, { type: 'STEP_CHANGED', uid: event.uid, stepUid: event.stepUid })
      }),
    },
    CALL_CLASSIFIED: {
      guard: ({ context, event }) => !!context.afterService && (event.uid === null || event.uid === context.afterService.uid),
      actions: assign({ afterService: ({ context }) => (context.afterService ? { ...context.afterService, classified: true } : null) }),
    },
    CALL_FORM: {
      actions: assign({
        forms: ({ context, event }) => {
          const known = context.forms[event.callId]
          // Sent stays sent: a form is never resent.
          return { ...context.forms, [event.callId]: { uid: event.uid, sent: event.sent || !!known?.sent, valid: event.valid } }
        },
      }),
    },
    'xstate.done.actor.afterServiceStart': { actions: 'afterServiceStarted' },
    'xstate.error.actor.afterServiceStart': { actions: 'afterServiceFailed' },
    SELECT_CALL: { guard: 'knownCall', actions: assign({ currentCallId: ({ event }) => event.callId }) },
  },
  initial: 'evaluating',
  states: {
    // Which panel the context calls for. Re-entered on every input that may change it; `ready` and `starting` are
    // left only when the answer is no longer the phone.
    evaluating: {
      always: [
        { guard: 'panelOtherTab', target: 'otherTab' },
        { guard: 'panelMissingPermissions', target: 'missingPermissions' },
        { guard: 'panelOn', target: 'starting' },
        { target: 'off' },
      ],
    },
    off: {
      entry: 'stopPhone',
      on: { START: { target: 'evaluating', actions: assign({ wanted: true, error: null }) } },
    },
    otherTab: {
      entry: 'stopPhone',
      on: {
        DIAL: { actions: enqueueActions(({ enqueue }) => enqueue({ type: 'notify', params: { message: SERVICE_ELSEWHERE_NOTICE, severity: 'warning' } })) },
      },
    },
    missingPermissions: {
      entry: 'stopPhone',
      // 'Recarregar Webphone': the agent authorised in the browser; the phone tries again.
      on: { RELOAD: { target: 'evaluating', actions: assign({ permissions: null, wanted: true }) } },
    },
    starting: {
      entry: 'startPhone',
      on: {
        PHONE_STARTED: { target: 'ready' },
        PHONE_FAILED: [
          {
            guard: ({ event }) => event.code === 'media',
            target: 'missingPermissions',
            actions: assign({ permissions: ({ context }) => ({ audio: false, notifications: context.permissions?.notifications ?? true }) }),
          },
          { target: 'off', actions: assign({ wanted: false, error: ({ event }) => ({ code: event.code, message: event.message }) }) },
        ],
        STOP: { target: 'off', actions: assign({ wanted: false }) },
        PHONE_COMMAND: { actions: enqueueActions(({ context, event, enqueue }) => toPhone(enqueue, context, event.command)) },
      },
    },
    ready: {
      type: 'parallel',
      exit: assign({ coaching: null }),
      on: {
        PHONE_COACHING: { actions: assign({ coaching: ({ event }) => event.coaching }) },
        STOP: { guard: ({ context }) => context.calls.length === 0, target: 'off', actions: assign({ wanted: false }) },
        RELOAD: { guard: ({ context }) => context.calls.length === 0, target: 'starting', actions: 'stopPhone' },
        PHONE_FAILED: { target: 'off', actions: assign({ wanted: false, error: ({ event }) => ({ code: event.code, message: event.message }) }) },
        PHONE_INCOMING: [{ guard: 'mustReject', actions: 'reject' }, { actions: 'register' }],
        PHONE_PROGRESS: { actions: 'forwardToCall' },
        PHONE_ACCEPTED: { actions: 'forwardToCall' },
        PHONE_REPLACED: { actions: 'forwardToCall' },
        PHONE_REFERRED: { guard: 'knownCall', actions: 'followReferral' },
        PHONE_ENDED: { actions: 'forwardToCall' },
        PHONE_TRANSFERRED: {
          actions: enqueueActions(({ context, event, enqueue }) => {
            if (context.transferRunning) enqueue.sendTo('transfer', event)
            // A refused confirm: the transfer is back, with its confirm and cancel.
            const confirmed = context.confirmedTransfer
            if (!event.ok && confirmed)
              enqueue.assign({ transfer: confirmed, confirmedTransfer: null, stage: confirmed.type === 'attend' ? 'transfer-attend' : 'transfer-pendulum' })
          }),
        },
        PHONE_ERROR: { actions: assign({ error: ({ event }) => ({ code: event.code, message: event.message }) }) },
        PHONE_COMMAND: { actions: enqueueActions(({ context, event, enqueue }) => toPhone(enqueue, context, event.command)) },
        CALL_CHANGED: { actions: 'callChanged' },
        CALL_SOCKET: { actions: { type: 'sendSocket', params: ({ event }) => event.message } },
        TRANSFER_NOTICE: { actions: { type: 'notify', params: ({ event }) => event.notice } },
        DIAL: [
          { guard: 'dialRefused', actions: 'refuseDial' },
          { guard: 'routeMissing', actions: 'refuseRoute' },
          { guard: 'emptyNumber' },
          { actions: 'dial' },
        ],
        ANSWER: { actions: ['holdOthers', 'forwardToCall'] },
        HANGUP: { actions: 'forwardToCall' },
        HOLD: { actions: 'forwardToCall' },
        UNHOLD: { actions: 'forwardToCall' },
        MUTE: { actions: 'forwardToCall' },
        UNMUTE: { actions: 'forwardToCall' },
        DTMF: { actions: 'forwardToCall' },
        TRANSFER: [
          { guard: and(['canTransfer', 'formBlocksTransfer']), actions: 'refuseTransferForm' },
          { guard: 'canTransfer', actions: ['saveFormBeforeTransfer', 'startTransfer'] },
        ],
        TRANSFER_CONFIRM: {
          guard: ({ context }) => !!context.transfer && context.transfer.type !== 'blind',
          actions: [
            enqueueActions(({ enqueue }) => enqueue.sendTo('transfer', { type: 'CONFIRM' })),
            assign({ confirmedTransfer: ({ context }) => context.transfer, transfer: null, stage: 'transferring' }),
          ],
        },
        TRANSFER_CANCEL: {
          guard: ({ context }) => !!context.transfer && context.transfer.type !== 'blind',
          actions: [enqueueActions(({ enqueue }) => enqueue.sendTo('transfer', { type: 'CANCEL' })), 'returnToOrigin'],
        },
        'xstate.done.actor.transfer': { actions: 'transferDone' },
        CONFERENCE: { guard: 'canConference', actions: 'startConference' },
        CONFERENCE_START: { actions: 'startConference' },
        CONFERENCE_END: {
          // The mixing stops at once (before a pendulum's REFER goes out); the conference then ends itself.
          actions: enqueueActions(({ context, enqueue }) => {
            if (context.conferenceCallIds.length === 0) return
            toPhone(enqueue, context, { type: 'conference', callIds: [] })
            enqueue.sendTo('conference', { type: 'END' })
          }),
        },
        'xstate.done.actor.conference': {
          actions: [
            stopChild('conference'),
            assign({ conferenceCallIds: [], stage: ({ context }) => (context.stage === 'conference' ? 'dialpad' : context.stage) }),
          ],
        },
        PHONE_TRANSPORT: [
          { guard: ({ event }) => !event.connected, target: '.registration.disconnected' },
          { guard: ({ context }) => context.registration === 'registered', actions: assign({ connected: true }) },
          { target: '.registration.connecting', actions: assign({ connected: true }) },
        ],
        PHONE_REGISTRATION: [
          { guard: ({ event }) => event.state === 'registered', target: '.registration.registered' },
          { guard: ({ event }) => event.state === 'unregistered', target: '.registration.unregistered' },
          { target: '.registration.registrationFailed' },
        ],
      },
      states: {
        registration: {
          initial: 'connecting',
          states: {
            // The transport is connecting, or connected and the REGISTER not answered yet.
            connecting: { entry: assign({ registration: ({ context }) => (context.connected ? 'connected' : 'disconnected') }) },
            registered: { entry: assign({ registration: 'registered', connected: true }) },
            unregistered: { entry: assign({ registration: 'unregistered' }) },
            registrationFailed: { entry: assign({ registration: 'registrationFailed' }) },
            disconnected: { entry: assign({ registration: 'disconnected', connected: false }) },
          },
        },
      },
    },
  },
})

/** Spec 000 §4 after-service: on when the team enables it, the call was not transferred and the stage allows it. */
function afterServiceFor(context: WebphoneContext, ended: CallSummary, phone: string): AfterService | null {
  const team = context.team
  if (!team?.enable_after_service || NO_AFTER_SERVICE_STAGES.includes(context.stage)) return null
  if (context.transfer && (ended.callId === context.transfer.originCallId || ended.callId === context.transfer.destinationCallId)) return null
  if (context.confirmedTransfer && ended.callId === context.confirmedTransfer.originCallId) return null
  if (context.transferredCallIds.includes(ended.callId)) return null
  // A call we left by following the far end's transfer: the conversation goes on in the new call.
  if (Object.values(context.referrals).some((referral) => referral.from === ended.callId && referral.answered)) return null
  // A call of a conference still mixing others: the conversation goes on.
  if (context.conferenceCallIds.includes(ended.callId) && context.calls.length > 1) return null
  if (!ended.accepted && team.ignore_after_service_unaccepted) return null
  const seconds = ended.answeredAt != null && ended.endedAt != null ? (ended.endedAt - ended.answeredAt) / 1000 : 0
  if (ended.accepted && seconds < (team.ignore_after_service_with_duration_shorter_than ?? 0)) return null
  const duration = team.duration_of_after_service ?? 0
  const mode = afterServiceMode(team.after_service_mode)
  const startedAt = ended.endedAt ?? Date.now()
  return {
    callId: ended.callId,
    uid: ended.uid,
    phone,
    duration,
    startedAt,
    endsAt: afterServiceTimed(mode) ? startedAt + duration * 1000 : null,
    mode,
    sessionId: null,
    classified: false,
  }
}

/** The number of a call the webphone holds (before it drops it): its last report, else what it was registered with. */
function phoneOf(context: WebphoneContext, summary: CallSummary): string {
  return summary.phone ?? context.callStates[summary.callId]?.phone ?? ''
}

export type WebphoneActorRef = ActorRefFrom<typeof webphoneMachine>
