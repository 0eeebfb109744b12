import type { ErrorBody, FieldErrors } from '../../contract/api/errors.ts'
import type { MessageKey } from '../../contract/messages.ts'
import { message } from '../../contract/messages.ts'
import type { Locale } from '../../contract/locales.ts'

// Every error leaves the server in a DRF shape: `{field: [msg]}`, `{non_field_errors: [...]}` or `{detail}`, in the
// request's language. Handlers and services throw HttpError (http/errors.ts turns it into the answer; anything else
// that is not a client error becomes a logged 500). Below every folder, so any service may throw one.
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
