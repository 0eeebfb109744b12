import type { FastifyInstance } from 'fastify'
import type { ValidatePasswordResponse } from '../../../contract/api/profile.ts'
import type { SuccessResponse } from '../../../contract/api/auth.ts'
import { ChangePasswordBody, PROFILE_PATHS, ValidatePasswordBody } from '../../../contract/api/profile.ts'
import { parseInput } from '../../http/validate.ts'
import { setSessionCookie } from '../../http/cookies.ts'
import { changePassword, checkCurrentPassword } from '../../profile/password-service.ts'

// change-password and validate-password (the lock screen's check).
export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  app.post(PROFILE_PATHS.password, { config: { permission: 'authenticated' } }, async (request, reply): Promise<SuccessResponse> => {
    const body = parseInput(ChangePasswordBody, request.body, request.lang)
    const caller = { auth: request.auth!, ip: request.ip, lang: request.lang }
    const rotated = await changePassword(app.deps, caller, request.site!, body)
    if (rotated) setSessionCookie(reply, rotated.key)
    return { success: true }
  })

  app.post(PROFILE_PATHS.validatePassword, { config: { permission: 'authenticated' } }, async (request): Promise<ValidatePasswordResponse> => {
    const { password } = parseInput(ValidatePasswordBody, request.body, request.lang)
    const caller = { auth: request.auth!, ip: request.ip, lang: request.lang }
    return { success: await checkCurrentPassword(app.deps, caller, password) }
  })
}
