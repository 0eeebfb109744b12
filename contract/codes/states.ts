import type { Locale } from '../locales.ts'
import { localize } from './localize.ts'

// Spec 000 §4 and spec 001 §4 — the SIP registration state of the webphone and the status of an endpoint (agent)
// as shown on badges, sent over the status feed and watched by supervisors.

/** Joy UI colour palettes, named here so contract stays free of React; a badge passes it as `color`. */
export type BadgeColor = 'primary' | 'neutral' | 'success' | 'warning' | 'danger'

export const REGISTRATION_STATES = ['connected', 'registered', 'unregistered', 'registrationFailed', 'disconnected'] as const
export type RegistrationState = (typeof REGISTRATION_STATES)[number]

export const REGISTRATION_STATE_LABELS = {
  connected: { 'pt-BR': 'Conectado', 'en-US': 'Connected', 'es-ES': 'Conectado' },
  registered: { 'pt-BR': 'Registrado', 'en-US': 'Registered', 'es-ES': 'Registrado' },
  unregistered: { 'pt-BR': 'Não registrado', 'en-US': 'Not registered', 'es-ES': 'No registrado' },
  registrationFailed: { 'pt-BR': 'Falha no registro', 'en-US': 'Registration failed', 'es-ES': 'Error de registro' },
  disconnected: { 'pt-BR': 'Desconectado', 'en-US': 'Disconnected', 'es-ES': 'Desconectado' },
} as const satisfies Record<RegistrationState, Record<Locale, string>>

// Connected means the socket is up but the phone is not registered yet, hence not green.
export const REGISTRATION_STATE_COLORS = {
  connected: 'primary',
  registered: 'success',
  unregistered: 'warning',
  registrationFailed: 'danger',
  disconnected: 'danger',
} as const satisfies Record<RegistrationState, BadgeColor>

/** Spec 001 §4: with one of these the web chat is unavailable. */
export const REGISTRATION_DOWN_STATES = ['registrationFailed', 'unregistered', 'disconnected'] as const satisfies readonly RegistrationState[]

export function isRegistrationState(value: unknown): value is RegistrationState {
  return typeof value === 'string' && (REGISTRATION_STATES as readonly string[]).includes(value)
}

export function isRegistrationDown(state: RegistrationState | null | undefined): boolean {
  return !!state && (REGISTRATION_DOWN_STATES as readonly string[]).includes(state)
}

export function registrationStateLabel(state: string | null | undefined, locale?: Locale | string | null): string {
  return isRegistrationState(state) ? localize(REGISTRATION_STATE_LABELS[state], locale) : ''
}

export const ENDPOINT_STATUSES = [
  'unknown',
  'not_inuse',
  'inuse',
  'busy',
  'invalid',
  'unavailable',
  'ringing',
  'ringinuse',
  'onhold',
  'onmute',
  'inconference',
  'after_service',
  'click_to_call',
  'in_activity',
  'paused',
  'blocked',
  'do_not_disturb',
] as const
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number]

export const ENDPOINT_STATUS_LABELS = {
  unknown: { 'pt-BR': 'Desconhecido', 'en-US': 'Unknown', 'es-ES': 'Desconocido' },
  not_inuse: { 'pt-BR': 'Disponível', 'en-US': 'Available', 'es-ES': 'Disponible' },
  inuse: { 'pt-BR': 'Em ligação', 'en-US': 'On a call', 'es-ES': 'En llamada' },
  busy: { 'pt-BR': 'Ocupado', 'en-US': 'Busy', 'es-ES': 'Ocupado' },
  invalid: { 'pt-BR': 'Inválido', 'en-US': 'Invalid', 'es-ES': 'No válido' },
  unavailable: { 'pt-BR': 'Indisponível', 'en-US': 'Unavailable', 'es-ES': 'No disponible' },
  ringing: { 'pt-BR': 'Chamando', 'en-US': 'Ringing', 'es-ES': 'Sonando' },
  ringinuse: { 'pt-BR': 'Chamando em ligação', 'en-US': 'Ringing while on a call', 'es-ES': 'Sonando en llamada' },
  onhold: { 'pt-BR': 'Em espera', 'en-US': 'On hold', 'es-ES': 'En espera' },
  onmute: { 'pt-BR': 'Mudo', 'en-US': 'Muted', 'es-ES': 'Silenciado' },
  inconference: { 'pt-BR': 'Em conferência', 'en-US': 'In conference', 'es-ES': 'En conferencia' },
  after_service: { 'pt-BR': 'Pós-atendimento', 'en-US': 'After-service', 'es-ES': 'Posatención' },
  click_to_call: { 'pt-BR': 'Clique para ligar', 'en-US': 'Click-to-call', 'es-ES': 'Clic para llamar' },
  in_activity: { 'pt-BR': 'Em atividade', 'en-US': 'In an activity', 'es-ES': 'En actividad' },
  paused: { 'pt-BR': 'Em pausa', 'en-US': 'On a break', 'es-ES': 'En pausa' },
  blocked: { 'pt-BR': 'Bloqueado', 'en-US': 'Blocked', 'es-ES': 'Bloqueado' },
  do_not_disturb: { 'pt-BR': 'Não perturbe', 'en-US': 'Do not disturb', 'es-ES': 'No molestar' },
} as const satisfies Record<EndpointStatus, Record<Locale, string>>

// Green only when the agent can take work; amber for states that end by themselves (ringing, hold, after-service,
// a break); red when the agent cannot be reached; blue while working a call.
export const ENDPOINT_STATUS_COLORS = {
  unknown: 'neutral',
  not_inuse: 'success',
  inuse: 'primary',
  busy: 'danger',
  invalid: 'neutral',
  unavailable: 'neutral',
  ringing: 'warning',
  ringinuse: 'warning',
  onhold: 'warning',
  onmute: 'primary',
  inconference: 'primary',
  after_service: 'warning',
  click_to_call: 'primary',
  in_activity: 'primary',
  paused: 'warning',
  blocked: 'danger',
  do_not_disturb: 'danger',
} as const satisfies Record<EndpointStatus, BadgeColor>

export function isEndpointStatus(value: unknown): value is EndpointStatus {
  return typeof value === 'string' && (ENDPOINT_STATUSES as readonly string[]).includes(value)
}

/** The label of a status; other call status values are not shown (spec 000 §4), so they read ''. */
export function endpointStatusLabel(status: string | null | undefined, locale?: Locale | string | null): string {
  return isEndpointStatus(status) ? localize(ENDPOINT_STATUS_LABELS[status], locale) : ''
}

/** The badge colour of a status; neutral for values that are not statuses. */
export function endpointStatusColor(status: string | null | undefined): BadgeColor {
  return isEndpointStatus(status) ? ENDPOINT_STATUS_COLORS[status] : 'neutral'
}
