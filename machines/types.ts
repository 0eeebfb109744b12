import type { EndpointStatus } from '../contract/codes/states.ts'

// Shapes shared by the presence machines. Registration states, endpoint statuses and their labels come from
// contract/codes/states.ts; the socket message shape belongs in contract/realtime/ once that exists.

export type { RegistrationState } from '../contract/codes/states.ts'

/** The aggregate webphone status an agent can be in (spec 000 §4): a subset of the endpoint statuses. */
export type AgentStatus = Extract<
  EndpointStatus,
  'not_inuse' | 'unavailable' | 'busy' | 'ringing' | 'after_service' | 'paused' | 'do_not_disturb'
>

/** The webchat status of spec 001 §4. */
export type WebchatStatus = Extract<EndpointStatus, 'not_inuse' | 'unavailable' | 'busy' | 'paused'>

/**
 * One message on the service socket (/ws/business/): the action name plus its fields. Spec 000 §7 and 001 §7 name the
 * actions but not the payloads, so the fields are ours: `{ action: 'start_pause', id: 12 }`.
 */
export type SocketMessage = { action: string; [field: string]: unknown }

/** A toast or notice for the view; `message` is the spec's pt-BR text, translated by the view through Lingui. */
export type Notice = { message: string; severity: 'info' | 'warning' | 'error' }

/** Field errors in the DRF shape the API answers with (`{password: ['...']}`). */
export type FieldErrors = Record<string, string[]>
