import { setup, assign, enqueueActions } from 'xstate'
import { missingAction } from './effects.ts'
import { statusInputTransitions, statusStates } from './statusStates.ts'
import { isRegistrationDown } from '../contract/codes/states.ts'
import type { RegistrationState, SocketMessage, WebchatStatus } from './types.ts'

// Webchat status — spec 001 §4 "Webchat status" (and the chat flags of a pause, §3).
// Starts unavailable; paused if the current pause enables the webchat; busy when the open (not ended) chats reach the
// team's chat_limit_per_user; unavailable when the webchat registration failed, is unregistered or disconnected;
// otherwise not_inuse. The spec writes it as an if/else chain, so the first rule that holds wins:
// paused > busy > unavailable > not_inuse. Every change is sent on the status feed.

export const WEBCHAT_STATUS_PRECEDENCE = ['paused', 'busy', 'unavailable', 'not_inuse'] as const satisfies readonly WebchatStatus[]

export type WebchatStatusInputs = {
  /** The webchat registry state (the chat socket's registration). */
  registration: RegistrationState
  /** The current pause enables the webchat. */
  webchatPause: boolean
  /** Chats assigned to the agent that have not ended. */
  openChats: number
  /** The team's chat_limit_per_user; 0 or null means no limit (ours: the spec does not say). */
  chatLimit: number | null
}

export const INITIAL_WEBCHAT_STATUS_INPUTS: WebchatStatusInputs = {
  registration: 'disconnected',
  webchatPause: false,
  openChats: 0,
  chatLimit: null,
}

export function computeWebchatStatus(inputs: WebchatStatusInputs): WebchatStatus {
  if (inputs.webchatPause) return 'paused'
  if (inputs.chatLimit && inputs.chatLimit > 0 && inputs.openChats >= inputs.chatLimit) return 'busy'
  if (isRegistrationDown(inputs.registration)) return 'unavailable'
  return 'not_inuse'
}

export type WebchatStatusEvent =
  | { type: 'REGISTRATION_CHANGED'; registration: RegistrationState }
  | { type: 'PAUSE_CHANGED'; webchatPause: boolean }
  | { type: 'CHATS_CHANGED'; openChats: number }
  | { type: 'LIMIT_CHANGED'; chatLimit: number | null }
  | { type: 'RESEND' } // after the status feed reconnects

export type WebchatStatusContext = WebchatStatusInputs & { status: WebchatStatus | null }

export function applyWebchatStatusEvent(inputs: WebchatStatusInputs, event: WebchatStatusEvent): WebchatStatusInputs {
  switch (event.type) {
    case 'REGISTRATION_CHANGED':
      return { ...inputs, registration: event.registration }
    case 'PAUSE_CHANGED':
      return { ...inputs, webchatPause: event.webchatPause }
    case 'CHATS_CHANGED':
      return { ...inputs, openChats: Math.max(0, event.openChats) }
    case 'LIMIT_CHANGED':
      return { ...inputs, chatLimit: event.chatLimit }
    case 'RESEND':
      return inputs
  }
}

const INPUT_EVENTS = ['REGISTRATION_CHANGED', 'PAUSE_CHANGED', 'CHATS_CHANGED', 'LIMIT_CHANGED'] as const

export const webchatStatusMachine = setup({
  types: {
    context: {} as WebchatStatusContext,
    events: {} as WebchatStatusEvent,
    input: {} as Partial<WebchatStatusInputs>,
  },
  actions: {
    sendSocket: missingAction<SocketMessage>('webchatStatus', 'sendSocket'),
    applyInput: assign(({ context, event }) => applyWebchatStatusEvent(context, event)),
    report: enqueueActions(({ context, enqueue }) => {
      if (context.status) enqueue({ type: 'sendSocket', params: { action: 'change_state', channel: 'chat', status: context.status } })
    }),
  },
  guards: {
    changesStatus: ({ context, event }) => computeWebchatStatus(applyWebchatStatusEvent(context, event)) !== context.status,
  },
}).createMachine({
  id: 'webchatStatus',
  context: ({ input }) => ({ ...INITIAL_WEBCHAT_STATUS_INPUTS, ...input, status: null }),
  on: { ...statusInputTransitions(INPUT_EVENTS), RESEND: { actions: 'report' } },
  ...statusStates(WEBCHAT_STATUS_PRECEDENCE, computeWebchatStatus),
})
