import { queryOptions } from '@tanstack/react-query'
import { AUTH_PATHS } from '../../contract/api/auth-paths.ts'
import type { LoginBody } from '../../contract/api/auth.ts'
import { PROFILE_PATHS, PUBLIC_SITE_SETTINGS_PATH } from '../../contract/api/profile-paths.ts'
import type { Profile, PublicSiteSettings } from '../../contract/api/profile.ts'
import { api } from './client.ts'
import { isApiError } from './errors.ts'

// Cookie strategy (spec 000 §7): pre-session sets the csrftoken cookie, session login/logout, the profile is the user.
// Only `profileQuery` is TanStack Query (a plain object: `queryOptions` is an identity function); what the sign-in
// page calls is plain fetch, so Query itself never loads there.

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  // No abort signal on purpose: the route guard awaits this fetch, and an observer unmounting must not cancel it.
  queryFn: () => api.get<Profile>(PROFILE_PATHS.profile, undefined, { allowUnauthorized: true }),
  staleTime: 60_000,
  retry: false,
})

/** The signed-in user, or null when nobody is (401/403 from the profile probe). */
export async function probeProfile(fetchProfile: () => Promise<Profile>): Promise<Profile | null> {
  try {
    return await fetchProfile()
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return null
    throw error
  }
}

/** GET /api/pre-session/: sets the csrftoken cookie the sign-in POST needs (one retry). */
export function preSession(): Promise<unknown> {
  const get = () => api.get<unknown>(AUTH_PATHS.preSession)
  return get().catch(get)
}

/** The public site settings of the sign-in page (name, logos, colours), one retry; `app/siteSettings.ts` keeps them. */
export function fetchPublicSiteSettings(): Promise<PublicSiteSettings> {
  const get = () => api.get<PublicSiteSettings>(PUBLIC_SITE_SETTINGS_PATH)
  return get().catch(get)
}

export function login(body: LoginBody) {
  // Wrong credentials are a form error, not a lost session.
  return api.post<unknown>(AUTH_PATHS.sessionLogin, body, { allowUnauthorized: true })
}

export function logout() {
  return api.post<unknown>(AUTH_PATHS.sessionLogout, undefined, { allowUnauthorized: true })
}
