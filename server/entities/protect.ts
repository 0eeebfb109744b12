import { and, eq, inArray } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { EntityKey } from '../../contract/entities/index.ts'
import { DESTINATION_APPS, entityMessage, referencesTo } from '../../contract/entities/index.ts'
import type { Reference } from '../../contract/entities/index.ts'
import type { FieldPlan } from '../db/entity-schema/plan.ts'
import type { EntityContext } from './context.ts'
import { bindTable, tablesOf } from './tables.ts'
import { loadTitles } from './titles.ts'

// Before a DELETE: who still points at the row through a protecting reference (required references, and every
// destination). Rows that would go with it (children deleted in cascade) are checked too, so deleting a sound folder
// whose prompt an IVR plays is refused with the IVR's name rather than failing in the database.

const SHOWN = 3

function fieldPlan(key: EntityKey, name: string): FieldPlan | undefined {
  return tablesOf(key).plan.fields.find((f) => f.field.name === name)
}

/** The condition selecting rows of a plan's table whose field points at `id` of `target`. */
function pointsAt(table: ReturnType<typeof bindTable>, plan: FieldPlan, target: EntityKey, id: number): SQL | undefined {
  if (plan.kind === 'value') return eq(table.col(plan.slot.column), id)
  if (plan.kind === 'app') {
    const family = DESTINATION_APPS[plan.field.family ?? 'pabx']
    const apps = (plan.field.apps ?? []).filter((app) => family[app]?.entity === target)
    return apps.length ? and(inArray(table.col(plan.app), apps), eq(table.col(plan.appdata), String(id))) : undefined
  }
  return undefined
}

/** Ids of the rows of `ref.entity` that point at `id` (through a datatable row when the path is two deep). */
export async function referrers(ctx: EntityContext, ref: Reference, target: EntityKey, id: number): Promise<number[]> {
  const { plan, main } = tablesOf(ref.entity.key)
  const top = fieldPlan(ref.entity.key, ref.path[0]!)
  if (!top) return []
  if (top.kind === 'm2m') {
    const join = bindTable(top.join.table)
    const rows = await ctx.db
      .select({ id: join.col(top.join.owner) })
      .from(join.table)
      .where(and(eq(join.col('site_id'), ctx.site.id), eq(join.col(top.join.target), id)))
    return (rows as { id: number }[]).map((r) => r.id)
  }
  if (top.kind === 'rows') {
    const child = bindTable(top.child.table)
    const sub = top.child.fields.find((f) => f.field.name === ref.path[1])
    const condition = sub && pointsAt(child, sub, target, id)
    if (!condition) return []
    const rows = await ctx.db
      .selectDistinct({ id: child.col(top.child.parent) })
      .from(child.table)
      .where(and(eq(child.col('site_id'), ctx.site.id), condition))
    return (rows as { id: number }[]).map((r) => r.id)
  }
  const condition = pointsAt(main, top, target, id)
  if (!condition) return []
  const rows = await ctx.db
    .select({ id: main.col('id') })
    .from(main.table)
    .where(and(eq(main.col(plan.scope), ctx.site.id), condition))
  return (rows as { id: number }[]).map((r) => r.id)
}

/** "IVRs: Main menu, Night" for every protecting reference in use; empty when the row may be deleted. */
export async function usedBy(ctx: EntityContext, key: EntityKey, id: number, depth = 0): Promise<string[]> {
  const found: string[] = []
  for (const ref of referencesTo(key)) {
    if (ref.onDelete === 'setNull' || (ref.onDelete === 'cascade' && ref.kind !== 'fk')) continue
    const ids = await referrers(ctx, ref, key, id)
    if (ids.length === 0) continue
    if (ref.onDelete === 'cascade') {
      // A child deleted with this row must not itself be protected (a datatable row going is no such child).
      if (depth < 3 && ref.path.length === 1) for (const child of ids) found.push(...(await usedBy(ctx, ref.entity.key, child, depth + 1)))
      continue
    }
    const titles = await loadTitles(ctx, ref.entity.key, ids.slice(0, SHOWN))
    const names = ids.slice(0, SHOWN).map((i) => titles.get(i) || `#${i}`)
    const more = ids.length > SHOWN ? ` (+${ids.length - SHOWN})` : ''
    found.push(`${ref.entity.label.plural[ctx.lang]}: ${names.join(', ')}${more}`)
  }
  return [...new Set(found)]
}

export function protectedMessage(ctx: EntityContext, uses: readonly string[]): string {
  return entityMessage('protectedReference', ctx.lang, { where: uses.join('; ') })
}
