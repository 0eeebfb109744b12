import type { EntityKey } from '../../contract/entities/index.ts'
import { entityMessage } from '../../contract/entities/index.ts'
import { passwordProblems } from '../../contract/api/password.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { normaliseDomain } from '../sites/site-repo.ts'
import type { EntityContext } from './context.ts'
import type { ApiRecord } from './serialize.ts'
import type { FieldErrors } from './types.ts'
import { dropVoipOfDevice, syncVoipAccounts } from './voip-sync.ts'
import { endUserCredentials } from '../auth/end-sessions.ts'
import { telephonyTablesChanged } from '../telephony/changes.ts'
import { authChanged } from '../auth/auth-cache.ts'

// What a few entities need beyond their definition. Everything else is generic.
type Values = Record<string, unknown>

export type EntityHooks = {
  /** Rewrites parsed values before they are checked and written. */
  normalise?(values: Values): void
  /** Field errors the schema cannot know (policies, the caller's own row). */
  validate?(ctx: EntityContext, values: Values, existing: ApiRecord | null): FieldErrors
  /** Runs inside the write's transaction. */
  afterWrite?(ctx: EntityContext, id: number): Promise<void>
  /** A reason to refuse a delete outright. */
  refuseDelete?(ctx: EntityContext, id: number): string | undefined
  /** Runs inside the delete's transaction, before the row goes. */
  beforeDelete?(ctx: EntityContext, id: number): Promise<void>
  /** Runs once a write or delete is committed; `after` is the record now (null: deleted). */
  afterCommit?(ctx: EntityContext, id: number, after: ApiRecord | null): Promise<void>
}

const KNOWN_PERMISSIONS = new Set(ALL_PERMISSIONS)

// Every instance keeps users, their roles and the sites in memory (auth/auth-cache.ts): settings that change them say
// so once committed. Deleting a team, department or device clears that column of its users.
const userChanged = (ctx: EntityContext, id: number) => authChanged(ctx.db, ctx.bus, { kind: 'user', user_id: id })
const siteUsersChanged = (ctx: EntityContext) => authChanged(ctx.db, ctx.bus, { kind: 'site', site_id: ctx.site.id })
const siteUsersChangedOnDelete = async (ctx: EntityContext, _id: number, after: ApiRecord | null) => {
  if (after === null) await siteUsersChanged(ctx)
}

const own = (ctx: EntityContext) => entityMessage('cannotRemoveOwn', ctx.lang)

export const HOOKS: Partial<Record<EntityKey, EntityHooks>> = {
  'business.users': {
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
    afterWrite: (ctx, id) => syncVoipAccounts(ctx, { userIds: [id] }),
    // A disabled or deleted user is signed out everywhere at once: sessions, tokens and live sockets.
    async afterCommit(ctx, id, after) {
      await userChanged(ctx, id)
      if (ctx.bus && (after === null || after.is_active === false)) await endUserCredentials(ctx.db, ctx.bus, { siteId: ctx.site.id, userId: id })
    },
  },
  'business.sites': {
    normalise(values) {
      if (typeof values.domain === 'string') values.domain = normaliseDomain(values.domain)
    },
    validate: (ctx, values, existing): FieldErrors => (existing?.id === ctx.site.id && values.is_active === false ? { is_active: [own(ctx)] } : {}),
    // Another site is invisible (404); the caller's own cannot go while they use it.
    refuseDelete: (ctx, id) => (id === ctx.site.id ? own(ctx) : undefined),
    // The SIP realm is the site's domain: Kamailio's credential table follows it.
    async afterCommit(ctx) {
      await authChanged(ctx.db, ctx.bus, { kind: 'all' })
      await telephonyTablesChanged(ctx.bus, 'sites')
    },
  },
  'business.groups': {
    validate(ctx, values): FieldErrors {
      const unknown = ((values.permissions as string[] | null) ?? []).filter((p) => !KNOWN_PERMISSIONS.has(String(p)))
      return unknown.length ? { permissions: [`${entityMessage('invalidOption', ctx.lang)}: ${unknown.join(', ')}`] } : {}
    },
    afterCommit: siteUsersChanged,
  },
  'service.teams': { afterCommit: siteUsersChangedOnDelete },
  'business.departments': { afterCommit: siteUsersChangedOnDelete },
  'pabx.devices': {
    afterWrite: (ctx, id) => syncVoipAccounts(ctx, { deviceIds: [id] }),
    beforeDelete: (ctx, id) => dropVoipOfDevice(ctx, id),
    // Kamailio's HA1 and call-cap tables are pushed again (server/telephony/credentials.ts).
    async afterCommit(ctx, id, after) {
      await siteUsersChangedOnDelete(ctx, id, after)
      await telephonyTablesChanged(ctx.bus, 'devices')
    },
  },
  'pabx.trunks': {
    afterCommit: (ctx) => telephonyTablesChanged(ctx.bus, 'trunks'),
  },
}
