import type { CookieSerializeOptions } from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CSRF_COOKIE, SESSION_COOKIE } from '../../contract/api/auth.ts'
import { SESSION_MAX_AGE_SECONDS } from '../auth/session-store.ts'

// Cookie flags in one place. Secure follows the request's scheme; behind a TLS proxy that is only known when
// TRUST_PROXY lets Fastify read X-Forwarded-Proto.
const CSRF_MAX_AGE_SECONDS = 52 * 7 * 24 * 60 * 60

function baseOptions(request: FastifyRequest): CookieSerializeOptions {
  return { path: '/', sameSite: 'lax', secure: request.protocol === 'https' }
}

export function setSessionCookie(reply: FastifyReply, key: string): void {
  reply.setCookie(SESSION_COOKIE, key, { ...baseOptions(reply.request), httpOnly: true, maxAge: SESSION_MAX_AGE_SECONDS })
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { ...baseOptions(reply.request), httpOnly: true })
}

/** The CSRF cookie is read by the SPA's JavaScript and echoed in X-CSRFToken, so it is not HttpOnly. */
export function setCsrfCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, { ...baseOptions(reply.request), httpOnly: false, maxAge: CSRF_MAX_AGE_SECONDS })
}
