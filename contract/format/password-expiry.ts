import { PASSWORD_WARNING_WINDOW_MS } from '../constants.ts'
import { toDayjs, type DateValue } from './dates.ts'

export type PasswordExpiry = 'expired' | 'warn' | 'ok'

/** The two dates of the profile's userextra that drive the password warnings. */
export type PasswordDates = {
  password_expire_date?: string | null
  password_notification_start?: string | null
}

/**
 * Spec 000 §5. 'expired' once password_expire_date is reached (the SPA sends the user to change it); 'warn' while
 * now is inside [password_notification_start, password_expire_date) and the user signed in within the last
 * PASSWORD_WARNING_WINDOW_MS, so the toast shows once, right after sign-in (showing it only on an index page is the
 * caller's rule); otherwise 'ok'. A last_login slightly ahead of now (server clock ahead of the browser's) counts as
 * just signed in, up to the same window. Missing or invalid dates never expire nor warn.
 */
export function passwordExpiry(userextra: PasswordDates | null | undefined, lastLogin: DateValue, now: DateValue = Date.now()): PasswordExpiry {
  const at = toDayjs(now)
  const expires = toDayjs(userextra?.password_expire_date)
  if (!at || !expires) return 'ok'
  if (!at.isBefore(expires)) return 'expired'
  const notifyFrom = toDayjs(userextra?.password_notification_start)
  const signedIn = toDayjs(lastLogin)
  if (!notifyFrom || !signedIn || at.isBefore(notifyFrom)) return 'ok'
  return Math.abs(at.diff(signedIn)) <= PASSWORD_WARNING_WINDOW_MS ? 'warn' : 'ok'
}
