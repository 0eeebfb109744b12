import type { FastifyInstance } from 'fastify'
import { detailError } from './errors.ts'

// JSON and multipart only: a cross-site form cannot send JSON without a CORS preflight, which is never approved. An
// empty JSON body reads as no body (clients often label a bodiless POST such as logout as JSON), as DRF does.
// A body nested deeper than any form of this API is refused before it is parsed: walking thousands of levels later
// (validation, JSON.stringify for a jsonb column) would overflow the stack.

/** Deeper than any body this API takes (a form definition's rows of fields of options is under 10). */
export const MAX_JSON_DEPTH = 64

/** The deepest nesting of arrays and objects in a JSON text, counted in one pass; brackets in strings do not count. */
export function jsonDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x7d || c === 0x5d) depth--
  }
  return deepest
}

/** Parses a JSON text of a request part; too deep or malformed → undefined. */
export function parseJsonText(text: string): { value: unknown } | undefined {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return undefined
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

export function acceptJsonAndMultipartOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser(['text/plain', 'application/json'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    if (text === '') return done(null, undefined)
    if (jsonDepth(text) > MAX_JSON_DEPTH) return done(detailError(400, 'malformedRequest', request.lang), undefined)
    parseJson(request, text, done)
  })
}
