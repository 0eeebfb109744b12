import { entityByKey } from '../../../contract/entities/index.ts'
import type { Entity, EntityKey, Field, OnDelete } from '../../../contract/entities/index.ts'
import { BRIDGES } from './bridge.ts'
import type { Bridge } from './bridge.ts'

// How every settings entity is stored, derived from its definition alone (the registry's storage hints). The schema
// generator renders these plans as Drizzle tables and the CRUD layer reads and writes through them, so a column is
// named in exactly one place. Conventions:
// - table `<area>_<name>` (dashes → underscores) with id, site_id, the fields, created_at and updated_at;
// - fk `<field>_id`; a destination `<field>_app` + `<field>_appdata`; a SIP secret also `<field>_ha1`;
// - m2m: join table `<table>_<field>` (`<owner model>_id`, `<target model>_id`, site_id); the other side of a
//   two-sided m2m (`relation.via`) reads the owner's table reversed;
// - rows: child table `<table>_<field>` (id, site_id, `<owner model>_id`, position, the row's fields).

export type SqlType = 'text' | 'integer' | 'boolean' | 'numeric' | 'timestamptz' | 'jsonb'
export type SqlOnDelete = 'cascade' | 'set null' | 'restrict'

export type ColumnPlan = {
  readonly name: string
  readonly type: SqlType
  readonly notNull: boolean
  readonly default?: string | number | boolean | readonly unknown[] | Readonly<Record<string, never>> | 'now'
  readonly references?: { readonly table: string; readonly onDelete: SqlOnDelete }
  readonly primaryKey?: boolean
}

/** Where a single value lives: a column, a key of a jsonb column, or a column of the one-to-one side table. */
export type Slot = { readonly column: string; readonly key?: string; readonly side?: boolean }

export type JoinPlan = {
  readonly table: string
  /** The column naming the row being read or written (reversed for the `via` side). */
  readonly owner: string
  readonly target: string
  readonly ownerTable: string
  readonly targetTable: string
  readonly existing: boolean
}

export type ChildPlan = {
  readonly table: string
  readonly parent: string
  readonly ownerTable: string
  readonly columns: readonly ColumnPlan[]
  readonly fields: readonly FieldPlan[]
}

export type FieldPlan =
  | { readonly kind: 'value'; readonly field: Field; readonly slot: Slot }
  | { readonly kind: 'file'; readonly field: Field; readonly slot: Slot; readonly dir: string; readonly stored: 'name' | 'url' }
  | { readonly kind: 'secret'; readonly field: Field; readonly slot: Slot; readonly ha1?: string }
  | { readonly kind: 'app'; readonly field: Field; readonly app: string; readonly appdata: string }
  | { readonly kind: 'm2m'; readonly field: Field; readonly join: JoinPlan }
  | { readonly kind: 'rows'; readonly field: Field; readonly child: ChildPlan }

export type UniquePlan = {
  readonly name: string
  readonly fields: readonly string[]
  readonly columns: readonly string[]
  /** A text column left empty does not count (optional unique texts). */
  readonly partial?: string
  readonly global?: boolean
}

export type TablePlan = {
  readonly entity: Entity
  readonly table: string
  readonly bridged: boolean
  readonly scope: 'site_id' | 'id'
  readonly created: string
  readonly updated: string
  /** Generated tables only: every column, in order. */
  readonly columns: readonly ColumnPlan[]
  readonly fields: readonly FieldPlan[]
  readonly uniques: readonly UniquePlan[]
  readonly side?: { readonly table: string; readonly owner: string }
}

const MAX_IDENTIFIER = 63

/** A PostgreSQL identifier: names longer than 63 bytes are cut and given a short hash, as PostgreSQL would truncate. */
export function identifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER) return name
  let hash = 0
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${hash.toString(16).padStart(8, '0')}`
}

export function tableNameOf(key: EntityKey): string {
  return BRIDGES[key]?.table ?? key.replace('.', '_').replace(/-/g, '_')
}

const ON_DELETE: Record<OnDelete, SqlOnDelete> = { protect: 'restrict', cascade: 'cascade', setNull: 'set null' }

function scalarColumn(field: Field, name: string): ColumnPlan {
  const fallback = field.default
  switch (field.storage) {
    case 'int':
    case 'numeric': {
      const type = field.storage === 'int' ? 'integer' : 'numeric'
      return typeof fallback === 'number' ? { name, type, notNull: true, default: fallback } : { name, type, notNull: false }
    }
    case 'bool':
      return { name, type: 'boolean', notNull: true, default: fallback === true }
    case 'timestamptz':
      return { name, type: 'timestamptz', notNull: false }
    case 'jsonb':
      // A hidden document (a custom form's values) is an object; every other jsonb value is a list.
      return { name, type: 'jsonb', notNull: true, default: field.kind === 'hidden' ? {} : Array.isArray(fallback) ? fallback : [] }
    case 'file':
      return { name, type: 'text', notNull: false }
    default:
      return { name, type: 'text', notNull: true, default: typeof fallback === 'string' ? fallback : '' }
  }
}

function fkColumn(field: Field, name: string): ColumnPlan {
  const relation = field.relation!
  const nullable = !field.required || relation.onDelete === 'setNull'
  return { name, type: 'integer', notNull: !nullable, references: { table: tableNameOf(relation.entity), onDelete: ON_DELETE[relation.onDelete] } }
}

function joinPlan(owner: Entity, field: Field): JoinPlan {
  const bridged = BRIDGES[owner.key]?.joins?.[field.name]
  const ownerTable = tableNameOf(owner.key)
  const target = entityByKey(field.relation!.entity)
  const targetTable = tableNameOf(target.key)
  if (bridged) return { table: bridged.table, owner: bridged.owner, target: bridged.target, ownerTable, targetTable, existing: true }
  const ownerColumn = `${owner.model}_id`
  const targetColumn = target.model === owner.model ? 'target_id' : `${target.model}_id`
  return { table: identifier(`${ownerTable}_${field.name}`), owner: ownerColumn, target: targetColumn, ownerTable, targetTable, existing: false }
}

/** The join table of an m2m field, reversed when the field is the `via` side of another entity's m2m. */
function m2mPlan(entity: Entity, field: Field): JoinPlan {
  const via = field.relation!.via
  if (!via) return joinPlan(entity, field)
  const owner = entityByKey(field.relation!.entity)
  const ownerField = owner.fields.find((f) => f.name === via)
  if (!ownerField?.relation?.many || ownerField.relation.entity !== entity.key)
    throw new Error(`${entity.key}.${field.name}: via ${via} is not an m2m back to it`)
  const join = joinPlan(owner, ownerField)
  return { ...join, owner: join.target, target: join.owner, ownerTable: join.targetTable, targetTable: join.ownerTable }
}

type Context = { bridge?: Bridge; table: string; model: string }

/** The plan of one field and the columns it adds to its table. */
function planField(entity: Entity, field: Field, ctx: Context): { plan?: FieldPlan; columns: ColumnPlan[] } {
  const { bridge } = ctx
  const column = bridge?.columns?.[field.name]
  const json = bridge?.json?.[field.name]
  const side = bridge?.side?.fields.includes(field.name)
  const slot = (name: string): Slot => (json ? { column: json.column, key: json.key } : side ? { column: name, side: true } : { column: column ?? name })
  const own = (columns: ColumnPlan[]) => (json || side ? [] : columns)
  switch (field.storage) {
    case 'none':
      return { columns: [] }
    case 'fk': {
      const name = column ?? `${field.name}_id`
      return { plan: { kind: 'value', field, slot: slot(name) }, columns: own([fkColumn(field, name)]) }
    }
    case 'm2m':
      return { plan: { kind: 'm2m', field, join: m2mPlan(entity, field) }, columns: [] }
    case 'app': {
      const [app, appdata] = [`${field.name}_app`, `${field.name}_appdata`]
      const text = (name: string): ColumnPlan => ({ name, type: 'text', notNull: true, default: '' })
      return { plan: { kind: 'app', field, app, appdata }, columns: [text(app), text(appdata)] }
    }
    case 'rows':
      return { plan: { kind: 'rows', field, child: childPlan(entity, field, ctx) }, columns: [] }
    case 'file': {
      const name = column ?? field.name
      const where = bridge?.files?.[field.name] ?? { dir: `${entity.area}-${entity.name}`, stored: 'name' as const }
      return { plan: { kind: 'file', field, slot: slot(name), ...where }, columns: own([scalarColumn(field, name)]) }
    }
    default: {
      const name = column ?? field.name
      if (field.secret) {
        const ha1 = field.secret === 'ha1' ? `${name}_ha1` : undefined
        const secretColumns: ColumnPlan[] = [{ name, type: 'text', notNull: true, default: '' }]
        if (ha1) secretColumns.push({ name: ha1, type: 'text', notNull: true, default: '' })
        return { plan: { kind: 'secret', field, slot: slot(name), ...(ha1 ? { ha1 } : {}) }, columns: own(secretColumns) }
      }
      return { plan: { kind: 'value', field, slot: slot(name) }, columns: own([scalarColumn(field, name)]) }
    }
  }
}

function childPlan(entity: Entity, field: Field, ctx: Context): ChildPlan {
  const table = identifier(`${ctx.table}_${field.name}`)
  const parent = `${ctx.model}_id`
  const columns: ColumnPlan[] = [
    { name: 'id', type: 'integer', notNull: true, primaryKey: true },
    siteColumn(),
    { name: parent, type: 'integer', notNull: true, references: { table: ctx.table, onDelete: 'cascade' } },
    { name: 'position', type: 'integer', notNull: true, default: 0 },
  ]
  const fields: FieldPlan[] = []
  for (const sub of field.fields ?? []) {
    if (sub.storage === 'm2m' || sub.storage === 'rows') throw new Error(`${entity.key}.${field.name}.${sub.name}: lists inside rows are not supported`)
    const planned = planField(entity, sub, { table, model: ctx.model })
    if (planned.plan) fields.push(planned.plan)
    columns.push(...planned.columns)
  }
  return { table, parent, ownerTable: ctx.table, columns, fields }
}

function siteColumn(): ColumnPlan {
  return { name: 'site_id', type: 'integer', notNull: true, references: { table: 'sites', onDelete: 'cascade' } }
}

function columnsOf(plan: FieldPlan): string[] {
  switch (plan.kind) {
    case 'app':
      return [plan.app, plan.appdata]
    case 'value':
    case 'file':
    case 'secret':
      return [plan.slot.column]
    default:
      return []
  }
}

function uniquesOf(entity: Entity, table: string, fields: readonly FieldPlan[], bridge: Bridge | undefined): UniquePlan[] {
  const byName = new Map(fields.map((f) => [f.field.name, f]))
  const uniques: UniquePlan[] = []
  for (const plan of fields) {
    if (!plan.field.unique) continue
    const columns = columnsOf(plan)
    const partial = plan.field.storage === 'text' && !plan.field.required ? columns[0] : undefined
    const global = bridge?.globalUnique?.includes(plan.field.name) ?? false
    uniques.push({ name: identifier(`${table}_${plan.field.name}_unique`), fields: [plan.field.name], columns, ...(partial ? { partial } : {}), global })
  }
  for (const names of entity.uniqueTogether ?? []) {
    const columns = names.flatMap((name) => columnsOf(byName.get(name)!))
    uniques.push({ name: identifier(`${table}_${names.join('_')}_unique`), fields: names, columns })
  }
  return uniques
}

function buildPlan(entity: Entity): TablePlan {
  const bridge = BRIDGES[entity.key]
  const table = tableNameOf(entity.key)
  const ctx: Context = { table, model: entity.model, ...(bridge ? { bridge } : {}) }
  const columns: ColumnPlan[] = [{ name: 'id', type: 'integer', notNull: true, primaryKey: true }, siteColumn()]
  const fields: FieldPlan[] = []
  for (const field of entity.fields) {
    const planned = planField(entity, field, ctx)
    if (planned.plan) fields.push(planned.plan)
    columns.push(...planned.columns)
  }
  columns.push(
    { name: 'created_at', type: 'timestamptz', notNull: true, default: 'now' },
    { name: 'updated_at', type: 'timestamptz', notNull: true, default: 'now' },
  )
  return {
    entity,
    table,
    bridged: !!bridge,
    scope: bridge?.scope ?? 'site_id',
    created: bridge?.created ?? 'created_at',
    updated: bridge?.updated ?? 'updated_at',
    columns: bridge ? [] : columns,
    fields,
    uniques: uniquesOf(entity, table, fields, bridge),
    ...(bridge?.side ? { side: { table: bridge.side.table, owner: bridge.side.owner } } : {}),
  }
}

const PLANS = new Map<EntityKey, TablePlan>()

/** The storage plan of an entity (computed once). */
export function planOf(key: EntityKey): TablePlan {
  let plan = PLANS.get(key)
  if (!plan) PLANS.set(key, (plan = buildPlan(entityByKey(key))))
  return plan
}

/** Every child table of the plan, and the join tables it owns (not the `via` side, not existing ones). */
export function ownedTables(plan: TablePlan): { joins: JoinPlan[]; children: ChildPlan[] } {
  const joins: JoinPlan[] = []
  const children: ChildPlan[] = []
  for (const field of plan.fields) {
    if (field.kind === 'm2m' && !field.field.relation?.via && !field.join.existing) joins.push(field.join)
    if (field.kind === 'rows') children.push(field.child)
  }
  return { joins, children }
}
