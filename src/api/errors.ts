import type { FieldErrors } from '../../contract/api/errors.ts'

// One error shape for every failed call (spec 000 §8): a message, a status (500 when unknown) and DRF field errors.
export class ApiError extends Error {
  readonly status: number
  readonly fieldErrors: FieldErrors
  /** True when the server never answered (network failure, aborted proxy, CORS). */
  readonly noResponse: boolean
  readonly body: unknown

  constructor(init: { message: string; status?: number; fieldErrors?: FieldErrors; noResponse?: boolean; body?: unknown }) {
    super(init.message)
    this.name = 'ApiError'
    this.status = init.status || 500
    this.fieldErrors = init.fieldErrors ?? {}
    this.noResponse = init.noResponse ?? false
    this.body = init.body
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

function asMessages(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(asMessages)
  if (value && typeof value === 'object') return Object.values(value).flatMap(asMessages)
  if (value === null || value === undefined || value === '') return []
  return [String(value)]
}

/**
 * DRF bodies become field errors: `{field: [msg]}` per field, `detail` and `non_field_errors` kept as is. A body
 * that is not an object (HTML error page, plain text, nothing) becomes one non_field_errors entry with the status text.
 */
export function normaliseError(status: number, statusText: string, body: unknown): ApiError {
  const safeStatus = status || 500
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fieldErrors: FieldErrors = {}
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (key === 'code') continue
      const messages = asMessages(value)
      if (messages.length) fieldErrors[key] = messages
    }
    const detail = fieldErrors.detail?.[0]
    const first = detail ?? fieldErrors.non_field_errors?.[0] ?? Object.values(fieldErrors)[0]?.[0]
    return new ApiError({ message: first ?? (statusText || `HTTP ${safeStatus}`), status: safeStatus, fieldErrors, body })
  }
  const text = statusText || (typeof body === 'string' && body.length < 200 ? body : '') || `HTTP ${safeStatus}`
  return new ApiError({ message: text, status: safeStatus, fieldErrors: { non_field_errors: [text] }, body })
}

export type SubmitErrors = {
  /** Errors for fields the form shows, by field name. */
  fields: Record<string, string>
  /** non_field_errors, detail and errors of fields the form does not have: shown above the form. */
  form: string[]
  /** Set when nothing answered: the caller shows the 'Ocorreu um erro {detail}' toast instead. */
  toast?: string
}

/** Splits a failed submit into what goes next to each field, above the form, or into a toast. */
export function submitErrors(error: unknown, formFields: readonly string[]): SubmitErrors {
  if (!isApiError(error)) return { fields: {}, form: [], toast: error instanceof Error ? error.message : String(error) }
  if (error.noResponse) return { fields: {}, form: [], toast: error.message }
  const fields: Record<string, string> = {}
  const form: string[] = []
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    if (formFields.includes(key)) fields[key] = messages.join(' ')
    else form.push(...messages)
  }
  if (!form.length && !Object.keys(fields).length) form.push(error.message)
  return { fields, form }
}
