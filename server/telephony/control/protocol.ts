import * as v from 'valibot'
import type { CallEvent, FailureRequest, RegistrationEvent, RelayDecision, RouteDecision, RouteRequest } from '../types.ts'

// What Kamailio sends call control over evapi (server/telephony/types.ts, the lead's design), parsed before use:
// a malformed frame is refused (route → 400 reject) instead of half-read.

const Int = v.pipe(v.number(), v.integer())
const Text = (max: number) => v.pipe(v.string(), v.maxLength(max))

export const RouteRequestSchema = v.object({
  event: v.literal('route'),
  tindex: Int,
  tlabel: Int,
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  from_user: Text(80),
  from_domain: Text(253),
  ruri_user: Text(80),
  ruri_domain: Text(253),
  src_ip: Text(64),
  src_port: Int,
  transport: v.picklist(['ws', 'wss', 'udp', 'tcp', 'tls']),
  source: v.picklist(['device', 'trunk', 'media']),
  trunk_id: v.nullable(Int),
  x_headers: v.optional(v.record(v.string(), v.string()), {}),
})

export const FailureRequestSchema = v.object({
  event: v.literal('failure'),
  tindex: Int,
  tlabel: Int,
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  code: Int,
  reason: v.optional(Text(255), ''),
})

export const CallEventSchema = v.object({
  event: v.literal('call'),
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  state: v.picklist(['ringing', 'answered', 'ended', 'failed']),
  code: v.optional(Int, 0),
  reason: v.optional(Text(255), ''),
  by: v.optional(v.picklist(['caller', 'callee', '']), ''),
  ts: v.optional(v.number()),
  callee: v.optional(Text(80), ''),
})

export const RegistrationEventSchema = v.object({
  event: v.literal('registration'),
  aor: Text(340),
  state: v.picklist(['registered', 'unregistered']),
  expires: v.optional(Int, 0),
})

export function parseRoute(input: unknown): RouteRequest | null {
  const result = v.safeParse(RouteRequestSchema, input)
  return result.success ? (result.output as RouteRequest) : null
}

export function parseFailure(input: unknown): FailureRequest | null {
  const result = v.safeParse(FailureRequestSchema, input)
  return result.success ? (result.output as FailureRequest) : null
}

export function parseEvent(input: unknown): CallEvent | RegistrationEvent | null {
  const call = v.safeParse(CallEventSchema, input)
  if (call.success) return call.output as CallEvent
  const registration = v.safeParse(RegistrationEventSchema, input)
  return registration.success ? (registration.output as RegistrationEvent) : null
}

/** A relay; `branches` (ring-all queues and call groups) are further AORs Kamailio rings in parallel with `ruri`. */
export type ControlRelay = RelayDecision
export type Decision = ControlRelay | Extract<RouteDecision, { action: 'reject' }>

export function reject(code: number, reason: string): Decision {
  return { action: 'reject', code, reason }
}

/** The reason phrases of the codes call control answers with. */
export const REASONS: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  480: 'Temporarily Unavailable',
  484: 'Address Incomplete',
  486: 'Busy Here',
  500: 'Server Internal Error',
  503: 'Service Unavailable',
  603: 'Decline',
}

export const rejectWith = (code: number) => reject(code, REASONS[code] ?? 'Rejected')

/** Header lines toward the callee, CRLF-terminated; values lose CR/LF so nothing can be injected. */
export function headerLines(headers: Record<string, string | number | null | undefined>): string {
  return Object.entries(headers)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([name, value]) => `${name}: ${String(value).replace(/[\r\n]+/g, ' ')}\r\n`)
    .join('')
}
