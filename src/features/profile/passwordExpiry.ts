import type { Profile } from '../../../contract/api/profile.ts'

// Password-expiry guard (spec 000 §5): an expired password forces the change-password page; shortly after sign-in,
// inside the notification window, the home page warns once.
export const PASSWORD_WARNING_WINDOW_MS = 10_000

export type PasswordExpiryDecision = 'redirect' | 'warn' | 'none'

export type PasswordExpiryInput = {
  profile: Pick<Profile, 'last_login' | 'userextra'>
  now: number
  /** The page is exempt from the redirect (logout, profile, change-password). */
  exempt: boolean
  /** The page is an index page (where the "expires soon" warning may show). */
  isIndex: boolean
}

const time = (value: string | null | undefined) => (value ? Date.parse(value) : NaN)

export function passwordExpiryDecision({ profile, now, exempt, isIndex }: PasswordExpiryInput): PasswordExpiryDecision {
  const expires = time(profile.userextra?.password_expire_date)
  if (!Number.isNaN(expires) && expires <= now) return exempt ? 'none' : 'redirect'
  const warnFrom = time(profile.userextra?.password_notification_start)
  const lastLogin = time(profile.last_login)
  const inWindow = !Number.isNaN(warnFrom) && !Number.isNaN(expires) && warnFrom <= now && now < expires
  const justSignedIn = !Number.isNaN(lastLogin) && now - lastLogin >= 0 && now - lastLogin <= PASSWORD_WARNING_WINDOW_MS
  return inWindow && justSignedIn && isIndex ? 'warn' : 'none'
}
