import { LogController } from 'fastify'
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import { ENTITIES } from '../../contract/entities/index.ts'

// Secrets never reach the log. A failed query's error carries its bound parameters (drizzle puts them in the message
// and in `params`; a device's insert holds the SIP secret and its HA1), PostgreSQL's `detail` quotes the values of a
// violated key, and anything logged with an object may hold a password. So every log line passes through here:
// errors keep their kind, code, query text and stack but lose parameters and quoted values; fields named like a
// secret are replaced, at any depth.

const REDACTED = '[redacted]'

/** Field names whose values are secrets: the settings' secret fields (and their HA1 columns), credentials, cookies. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  ...ENTITIES.flatMap((e) => e.fields.filter((f) => f.secret).flatMap((f) => [f.name, `${f.name}_ha1`, `${camel(f.name)}Ha1`])),
  ...['password', 'new_password', 'new_password_confirm', 'current_password', 'secret', 'ha1', 'token', 'key', 'keyHash'],
  ...['authorization', 'cookie', 'set-cookie', 'x-csrftoken', 'csrftoken', 'csrfToken', 'sessionid', 'params', 'parameters'],
])

function camel(name: string): string {
  return name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
}

/** A failed query's message without its parameters; PostgreSQL's quoted key values and failing rows without the values. */
export function redactText(text: string): string {
  return text
    .replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]')
    .replace(/=\((.*?)\)( already exists| is not present| is still referenced)?/g, '=(…)$2')
    .replace(/Failing row contains \([\s\S]*\)/, 'Failing row contains (…)')
}

const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'routine', 'query'] as const

/** An error as a log object, with no parameter and no quoted value; its cause too. */
export function redactError(error: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.name, message: redactText(error.message) }
  if (error.stack) out.stack = redactText(error.stack)
  const fields = error as unknown as Record<string, unknown>
  for (const name of SAFE_ERROR_FIELDS) if (fields[name] !== undefined) out[name] = fields[name]
  if (typeof fields.detail === 'string') out.detail = redactText(fields.detail)
  if (error.cause instanceof Error && depth < 3) out.cause = redactError(error.cause, depth + 1)
  return out
}

/** A copy of a log object with secret fields replaced and errors redacted, at any depth. */
export function redactLogObject(value: unknown, seen = new WeakSet<object>(), depth = 0): unknown {
  if (value instanceof Error) return redactError(value)
  if (value === null || typeof value !== 'object' || depth > 8) return value
  if (seen.has(value)) return '[circular]'
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => redactLogObject(item, seen, depth + 1))
  // Requests, replies, sockets and buffers are left to pino's serializers (they never hold a parameter list).
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEYS.has(key) ? REDACTED : redactLogObject(item, seen, depth + 1)
  return out
}

/** Fastify's logger: the level, secrets redacted in every line (also the request's credentials headers). */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    formatters: { log: (object) => redactLogObject(object) as Record<string, unknown> },
    // The formatter above has already redacted an error logged as `err`; Fastify's own `err` lines come straight here.
    serializers: { err: (error: Error) => (error instanceof Error ? redactError(error) : error) as { type: string; message: string; stack: string } },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrftoken"]', 'res.headers["set-cookie"]'], censor: REDACTED },
  }
}

/**
 * One line per answered request (method, path, status, time) instead of Fastify's two ('incoming request', then
 * 'request completed'): every agent's console polls all day. Errors keep Fastify's own line.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply)
    reply.log.info({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request')
  }
}
