import type { FastifyInstance } from 'fastify'
import { AUTH_PATHS, CSRF_COOKIE, LoginBody } from '../../../contract/api/auth.ts'
import type { SuccessResponse } from '../../../contract/api/auth.ts'
import { looksLikeKey, randomKey } from '../../auth/keys.ts'
import { createSession, deleteSession } from '../../auth/session-store.ts'
import { signIn } from '../../auth/sign-in.ts'
import { endCurrentCredential } from '../../auth/end-sessions.ts'
import { authChanged } from '../../auth/auth-cache.ts'
import { clearSessionCookie, setCsrfCookie, setSessionCookie } from '../../http/cookies.ts'
import { parseInput } from '../../http/validate.ts'
import { loadProfile } from '../../profile/profile-view.ts'

// Spec 000 §7, cookie strategy: pre-session (CSRF cookie), login, logout.
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const { db, bus } = app.deps

  app.get(AUTH_PATHS.preSession, { config: { permission: 'public' } }, async (request, reply): Promise<SuccessResponse> => {
    // A signed-in browser gets back the token its session is bound to; otherwise a valid cookie is kept as it is.
    const existing = request.cookies[CSRF_COOKIE]
    const token = request.auth?.session?.csrfToken ?? (looksLikeKey(existing) ? existing : randomKey())
    setCsrfCookie(reply, token)
    return { success: true }
  })

  app.post(AUTH_PATHS.sessionLogin, { config: { permission: 'public' } }, async (request, reply) => {
    const body = parseInput(LoginBody, request.body, request.lang)
    const user = await signIn(app.deps, request.site, body, request.ip, request.lang)
    // A fresh id at every sign-in (no fixation), and a fresh CSRF token bound to it.
    if (request.auth?.session) {
      await deleteSession(db, request.auth.keyHash)
      await authChanged(db, bus, { kind: 'credential', key_hash: request.auth.keyHash })
    }
    const csrfToken = randomKey()
    const session = await createSession(db, { siteId: user.siteId, userId: user.id, csrfToken })
    setSessionCookie(reply, session.key)
    setCsrfCookie(reply, csrfToken)
    return loadProfile(db, user.siteId, user.id)
  })

  // Public so a browser whose session already expired can still clear its cookie.
  app.post(AUTH_PATHS.sessionLogout, { config: { permission: 'public' } }, async (request, reply): Promise<SuccessResponse> => {
    if (request.auth?.via === 'session') await endCurrentCredential(db, bus, request.auth)
    clearSessionCookie(reply)
    return { success: true }
  })
}
