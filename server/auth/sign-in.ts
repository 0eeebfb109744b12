import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema/index.ts'
import type { SiteRow, UserRow } from '../db/schema/index.ts'
import type { LoginBody } from '../../contract/api/auth.ts'
import type { Locale } from '../../contract/locales.ts'
import { message } from '../../contract/messages.ts'
import { HttpError } from '../errors/http-error.ts'
import { beginPasswordAttempt } from './login-throttle.ts'
import { verifyDummyPassword, verifyPassword } from './passwords.ts'
import type { ThrottleStore } from './throttle-store.ts'

// Shared by both strategies. Unknown user, inactive user and wrong password give the same answer after the same work,
// so the endpoint does not tell which usernames exist. Users sign in only on their own site.
export async function signIn(
  deps: { db: Db; throttle: ThrottleStore },
  site: SiteRow | null,
  credentials: LoginBody,
  ip: string,
  lang: Locale,
): Promise<UserRow> {
  const attempt = await beginPasswordAttempt(deps.throttle, { ip, siteId: site?.id ?? null, username: credentials.username }, lang)
  // Read here rather than through users/user-repo.ts, which hashes with this folder's passwords.ts (no circle).
  const [user] = site
    ? await deps.db
        .select()
        .from(users)
        .where(and(eq(users.siteId, site.id), eq(users.username, credentials.username)))
    : []
  const valid = user ? await verifyPassword(user.password, credentials.password) : await verifyDummyPassword(credentials.password)
  if (!user || !valid || !user.isActive) {
    throw new HttpError(400, { non_field_errors: [message('invalidCredentials', lang)] })
  }
  await attempt.succeeded()
  const lastLogin = new Date()
  await deps.db.update(users).set({ lastLogin }).where(eq(users.id, user.id))
  return { ...user, lastLogin }
}
