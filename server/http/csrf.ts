import type { FastifyRequest } from 'fastify'
import { CSRF_COOKIE } from '../../contract/api/auth.ts'
import { safeEqual } from '../auth/keys.ts'
import { detailError } from './errors.ts'

// Django-like CSRF (rules in server/README.md): an unsafe request that rides on browser state (a session cookie, or
// a csrftoken cookie at sign-in) must echo the csrftoken cookie in X-CSRFToken. A signed-in session is also bound to
// the token it was issued with, so a cookie planted by a sibling domain does not pass. Token requests are exempt: a
// cross-site page cannot set the Authorization header.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function enforceCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method) || request.auth?.via === 'token') return
  const cookie = request.cookies[CSRF_COOKIE]
  const session = request.auth?.session ?? null
  if (!session && cookie === undefined) return
  const header = request.headers['x-csrftoken']
  const valid = typeof header === 'string' && cookie !== undefined && safeEqual(header, cookie) && (!session || safeEqual(header, session.csrfToken))
  if (!valid) throw detailError(403, 'csrfFailed', request.lang)
}
