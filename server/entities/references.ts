import { and, eq, inArray } from 'drizzle-orm'
import type { EntityKey, FieldErrors } from './types.ts'
import { destinationApp, entityMessage } from '../../contract/entities/index.ts'
import type { FieldPlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import { tablesOf } from './tables.ts'

// Every id a body names — references, m2m links, destinations, and the same inside datatable rows — must name a row
// of the caller's own site. An id from another site reads exactly like one that does not exist: a field error, and
// nothing is written.

type Wanted = { path: string; key: EntityKey; id: number }

function wantedIn(fields: readonly FieldPlan[], values: Record<string, unknown>, prefix: string, out: Wanted[]): void {
  for (const plan of fields) {
    const { field } = plan
    const value = values[field.name]
    const path = `${prefix}${field.name}`
    if (value === null || value === undefined) continue
    if (plan.kind === 'value' && field.relation) out.push({ path, key: field.relation.entity, id: value as number })
    if (plan.kind === 'm2m') for (const id of value as number[]) out.push({ path, key: field.relation!.entity, id })
    if (plan.kind === 'app') {
      const { app, appdata } = value as { app: string; appdata: string }
      const target = destinationApp(field.family ?? 'pabx', app)
      if (target?.appdata === 'id' && target.entity) out.push({ path, key: target.entity, id: Number(appdata) })
    }
    if (plan.kind === 'rows') (value as Record<string, unknown>[]).forEach((row, i) => wantedIn(plan.child.fields, row, `${path}.${i}.`, out))
  }
}

export async function referenceErrors(ctx: EntityContext, key: EntityKey, values: Record<string, unknown>): Promise<FieldErrors> {
  const wanted: Wanted[] = []
  wantedIn(tablesOf(key).plan.fields, values, '', wanted)
  const errors: FieldErrors = {}
  const byEntity = new Map<EntityKey, Set<number>>()
  for (const w of wanted) byEntity.set(w.key, (byEntity.get(w.key) ?? new Set()).add(w.id))
  const found = new Map<EntityKey, Set<number>>()
  for (const [target, ids] of byEntity) {
    const { plan, main } = tablesOf(target)
    const rows = (await ctx.db
      .select({ id: main.col('id') })
      .from(main.table)
      .where(and(eq(main.col(plan.scope), ctx.site.id), inArray(main.col('id'), [...ids])))) as { id: number }[]
    found.set(target, new Set(rows.map((r) => r.id)))
  }
  for (const w of wanted) if (!found.get(w.key)?.has(w.id)) errors[w.path] = [entityMessage('invalidReference', ctx.lang)]
  return errors
}
