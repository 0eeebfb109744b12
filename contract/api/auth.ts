import * as v from 'valibot'
import { secret, text } from './fields.ts'

// Spec 000 §7 — authentication. The paths and cookie names live in auth-paths.ts (no valibot there).
export { AUTH_PATHS, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, TOKEN_MAX_AGE } from './auth-paths.ts'

export const LoginBody = v.object({
  username: text({ max: 150 }),
  password: secret(),
})
export type LoginBody = v.InferOutput<typeof LoginBody>

export const TokenLoginResponse = v.object({ token: v.string(), expiry: v.string() })
export type TokenLoginResponse = v.InferOutput<typeof TokenLoginResponse>

/** Answer of pre-session, session logout, token logout and change-password. */
export type SuccessResponse = { success: true }

/** POST /api/session/login/ answers with the signed-in user's profile. */
export type { Profile as SessionLoginResponse } from './profile.ts'
