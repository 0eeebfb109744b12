import { queryOptions } from '@tanstack/react-query'
import { AUTH_PATHS } from '../../contract/api/auth.ts'
import type { LoginBody } from '../../contract/api/auth.ts'
import { PROFILE_PATHS, PUBLIC_SITE_SETTINGS_PATH } from '../../contract/api/profile.ts'
import type { Profile, PublicSiteSettings } from '../../contract/api/profile.ts'
import { api } from './client.ts'
import { isApiError } from './errors.ts'

// Cookie strategy (spec 000 §7): pre-session sets the csrftoken cookie, session login/logout, the profile is the user.

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

export const preSessionQuery = queryOptions({
  queryKey: ['pre-session'],
  queryFn: () => api.get<unknown>(AUTH_PATHS.preSession).then(() => true),
  staleTime: Infinity,
  retry: 1,
})

export const publicSiteSettingsQuery = queryOptions({
  queryKey: ['site-settings', 'public'],
  queryFn: () => api.get<PublicSiteSettings>(PUBLIC_SITE_SETTINGS_PATH),
  staleTime: 5 * 60_000,
  retry: 1,
})

export function login(body: LoginBody) {
  // Wrong credentials are a form error, not a lost session.
  return api.post<unknown>(AUTH_PATHS.sessionLogin, body, { allowUnauthorized: true })
}

export function logout() {
  return api.post<unknown>(AUTH_PATHS.sessionLogout, undefined, { allowUnauthorized: true })
}
