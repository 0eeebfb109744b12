import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { FieldErrors } from '../../contract/api/errors.ts'
import { message } from '../../contract/messages.ts'
import { fieldErrors } from './errors.ts'

// Text PostgreSQL cannot hold never reaches it: a NUL character (text and jsonb refuse U+0000) or a lone UTF-16
// surrogate (jsonb refuses its escape) anywhere in a request's path parameters, query or JSON body answers 400 with
// the field's error, before any handler runs. One check for every route, so a new route cannot forget it; multipart
// fields are checked where they are read (`refuseUnstorableText`).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The first unstorable character of a string: 'nul', 'surrogate', or null when PostgreSQL can store it. */
function unstorable(text: string): 'nul' | 'surrogate' | null {
  if (text.includes('\u0000')) return 'nul'
  return LONE_SURROGATE.test(text) ? 'surrogate' : null
}

/** Field errors for every string (values and keys) of `input` that PostgreSQL cannot store; `{}` when none. */
export function unstorableTextErrors(input: unknown, lang: string, root = ''): FieldErrors {
  const errors: FieldErrors = {}
  // Iterative on purpose: a body may be nested deeply (the JSON parser caps it, multipart params too).
  const pending: [unknown, string][] = [[input, root]]
  while (pending.length) {
    const [value, path] = pending.pop()!
    if (typeof value === 'string') {
      const problem = unstorable(value)
      if (problem) errors[path || 'non_field_errors'] = [message(problem === 'nul' ? 'nullCharacter' : 'invalidValue', lang)]
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (unstorable(key)) {
          errors[path || 'non_field_errors'] = [message('invalidValue', lang)]
          continue
        }
        pending.push([item, path ? `${path}.${key}` : key])
      }
    }
  }
  return errors
}

export function refuseUnstorableText(input: unknown, lang: string, root = ''): void {
  const errors = unstorableTextErrors(input, lang, root)
  if (Object.keys(errors).length) throw fieldErrors(errors)
}

function checkRequest(request: FastifyRequest): void {
  const lang = request.lang
  const errors = {
    ...unstorableTextErrors(request.params, lang),
    ...unstorableTextErrors(request.query, lang),
    ...unstorableTextErrors(request.body, lang),
  }
  if (Object.keys(errors).length) throw fieldErrors(errors)
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => checkRequest(request))
}
