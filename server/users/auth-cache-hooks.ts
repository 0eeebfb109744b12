import type { EntityContext } from '../entities/context.ts'
import { registerEntityHooks } from '../entities/hooks.ts'
import type { ApiRecord } from '../entities/serialize.ts'
import { authChanged } from '../auth/auth-cache.ts'

// Every instance keeps sites, users and their roles in memory (auth/auth-cache.ts): settings that change them say so
// once committed, here and on the bus. Deleting a team, department or device clears that column of its users.

const userChanged = (ctx: EntityContext, id: number) => authChanged(ctx.db, ctx.bus, { kind: 'user', user_id: id })
const siteUsersChanged = (ctx: EntityContext) => authChanged(ctx.db, ctx.bus, { kind: 'site', site_id: ctx.site.id })
const siteUsersChangedOnDelete = async (ctx: EntityContext, _id: number, after: ApiRecord | null) => {
  if (after === null) await siteUsersChanged(ctx)
}

registerEntityHooks('business.users', { afterCommit: userChanged })
registerEntityHooks('business.sites', { afterCommit: (ctx) => authChanged(ctx.db, ctx.bus, { kind: 'all' }) })
registerEntityHooks('business.groups', { afterCommit: siteUsersChanged })
registerEntityHooks('service.teams', { afterCommit: siteUsersChangedOnDelete })
registerEntityHooks('business.departments', { afterCommit: siteUsersChangedOnDelete })
registerEntityHooks('pabx.devices', { afterCommit: siteUsersChangedOnDelete })
