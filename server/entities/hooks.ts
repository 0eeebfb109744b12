import type { EntityKey } from '../../contract/entities/index.ts'
import type { EntityContext } from './context.ts'
import type { ApiRecord } from './serialize.ts'
import type { FieldErrors } from './types.ts'

// What a few entities need beyond their definition. Nothing here names an entity: each area registers its own rules
// (server/users/entity-hooks.ts, server/sites/entity-hooks.ts, server/telephony/entity-hooks.ts), and
// server/entity-hooks.ts loads those registrations for the app and the seed. Two areas may register for the same
// entity (a user's password rules and its webphone account): their hooks run one after the other.
type Values = Record<string, unknown>

/** A committed create or update: the parsed values it wrote (secrets as sent, before hashing). */
export type CommittedWrite = { values: Values; created: boolean }

export type EntityHooks = {
  /** Rewrites parsed values before they are checked and written. */
  normalise?(values: Values): void
  /** Field errors the schema cannot know (policies, the caller's own row). */
  validate?(ctx: EntityContext, values: Values, existing: ApiRecord | null): FieldErrors | Promise<FieldErrors>
  /** Runs inside the write's transaction. */
  afterWrite?(ctx: EntityContext, id: number): Promise<void>
  /** A reason to refuse a delete outright. */
  refuseDelete?(ctx: EntityContext, id: number): string | undefined
  /** Runs inside the delete's transaction, before the row goes. */
  beforeDelete?(ctx: EntityContext, id: number): Promise<void>
  /** Runs once a write or delete is committed; `after` is the record now (null: deleted), `write` what was written. */
  afterCommit?(ctx: EntityContext, id: number, after: ApiRecord | null, write?: CommittedWrite): Promise<void>
}

/** The registered hooks of each entity (every area's, combined); read by the write path, the import and the seed. */
export const HOOKS: Partial<Record<EntityKey, EntityHooks>> = {}

function combine(first: EntityHooks, second: EntityHooks): EntityHooks {
  const both = <K extends keyof EntityHooks>(key: K) => (first[key] && second[key] ? true : undefined)
  return {
    normalise: both('normalise')
      ? (values) => {
          first.normalise!(values)
          second.normalise!(values)
        }
      : (first.normalise ?? second.normalise),
    validate: both('validate')
      ? async (ctx, values, existing) => ({ ...(await second.validate!(ctx, values, existing)), ...(await first.validate!(ctx, values, existing)) })
      : (first.validate ?? second.validate),
    afterWrite: both('afterWrite')
      ? async (ctx, id) => {
          await first.afterWrite!(ctx, id)
          await second.afterWrite!(ctx, id)
        }
      : (first.afterWrite ?? second.afterWrite),
    refuseDelete: both('refuseDelete')
      ? (ctx, id) => first.refuseDelete!(ctx, id) ?? second.refuseDelete!(ctx, id)
      : (first.refuseDelete ?? second.refuseDelete),
    beforeDelete: both('beforeDelete')
      ? async (ctx, id) => {
          await first.beforeDelete!(ctx, id)
          await second.beforeDelete!(ctx, id)
        }
      : (first.beforeDelete ?? second.beforeDelete),
    afterCommit: both('afterCommit')
      ? async (ctx, id, after, write) => {
          await first.afterCommit!(ctx, id, after, write)
          await second.afterCommit!(ctx, id, after, write)
        }
      : (first.afterCommit ?? second.afterCommit),
  }
}

/** An area's rules for one of its entities; hooks registered earlier for the same entity run first. */
export function registerEntityHooks(key: EntityKey, hooks: EntityHooks): void {
  const current = HOOKS[key]
  HOOKS[key] = current ? combine(current, hooks) : hooks
}
