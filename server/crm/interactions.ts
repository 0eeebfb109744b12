import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, asc, eq } from 'drizzle-orm'
import type { CallFormDefinition } from '../../contract/api/service-actions.ts'
import { INTERACTION_PATHS, InteractionTypeParams } from '../../contract/api/crm.ts'
import type { InteractionMenuResponse, InteractionTypeResponse } from '../../contract/api/crm.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { entityMessage } from '../../contract/entities/messages.ts'
import type { Db } from '../db/client.ts'
import { crmInteractions } from '../db/schema/index.ts'
import type { EntityContext } from '../entities/context.ts'
import type { ApiRecord } from '../entities/serialize.ts'
import type { FieldErrors } from '../entities/types.ts'
import { detailError } from '../http/errors.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'
import { loadFormDefinition } from '../outcomes/chain.ts'

// Interaction types (crm.interactions) as the /interactions pages need them: by id (/interactions/:interaction_id, the
// list of one type) or by slug (/interactions/:form, a new interaction of that type), with the form-builder form whose
// fields the record's form_data holds. A record's form_data is checked against that form on every write.

type TypeRow = typeof crmInteractions.$inferSelect

async function typeOf(db: Db, siteId: number, key: string): Promise<TypeRow | null> {
  const byId = /^\d{1,10}$/.test(key)
  // An id past the column's range names no row (and must not reach the database).
  if (byId && Number(key) > 2_147_483_647) return null
  const [row] = await db
    .select()
    .from(crmInteractions)
    .where(and(byId ? eq(crmInteractions.id, Number(key)) : eq(crmInteractions.slug, key), eq(crmInteractions.siteId, siteId)))
  return row ?? null
}

const empty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)

/** The required answers of the type's form that are missing, as `form_data.<name>` field errors. */
export function missingAnswers(form: CallFormDefinition | null, data: unknown, lang: string): FieldErrors {
  const errors: FieldErrors = {}
  if (!form) return errors
  const values = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
  for (const field of form.fields) {
    if (field.required !== true || field.readonly === true || field.type === 'file' || field.type === 'hidden') continue
    if (empty(values[String(field.name)])) errors[`form_data.${String(field.name)}`] = [entityMessage('required', lang)]
  }
  return errors
}

/** An interaction's write: its type's form's required answers (server/crm/entity-hooks.ts). */
export async function interactionFormErrors(ctx: EntityContext, values: Record<string, unknown>, existing: ApiRecord | null): Promise<FieldErrors> {
  const typeId = (values.interaction ?? existing?.interaction) as number | undefined
  if (typeof typeId !== 'number') return {}
  const type = await typeOf(ctx.db, ctx.site.id, String(typeId))
  // A type of another site is the reference check's error (invalid reference), not this one's.
  if (!type) return {}
  const data = 'form_data' in values ? values.form_data : existing?.form_data
  return missingAnswers(await loadFormDefinition(ctx.db, ctx.site.id, type.formId), data, ctx.lang)
}

export async function interactionTypeRoutes(app: FastifyInstance): Promise<void> {
  const records = entityByKey('crm.client-interactions')
  // Whoever sees the interactions sees their types and forms (an agent holds no service.view_form).
  const view = { config: { permission: records.permissions.view as RoutePermission } }
  const siteOf = (request: FastifyRequest) => request.auth!.user.siteId

  // The CRM menu's entries (issue 17): the active types marked 'show in menu', by name.
  app.get(INTERACTION_PATHS.menu, view, async (request): Promise<InteractionMenuResponse> => {
    const rows = await app.deps.db
      .select({ id: crmInteractions.id, description: crmInteractions.description, slug: crmInteractions.slug, icon: crmInteractions.icon, color: crmInteractions.color })
      .from(crmInteractions)
      .where(and(eq(crmInteractions.siteId, siteOf(request)), eq(crmInteractions.isActive, true), eq(crmInteractions.showInMenu, true)))
      .orderBy(asc(crmInteractions.description), asc(crmInteractions.id))
      .limit(200)
    return { results: rows }
  })

  app.get(INTERACTION_PATHS.type, view, async (request): Promise<InteractionTypeResponse> => {
    const params = parseInput(InteractionTypeParams, request.params, request.lang)
    const type = await typeOf(app.deps.db, siteOf(request), params.key)
    if (!type) throw detailError(404, 'notFound', request.lang)
    return {
      id: type.id,
      description: type.description,
      slug: type.slug,
      color: type.color,
      icon: type.icon,
      form: type.formId,
      form_definition: await loadFormDefinition(app.deps.db, siteOf(request), type.formId),
    }
  })
}
