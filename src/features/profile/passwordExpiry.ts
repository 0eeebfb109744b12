import type { Profile } from '../../../contract/api/profile.ts'
import { passwordExpiry } from '../../../contract/format/password-expiry.ts'

// Password-expiry guard (spec 000 §5) on top of the contract's rule: an expired password forces the change-password
// page except on exempt pages; the "expires soon" warning shows only on index pages.
export type PasswordExpiryDecision = 'redirect' | 'warn' | 'none'

export type PasswordExpiryInput = {
  profile: Pick<Profile, 'last_login' | 'userextra'>
  now: number
  /** The page is exempt from the redirect (logout, profile, change-password). */
  exempt: boolean
  /** The page is an index page (where the "expires soon" warning may show). */
  isIndex: boolean
}

export function passwordExpiryDecision({ profile, now, exempt, isIndex }: PasswordExpiryInput): PasswordExpiryDecision {
  const state = passwordExpiry(profile.userextra, profile.last_login, now)
  if (state === 'expired') return exempt ? 'none' : 'redirect'
  return state === 'warn' && isIndex ? 'warn' : 'none'
}
