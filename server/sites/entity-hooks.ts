import { entityMessage } from '../../contract/entities/index.ts'
import type { EntityContext } from '../entities/context.ts'
import { registerEntityHooks } from '../entities/hooks.ts'
import type { FieldErrors } from '../entities/types.ts'
import { normaliseDomain } from './site-repo.ts'

// Sites on the settings write path: one spelling of a domain, and the caller's own site stays active and present
// (another site is invisible anyway: 404).

const own = (ctx: EntityContext) => entityMessage('cannotRemoveOwn', ctx.lang)

registerEntityHooks('business.sites', {
  normalise(values) {
    if (typeof values.domain === 'string') values.domain = normaliseDomain(values.domain)
  },
  validate: (ctx, values, existing): FieldErrors => (existing?.id === ctx.site.id && values.is_active === false ? { is_active: [own(ctx)] } : {}),
  refuseDelete: (ctx, id) => (id === ctx.site.id ? own(ctx) : undefined),
})
