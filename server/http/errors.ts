import type { FastifyError, FastifyInstance } from 'fastify'
import type { ErrorBody } from '../../contract/api/errors.ts'
import { HttpError } from '../errors/http-error.ts'
import type { MessageKey } from '../../contract/messages.ts'
import { message } from '../../contract/messages.ts'

// The error shapes live below everything (server/errors/http-error.ts); this file answers them.
export { HttpError, detailError, fieldErrors } from '../errors/http-error.ts'
import type { Locale } from '../../contract/locales.ts'
import { isDatabaseUnavailable, isRefusedValue } from '../db/client.ts'

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
      return reply
        .code(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send({ detail: message('serviceUnavailable', request.lang) })
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      return reply
        .code(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .send({ detail: message('serviceUnavailable', request.lang) })
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
