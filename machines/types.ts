import type { EndpointStatus } from '../contract/codes/states.ts'

// Shapes shared by the presence machines. Registration states, endpoint statuses and their labels come from
// contract/codes/states.ts, the socket message shape from contract/realtime/.

export type { RegistrationState } from '../contract/codes/states.ts'

/** The aggregate webphone status an agent can be in (spec 000 §4): a subset of the endpoint statuses. */
export type AgentStatus = Extract<EndpointStatus, 'not_inuse' | 'unavailable' | 'busy' | 'ringing' | 'after_service' | 'paused' | 'do_not_disturb'>

/** The webchat status of spec 001 §4. */
export type WebchatStatus = Extract<EndpointStatus, 'not_inuse' | 'unavailable' | 'busy' | 'paused'>

/** One frame on the service socket (/ws/business/) before its action is known: `{ action: 'start_pause', id: 12 }`. */
export type { SocketMessage } from '../contract/realtime/service-socket.ts'

/** A toast or notice for the view; `message` is the spec's pt-BR text, translated by the view through Lingui. */
export type Notice = { message: string; severity: 'info' | 'warning' | 'error'; /** ms on screen (the toast's default otherwise) */ duration?: number }

/** Field errors in the DRF shape the API answers with (`{password: ['...']}`). */
export type FieldErrors = Record<string, string[]>
