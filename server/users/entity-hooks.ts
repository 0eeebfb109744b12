import { entityMessage } from '../../contract/entities/index.ts'
import { passwordProblems } from '../../contract/api/password.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import type { EntityContext } from '../entities/context.ts'
import { registerEntityHooks } from '../entities/hooks.ts'
import type { FieldErrors } from '../entities/types.ts'
import { endAccountCredentials } from './account-ends.ts'

// Accounts' rules on the settings write path: password policy, nobody disables or deletes their own user, a
// disabled or deleted user is signed out everywhere, and a group holds only permissions that exist.

const KNOWN_PERMISSIONS = new Set(ALL_PERMISSIONS)

const own = (ctx: EntityContext) => entityMessage('cannotRemoveOwn', ctx.lang)

registerEntityHooks('business.users', {
  validate(ctx, values, existing) {
    const errors: FieldErrors = {}
    const password = values.password
    if (typeof password === 'string' && password !== '') {
      const problems = passwordProblems(password, { username: String(values.username ?? ''), lang: ctx.lang })
      if (problems.length) errors.password = problems
    }
    if (existing?.id === ctx.userId && values.is_active === false) errors.is_active = [own(ctx)]
    return errors
  },
  refuseDelete: (ctx, id) => (id === ctx.userId ? own(ctx) : undefined),
  // A disabled, deleted or reset user is signed out everywhere at once (server/users/account-ends.ts).
  afterCommit: endAccountCredentials,
})

registerEntityHooks('business.groups', {
  validate(ctx, values): FieldErrors {
    const unknown = ((values.permissions as string[] | null) ?? []).filter((p) => !KNOWN_PERMISSIONS.has(String(p)))
    return unknown.length ? { permissions: [`${entityMessage('invalidOption', ctx.lang)}: ${unknown.join(', ')}`] } : {}
  },
})
