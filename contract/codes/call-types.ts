import type { Locale } from '../locales.ts'
import { codeLabel, toCode, type Texts } from './localize.ts'

// Spec 000 §4 and §9, spec 001 §4 and §9 — the type of a call (or chat step), carried in the call_type header of
// incoming calls and in call and chat records.
export const CALL_TYPE = {
  activeManual: 10,
  clickToCall: 11,
  // The spec names two dialer codes without telling them apart; both read "Dialer".
  dialer: 12,
  dialerAlt: 14,
  preview: 18,
  systemic: 19,
  inbound: 20,
  inboundDdr: 21,
  internalInbound: 30,
  internalOutbound: 31,
} as const

export type CallType = (typeof CALL_TYPE)[keyof typeof CALL_TYPE]

const DIALER: Texts = { 'pt-BR': 'Discador', 'en-US': 'Dialer', 'es-ES': 'Marcador' }

export const CALL_TYPE_LABELS = {
  10: { 'pt-BR': 'Ativa manual', 'en-US': 'Manual outbound', 'es-ES': 'Saliente manual' },
  11: { 'pt-BR': 'Clique para ligar', 'en-US': 'Click-to-call', 'es-ES': 'Clic para llamar' },
  12: DIALER,
  14: DIALER,
  18: { 'pt-BR': 'Preview', 'en-US': 'Preview', 'es-ES': 'Vista previa' },
  19: { 'pt-BR': 'Sistêmica', 'en-US': 'Systemic', 'es-ES': 'Sistémica' },
  20: { 'pt-BR': 'Receptiva', 'en-US': 'Inbound', 'es-ES': 'Entrante' },
  21: { 'pt-BR': 'Receptiva DDR', 'en-US': 'Inbound DDR', 'es-ES': 'Entrante DDR' },
  30: { 'pt-BR': 'Interna recebida', 'en-US': 'Internal inbound', 'es-ES': 'Interna entrante' },
  31: { 'pt-BR': 'Interna realizada', 'en-US': 'Internal outbound', 'es-ES': 'Interna saliente' },
} as const satisfies Record<CallType, Record<Locale, string>>

/** Every known call type, ascending. */
export const CALL_TYPES: readonly CallType[] = Object.values(CALL_TYPE).sort((a, b) => a - b)

export function isCallType(code: unknown): code is CallType {
  return typeof code === 'number' && Object.hasOwn(CALL_TYPE_LABELS, code)
}

/** The label of a call type; an unknown code is shown raw, an absent one as ''. */
export function callTypeLabel(code: number | string | null | undefined, locale?: Locale | string | null): string {
  return codeLabel(CALL_TYPE_LABELS, code, locale)
}

// The groups are ranges: a code the spec does not list (13, say) still belongs to the range it falls in. `kind` is
// how a team's enable_classifications names the group.
export const CALL_TYPE_GROUPS = {
  outgoing: { min: 10, max: 19, kind: '10-19', label: { 'pt-BR': 'Ativas', 'en-US': 'Outgoing', 'es-ES': 'Salientes' } },
  incoming: { min: 20, max: 21, kind: '20-21', label: { 'pt-BR': 'Receptivas', 'en-US': 'Incoming', 'es-ES': 'Entrantes' } },
  internal: { min: 30, max: 31, kind: '30-31', label: { 'pt-BR': 'Internas', 'en-US': 'Internal', 'es-ES': 'Internas' } },
} as const satisfies Record<string, { min: number; max: number; kind: string; label: Record<Locale, string> }>

export type CallTypeGroup = keyof typeof CALL_TYPE_GROUPS

const GROUP_NAMES = Object.keys(CALL_TYPE_GROUPS) as CallTypeGroup[]

/** outgoing (10-19), incoming (20-21) or internal (30-31); undefined outside those ranges. */
export function callTypeGroup(code: number | string | null | undefined): CallTypeGroup | undefined {
  const n = toCode(code)
  if (n === undefined) return undefined
  return GROUP_NAMES.find((group) => n >= CALL_TYPE_GROUPS[group].min && n <= CALL_TYPE_GROUPS[group].max)
}

/**
 * Spec 001 §5: classification is required when the call type matches one of the team's enabled kinds — a group
 * range ('10-19', '20-21', '30-31') or a call type listed directly (12 or '12').
 */
export function callTypeMatchesKinds(code: number | string | null | undefined, kinds: readonly (string | number)[] | null | undefined): boolean {
  const n = toCode(code)
  if (n === undefined || !kinds) return false
  return kinds.some((kind) => {
    const range = typeof kind === 'string' ? /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(kind) : null
    if (range) return n >= Number(range[1]) && n <= Number(range[2])
    return toCode(kind) === n
  })
}

/** 5-digit internal extensions (10000-99999) are dialled as internal outbound calls (spec 000 §9). */
export const INTERNAL_EXTENSION_MIN = 10000
export const INTERNAL_EXTENSION_MAX = 99999

/**
 * The call type of an outgoing call to a destination: 31 for an internal extension, 10 for anything else. The
 * destination must be exactly five digits (surrounding spaces ignored); '01234' is below the range and dials out.
 */
export function outgoingCallType(destination: string | number | null | undefined): CallType {
  const text = typeof destination === 'number' ? String(destination) : (destination ?? '').trim()
  if (!/^\d{5}$/.test(text)) return CALL_TYPE.activeManual
  const n = Number(text)
  return n >= INTERNAL_EXTENSION_MIN && n <= INTERNAL_EXTENSION_MAX ? CALL_TYPE.internalOutbound : CALL_TYPE.activeManual
}

/** Chats of these types are outgoing: a paused agent still accepts them when the pause allows outgoing chats. */
export const CHAT_OUTGOING_TYPES = [CALL_TYPE.activeManual, CALL_TYPE.clickToCall, CALL_TYPE.internalOutbound] as const

export function isOutgoingChatType(code: number | string | null | undefined): boolean {
  const n = toCode(code)
  return n !== undefined && (CHAT_OUTGOING_TYPES as readonly number[]).includes(n)
}
