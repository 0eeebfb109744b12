// Spec 000 §7 — the paths and cookie names of authentication, apart from the schemas in auth.ts (which re-exports
// them): the SPA's first chunk (fetch client, sign-in calls) needs these, not valibot.
// Paths are relative to /api.
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
