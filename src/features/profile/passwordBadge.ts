import { passwordExpiry } from '../../../contract/format/password-expiry.ts'
import { toDayjs } from '../../app/dates.ts'
import type { MenuBadge, MenuContext } from '../../components/menuTypes.ts'

/** '!' on the password entries once the expiry-notification window has begun, red when the password has expired. */
export function passwordExpiryBadge({ profile, now }: MenuContext): MenuBadge | undefined {
  const extra = profile?.userextra
  if (passwordExpiry(extra, null, now) === 'expired') return { value: '!', color: 'danger' }
  const start = toDayjs(extra?.password_notification_start)
  const expires = toDayjs(extra?.password_expire_date)
  return start && expires && !start.isAfter(now) ? { value: '!', color: 'warning' } : undefined
}
