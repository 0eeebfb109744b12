import { endUserCredentials } from '../auth/end-sessions.ts'
import type { EntityContext } from '../entities/context.ts'
import type { CommittedWrite } from '../entities/hooks.ts'
import type { ApiRecord } from '../entities/serialize.ts'

// When a write to a user (settings → business.users) must sign them out everywhere: sessions, tokens and live
// sockets, on every instance. Disabled or deleted, the account is closed; a password set by an administrator is a
// reset — whoever held the old password (a stolen account) must not stay signed in until their token expires.
// Both go through endUserCredentials, the one function that ends every credential of a user. An administrator who
// sets their own password here is signed out too; the profile's change-password is the way that keeps one's session.
export async function endAccountCredentials(ctx: EntityContext, id: number, after: ApiRecord | null, write?: CommittedWrite): Promise<void> {
  if (!ctx.bus) return
  const who = { siteId: ctx.site.id, userId: id }
  if (after === null || after.is_active === false) await endUserCredentials(ctx.db, ctx.bus, who, 'user-disabled')
  else if (write && !write.created && isPasswordSet(write.values)) await endUserCredentials(ctx.db, ctx.bus, who, 'password-reset')
}

/** A write sets the password when it carries a non-empty one (an empty or absent password keeps the stored hash). */
function isPasswordSet(values: Record<string, unknown>): boolean {
  return typeof values.password === 'string' && values.password !== ''
}
