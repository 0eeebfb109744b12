import type { FastifyError, FastifyInstance } from 'fastify'
import type { ErrorBody, FieldErrors } from '../../contract/api/errors.ts'
import type { MessageKey } from '../../contract/messages.ts'
import { message } from '../../contract/messages.ts'
import type { Locale } from '../../contract/locales.ts'
import { isDatabaseUnavailable, isRefusedValue } from '../db/client.ts'

// Every error leaves the server in a DRF shape: `{field: [msg]}`, `{non_field_errors: [...]}` or `{detail}`, in the
// request's language. Handlers throw HttpError; a database that cannot be reached answers 503 with Retry-After, a value
// the database refused 400; anything else that is not a client error becomes a logged 500.
export class HttpError extends Error {
  statusCode: number
  body: ErrorBody
  headers: Record<string, string>

  constructor(statusCode: number, body: ErrorBody, headers: Record<string, string> = {}) {
    super(`HTTP ${statusCode}`)
    this.statusCode = statusCode
    this.body = body
    this.headers = headers
  }
}

export function fieldErrors(errors: FieldErrors): HttpError {
  return new HttpError(400, errors)
}

export function detailError(
  statusCode: number,
  key: MessageKey,
  lang: Locale,
  params: Record<string, string | number> = {},
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(statusCode, { detail: message(key, lang, params) }, headers)
}

let refusedByDatabase = 0

/** How many values the database refused that no validation had caught (the no-5xx matrix expects none). */
export function databaseRefusals(): number {
  return refusedByDatabase
}

/** Seconds a client waits before retrying a 503 (database unreachable, server saturated). */
export const RETRY_AFTER_SECONDS = 5

// Fastify's own client errors (bad JSON, body too large, wrong content type...) mapped to our texts.
const CLIENT_ERROR_MESSAGES: Record<number, MessageKey> = {
  401: 'notAuthenticated',
  403: 'permissionDenied',
  404: 'notFound',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body)
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const key = CLIENT_ERROR_MESSAGES[status] ?? 'malformedRequest'
      return reply.code(status).send({ detail: message(key, request.lang) })
    }
    if (status === 503) {
      // @fastify/under-pressure: the event loop lags (server/http/limits.ts).
      return reply.code(503).header('Retry-After', String(RETRY_AFTER_SECONDS)).send({ detail: message('serviceUnavailable', request.lang) })
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      return reply.code(503).header('Retry-After', String(RETRY_AFTER_SECONDS)).send({ detail: message('serviceUnavailable', request.lang) })
    }
    if (isRefusedValue(error)) {
      // A value no validation checked reached the database: the client's error, and a gap to close where it came in.
      refusedByDatabase++
      request.log.warn({ err: error }, 'the database refused an unvalidated value')
      return reply.code(400).send({ detail: message('invalidValue', request.lang) })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send({ detail: message('serverError', request.lang) })
  })

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: message('notFound', request.lang) })
  })
}
