import type { FastifyRequest } from 'fastify'
import { HttpError, detailError } from './errors.ts'

// Every multipart body is read through here. The parser (busboy) reports a body it cannot read — no boundary, a
// truncated part, a malformed part header — with plain errors; they are the client's fault and answer 400, as do
// @fastify/multipart's own client errors (limits → 413). A file over its size limit is the caller's field error.

type StatusError = Error & { code?: string; statusCode?: number }

export async function readMultipart<T>(request: FastifyRequest, read: () => Promise<T>, fileTooLarge: () => HttpError): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof HttpError) throw error
    const { code, statusCode } = error as StatusError
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge()
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) throw error
    throw detailError(400, 'malformedRequest', request.lang)
  }
}
