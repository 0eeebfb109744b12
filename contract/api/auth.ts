import * as v from 'valibot'
import { secret, text } from './fields.ts'

// Spec 000 §7 — authentication. Paths are relative to /api.
export const AUTH_PATHS = {
  preSession: '/pre-session/',
  sessionLogin: '/session/login/',
  sessionLogout: '/session/logout/',
  tokenLogin: '/auth/login/',
  tokenLogout: '/auth/logout/',
} as const

/** Token max age (seconds) of the token strategy. */
export const TOKEN_MAX_AGE = 1_036_800
export const SESSION_COOKIE = 'sessionid'
export const CSRF_COOKIE = 'csrftoken'
export const CSRF_HEADER = 'X-CSRFToken'

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
