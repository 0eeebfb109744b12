import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { userExtras, users } from '../db/schema/index.ts'
import type { SiteRow } from '../db/schema/index.ts'
import type { ChangePasswordBody } from '../../contract/api/profile.ts'
import { passwordProblems } from '../../contract/api/password.ts'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import type { AuthContext } from '../http/authenticate.ts'
import { fieldErrors } from '../http/errors.ts'
import { beginPasswordAttempt } from '../auth/login-throttle.ts'
import { hashPassword, verifyPassword } from '../auth/passwords.ts'
import type { ThrottleStore } from '../auth/throttle-store.ts'
import type { Bus } from '../bus/bus.ts'
import type { NewSession } from '../auth/session-store.ts'
import { endOtherCredentials } from '../auth/end-sessions.ts'

// Checking the current password is a password guess like a sign-in, so it spends the same per-account and per-address
// attempts (a stolen session cannot be used to brute-force the password).
type Deps = { db: Db; throttle: ThrottleStore; bus: Bus }
type Caller = { auth: AuthContext; ip: string; lang: Locale }

const DAY_MS = 24 * 60 * 60 * 1000

/** validate-password (the lock screen): does the password match the caller's? */
export async function checkCurrentPassword(deps: Deps, caller: Caller, password: string): Promise<boolean> {
  const { auth, ip, lang } = caller
  const attempt = await beginPasswordAttempt(deps.throttle, { ip, siteId: auth.user.siteId, username: auth.user.username }, lang)
  const valid = await verifyPassword(auth.user.password, password)
  if (valid) await attempt.succeeded()
  return valid
}

/**
 * change-password: the current password, the shared policy, and a new value. On success the hash changes, the expiry
 * moves forward by the site's policy and every other session and token ends. Returns the caller's rotated session.
 */
export async function changePassword(deps: Deps, caller: Caller, site: SiteRow, body: ChangePasswordBody): Promise<NewSession | null> {
  const { auth, lang } = caller
  if (!(await checkCurrentPassword(deps, caller, body.old_password))) {
    throw fieldErrors({ old_password: [message('wrongPassword', lang)] })
  }
  const problems = passwordProblems(body.new_password1, { username: auth.user.username, lang })
  if (body.new_password1 === body.old_password) problems.push(message('passwordUnchanged', lang))
  if (problems.length > 0) throw fieldErrors({ new_password1: problems })

  const password = await hashPassword(body.new_password1)
  await deps.db.transaction(async (tx) => {
    const mine = and(eq(users.id, auth.user.id), eq(users.siteId, site.id))
    await tx.update(users).set({ password }).where(mine)
    const [extra] = await tx.select().from(userExtras).where(eq(userExtras.userId, auth.user.id))
    await tx
      .update(userExtras)
      .set(nextExpiry(site, extra?.passwordExpireDate ?? null, new Date()))
      .where(eq(userExtras.userId, auth.user.id))
  })
  return endOtherCredentials(deps.db, deps.bus, auth)
}

/** Users without an expiry keep none; others get the site's lifetime from now, with its warning window before. */
export function nextExpiry(site: SiteRow, current: Date | null, now: Date) {
  if (current === null || site.passwordExpireDays <= 0) return { passwordExpireDate: null, passwordNotificationStart: null }
  const passwordExpireDate = new Date(now.getTime() + site.passwordExpireDays * DAY_MS)
  const passwordNotificationStart = new Date(passwordExpireDate.getTime() - site.passwordNotifyDays * DAY_MS)
  return { passwordExpireDate, passwordNotificationStart }
}
