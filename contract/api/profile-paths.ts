// The profile's paths (spec 000 §3), apart from the schemas in profile.ts (which re-exports them): the SPA's first
// chunk needs these, not valibot. Paths are relative to /api.
export const PROFILE_PATHS = {
  profile: '/v1/business/profile/',
  avatar: '/v1/business/profile/change-avatar/',
  password: '/v1/business/profile/change-password/',
  validatePassword: '/v1/business/profile/validate-password/',
} as const

/** GET /api/v1/business/site-settings/ (public): what the login page needs before anyone signs in. */
export const PUBLIC_SITE_SETTINGS_PATH = '/v1/business/site-settings/'
