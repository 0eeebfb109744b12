import { setup, assign, enqueueActions } from 'xstate'
import { missingAction } from './effects.ts'
import { statusInputTransitions, statusStates } from './statusStates.ts'
import { endpointStatusLabel } from '../contract/codes/states.ts'
import { DEFAULT_LOCALE, type Locale } from '../contract/locales.ts'
import type { AgentStatus, RegistrationState, SocketMessage } from './types.ts'

// Agent (webphone) status — spec 000 §4 "Webphone state" (aggregate status) and §7 (change_state on the status
// feed), spec 001 §7 (the phone status posted to a parent window for embedding).
// The machine sits in one state per status; each input changes its context, and when the aggregate status changes it
// enters the new status, which sends change_state on the socket and posts { status, text, token, endpoint } to the
// parent window. The telephony inputs (registration, transport, calls, ringing, after-service) come from the webphone
// actors of a later issue; the pause inputs from the pause actor; do-not-disturb from the socket's `dnd` and the pause.

/**
 * Precedence, highest first. The spec lists the statuses as successive overrides ("not_inuse by default; unavailable
 * if …; busy when …; ringing when …; after_service when …; paused if …; do_not_disturb when …"), so the last listed
 * wins: do_not_disturb > paused > after_service > ringing > busy > unavailable > not_inuse.
 */
export const AGENT_STATUS_PRECEDENCE = [
  'do_not_disturb',
  'paused',
  'after_service',
  'ringing',
  'busy',
  'unavailable',
  'not_inuse',
] as const satisfies readonly AgentStatus[]

export type AgentStatusInputs = {
  /** SIP registration of the webphone. */
  registration: RegistrationState
  /** The SIP transport (the phone's websocket) is connected. */
  connected: boolean
  /** Calls the webphone holds, ringing ones included. */
  calls: number
  /** Incoming calls waiting to be answered. */
  ringing: number
  /** A call is in after-service. */
  afterService: boolean
  /** The current pause enables the webphone. */
  webphonePause: boolean
  /** A pause swap ('Trocar') is between its stop and its start. */
  pauseSwap: boolean
  /** Do-not-disturb is on. */
  dnd: boolean
}

export const INITIAL_AGENT_STATUS_INPUTS: AgentStatusInputs = {
  registration: 'disconnected',
  connected: false,
  calls: 0,
  ringing: 0,
  afterService: false,
  webphonePause: false,
  pauseSwap: false,
  dnd: false,
}

/** The aggregate status of spec 000 §4, by the precedence above. */
export function computeAgentStatus(inputs: AgentStatusInputs): AgentStatus {
  if (inputs.dnd) return 'do_not_disturb'
  if (inputs.webphonePause || inputs.pauseSwap) return 'paused'
  if (inputs.afterService) return 'after_service'
  if (inputs.ringing > 0) return 'ringing'
  if (inputs.calls > 0) return 'busy'
  if (inputs.registration !== 'registered' || !inputs.connected) return 'unavailable'
  return 'not_inuse'
}

/** What the embedding page receives (spec 000 §4, 001 §7). */
export type ParentStatusMessage = { status: AgentStatus; text: string; token: string | null; endpoint: string | null }

export type AgentStatusEvent =
  | { type: 'REGISTRATION_CHANGED'; registration: RegistrationState }
  | { type: 'TRANSPORT_CHANGED'; connected: boolean }
  | { type: 'CALLS_CHANGED'; calls: number; ringing: number }
  | { type: 'AFTER_SERVICE_CHANGED'; active: boolean }
  | { type: 'PAUSE_CHANGED'; webphonePause: boolean; pauseSwap: boolean }
  | { type: 'DND_CHANGED'; dnd: boolean }
  | { type: 'RESEND' } // after the status feed reconnects

export type AgentStatusContext = AgentStatusInputs & {
  status: AgentStatus | null
  token: string | null
  endpoint: string | null
  /** The language of the `text` posted to the parent window. */
  locale: Locale
}

export type AgentStatusInput = Partial<AgentStatusInputs> & { token?: string | null; endpoint?: string | null; locale?: Locale }

/** The inputs after one event (the same rule for the guard and the update). */
export function applyAgentStatusEvent(inputs: AgentStatusInputs, event: AgentStatusEvent): AgentStatusInputs {
  switch (event.type) {
    case 'REGISTRATION_CHANGED':
      return { ...inputs, registration: event.registration }
    case 'TRANSPORT_CHANGED':
      return { ...inputs, connected: event.connected }
    case 'CALLS_CHANGED':
      return { ...inputs, calls: Math.max(0, event.calls), ringing: Math.max(0, event.ringing) }
    case 'AFTER_SERVICE_CHANGED':
      return { ...inputs, afterService: event.active }
    case 'PAUSE_CHANGED':
      return { ...inputs, webphonePause: event.webphonePause, pauseSwap: event.pauseSwap }
    case 'DND_CHANGED':
      return { ...inputs, dnd: event.dnd }
    case 'RESEND':
      return inputs
  }
}

const INPUT_EVENTS = ['REGISTRATION_CHANGED', 'TRANSPORT_CHANGED', 'CALLS_CHANGED', 'AFTER_SERVICE_CHANGED', 'PAUSE_CHANGED', 'DND_CHANGED'] as const

export const agentStatusMachine = setup({
  types: {
    context: {} as AgentStatusContext,
    events: {} as AgentStatusEvent,
    input: {} as AgentStatusInput,
  },
  actions: {
    sendSocket: missingAction<SocketMessage>('agentStatus', 'sendSocket'),
    postToParent: missingAction<ParentStatusMessage>('agentStatus', 'postToParent'),
    applyInput: assign(({ context, event }) => applyAgentStatusEvent(context, event)),
    /** The status feed and the embedding page learn the current status. */
    report: enqueueActions(({ context, enqueue }) => {
      const { status, token, endpoint, locale } = context
      if (!status) return
      enqueue({ type: 'sendSocket', params: { action: 'change_state', channel: 'telephony', status } })
      enqueue({ type: 'postToParent', params: { status, text: endpointStatusLabel(status, locale), token, endpoint } })
    }),
  },
  guards: {
    changesStatus: ({ context, event }) => computeAgentStatus(applyAgentStatusEvent(context, event)) !== context.status,
  },
}).createMachine({
  id: 'agentStatus',
  context: ({ input }) => ({
    ...INITIAL_AGENT_STATUS_INPUTS,
    ...input,
    status: null,
    token: input.token ?? null,
    endpoint: input.endpoint ?? null,
    locale: input.locale ?? DEFAULT_LOCALE,
  }),
  on: { ...statusInputTransitions(INPUT_EVENTS), RESEND: { actions: 'report' } },
  ...statusStates(AGENT_STATUS_PRECEDENCE, computeAgentStatus),
})
