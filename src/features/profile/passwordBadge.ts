import type { MenuBadge, MenuContext } from '../../components/menu/menuItems.ts'

/** '!' on the password entries while the password is inside its expiry-notification window or expired. */
export function passwordExpiryBadge({ profile, now }: MenuContext): MenuBadge | undefined {
  const extra = profile?.userextra
  const expires = extra?.password_expire_date ? Date.parse(extra.password_expire_date) : NaN
  if (Number.isNaN(expires)) return undefined
  if (expires <= now) return { value: '!', color: 'danger' }
  const start = extra?.password_notification_start ? Date.parse(extra.password_notification_start) : NaN
  return !Number.isNaN(start) && start <= now ? { value: '!', color: 'warning' } : undefined
}
