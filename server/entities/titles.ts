import { and, eq, inArray } from 'drizzle-orm'
import type { AppFamily, EntityKey } from '../../contract/entities/index.ts'
import { destinationApp } from '../../contract/entities/index.ts'
import type { EntityContext } from './context.ts'
import { tablesOf } from './tables.ts'

// The text that names a row (its entity's title field): what `<field>_description` answers beside an id, lookups
// list and protect messages quote. Requests are gathered while a page is serialised and loaded with one query per
// entity. A title field that is itself a reference (a union is named by its sub-classification) is followed.

type Assign = (title: string | null) => void

export type Destination = { app: string; appdata: string | number }

export class Titles {
  private wanted = new Map<EntityKey, Map<number, Assign[]>>()

  want(key: EntityKey, id: number | null | undefined, assign: Assign): void {
    if (id === null || id === undefined) return assign(null)
    const byId = this.wanted.get(key) ?? new Map<number, Assign[]>()
    this.wanted.set(key, byId)
    byId.set(id, [...(byId.get(id) ?? []), assign])
  }

  /** A destination reads "Queue: Support", "External number: 5511…" or just "Hang up". */
  wantDestination(family: AppFamily, value: Destination | null, lang: string, assign: Assign): void {
    if (!value) return assign(null)
    const app = destinationApp(family, value.app)
    if (!app) return assign(value.app)
    const label = app.label[lang as keyof typeof app.label] ?? app.label['pt-BR']
    if (app.appdata === 'none') return assign(label)
    if (app.appdata === 'number' || !app.entity) return assign(`${label}: ${value.appdata}`)
    this.want(app.entity, Number(value.appdata), (title) => assign(`${label}: ${title ?? value.appdata}`))
  }

  async resolve(ctx: EntityContext, depth = 0): Promise<void> {
    while (this.wanted.size > 0) {
      const batch = this.wanted
      this.wanted = new Map()
      for (const [key, byId] of batch) {
        const titles = await loadTitles(ctx, key, [...byId.keys()], depth)
        for (const [id, assigns] of byId) for (const assign of assigns) assign(titles.get(id) ?? null)
      }
    }
  }
}

/** id → title of some rows of an entity, within the caller's site. */
export async function loadTitles(ctx: EntityContext, key: EntityKey, ids: readonly number[], depth = 0): Promise<Map<number, string>> {
  const titles = new Map<number, string>()
  if (ids.length === 0 || depth > 3) return titles
  const { plan, main } = tablesOf(key)
  const field = plan.fields.find((f) => f.field.name === plan.entity.titleField)
  if (!field) return titles
  const scope = and(eq(main.col(plan.scope), ctx.site.id), inArray(main.col('id'), [...ids]))
  const nested = new Titles()
  if (field.kind === 'app') {
    const rows = await ctx.db
      .select({ id: main.col('id'), app: main.col(field.app), appdata: main.col(field.appdata) })
      .from(main.table)
      .where(scope)
    for (const row of rows as { id: number; app: string; appdata: string }[]) {
      nested.wantDestination(field.field.family ?? 'pabx', row.app ? { app: row.app, appdata: row.appdata } : null, ctx.lang, (t) =>
        titles.set(row.id, t ?? ''),
      )
    }
  } else if (field.kind === 'value' && !field.slot.key && !field.slot.side) {
    const rows = await ctx.db
      .select({ id: main.col('id'), value: main.col(field.slot.column) })
      .from(main.table)
      .where(scope)
    for (const row of rows as { id: number; value: unknown }[]) {
      const target = field.field.relation?.entity
      if (target) nested.want(target, row.value as number | null, (t) => titles.set(row.id, t ?? ''))
      else titles.set(row.id, String(row.value ?? ''))
    }
  }
  await nested.resolve(ctx, depth + 1)
  return titles
}
