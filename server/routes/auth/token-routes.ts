import type { FastifyInstance } from 'fastify'
import type { SuccessResponse, TokenLoginResponse } from '../../../contract/api/auth.ts'
import { AUTH_PATHS, LoginBody } from '../../../contract/api/auth.ts'
import { signIn } from '../../auth/sign-in.ts'
import { createToken } from '../../auth/token-store.ts'
import { endCurrentCredential } from '../../auth/end-sessions.ts'
import { clearSessionCookie } from '../../http/cookies.ts'
import { parseInput } from '../../http/validate.ts'

// Spec 000 §7, token strategy: `{token, expiry}` for `Authorization: Token <key>`, and its revocation.
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const { db, bus } = app.deps

  app.post(AUTH_PATHS.tokenLogin, { config: { permission: 'public' } }, async (request): Promise<TokenLoginResponse> => {
    const body = parseInput(LoginBody, request.body, request.lang)
    const user = await signIn(app.deps, request.site, body, request.ip, request.lang)
    const { token, expiry } = await createToken(db, { siteId: user.siteId, userId: user.id })
    return { token, expiry: expiry.toISOString() }
  })

  app.post(AUTH_PATHS.tokenLogout, { config: { permission: 'authenticated' } }, async (request, reply): Promise<SuccessResponse> => {
    await endCurrentCredential(db, bus, request.auth!)
    if (request.auth!.via === 'session') clearSessionCookie(reply)
    return { success: true }
  })
}
