import { ENTITIES } from '../../../contract/entities/index.ts'
import { ownedTables, planOf } from './plan.ts'
import type { ChildPlan, ColumnPlan, JoinPlan, TablePlan } from './plan.ts'
import { identifier } from './plan.ts'

// Renders the storage plans as a Drizzle schema module (server/db/schema/entities.generated.ts). A test compares the
// file with a fresh rendering, so the registry and the tables cannot drift apart.

/** The hand-written tables generated ones may reference, by SQL name. */
const EXISTING: Record<string, { name: string; from: string }> = {
  sites: { name: 'sites', from: './sites.ts' },
  users: { name: 'users', from: './users.ts' },
  teams: { name: 'teams', from: './teams.ts' },
  permission_groups: { name: 'permissionGroups', from: './groups.ts' },
}

export function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

function tsTable(table: string): string {
  return EXISTING[table]?.name ?? camel(table)
}

function literal(value: unknown): string {
  return JSON.stringify(value).replace(/"/g, "'")
}

function renderColumn(column: ColumnPlan): string {
  if (column.primaryKey) return `${camel(column.name)}: serial('${column.name}').primaryKey()`
  const base: Record<ColumnPlan['type'], string> = {
    text: `text('${column.name}')`,
    integer: `integer('${column.name}')`,
    boolean: `boolean('${column.name}')`,
    numeric: `numeric('${column.name}', { mode: 'number' })`,
    timestamptz: `timestamp('${column.name}', { withTimezone: true })`,
    jsonb: `jsonb('${column.name}').$type<unknown[]>()`,
  }
  let code = base[column.type]
  // A document (a custom form's values) rather than a list.
  if (column.type === 'jsonb' && column.default !== undefined && !Array.isArray(column.default)) code = `jsonb('${column.name}').$type<Record<string, unknown>>()`
  if (column.notNull) code += '.notNull()'
  if (column.default === 'now') code += '.defaultNow()'
  else if (column.default !== undefined) code += `.default(${literal(column.default)})`
  if (column.references) code += `.references((): AnyPgColumn => ${tsTable(column.references.table)}.id, { onDelete: '${column.references.onDelete}' })`
  return `${camel(column.name)}: ${code}`
}

function renderTable(table: string, columns: readonly ColumnPlan[], extras: string[], comment: string): string {
  const body = columns.map((c) => `    ${renderColumn(c)},`).join('\n')
  const config = extras.length ? `,\n  (t) => [\n${extras.map((e) => `    ${e},`).join('\n')}\n  ]` : ''
  return `// ${comment}\nexport const ${tsTable(table)} = pgTable(\n  '${table}',\n  {\n${body}\n  }${config},\n)\n`
}

function indexes(table: string, columns: readonly ColumnPlan[], skip: readonly string[] = []): string[] {
  return columns.filter((c) => c.references && !skip.includes(c.name)).map((c) => `index('${identifier(`${table}_${c.name}_idx`)}').on(t.${camel(c.name)})`)
}

/**
 * The list's default order within a site (`site_id, is_active desc, id` for `-is_active,id`): the first page of a
 * list reads it instead of sorting the site's rows. Terms that are not plain columns of the table end the index.
 */
export function listOrderIndex(plan: TablePlan): { name: string; columns: { column: string; desc: boolean }[] } {
  const own = new Map<string, string>()
  for (const fp of plan.fields) if (fp.kind === 'value' && !fp.slot.key && !fp.slot.side && fp.field.storage !== 'jsonb') own.set(fp.field.name, fp.slot.column)
  const columns: { column: string; desc: boolean }[] = [{ column: plan.scope, desc: false }]
  for (const term of plan.entity.list.ordering) {
    const name = term.replace(/^-/, '')
    const column = name === 'id' ? 'id' : own.get(name)
    if (!column) break
    columns.push({ column, desc: term.startsWith('-') })
    if (column === 'id') break
  }
  if (!columns.some((c) => c.column === 'id')) columns.push({ column: 'id', desc: false })
  return { name: identifier(`${plan.table}_list_order_idx`), columns }
}

/** Trigram (pg_trgm) GIN indexes of the searchable text columns, so `search` (`ILIKE '%term%'`) need not scan the table. */
export function searchIndexes(plan: TablePlan): { name: string; column: string }[] {
  return plan.fields.flatMap((fp) =>
    plan.entity.list.search.includes(fp.field.name) && fp.kind === 'value' && !fp.slot.key && !fp.slot.side && fp.field.storage === 'text'
      ? [{ name: identifier(`${plan.table}_${fp.slot.column}_trgm_idx`), column: fp.slot.column }]
      : [],
  )
}

function renderEntity(plan: TablePlan): string {
  const order = listOrderIndex(plan)
  // The list index leads with site_id, so it also serves the site foreign key.
  const extras = indexes(plan.table, plan.columns, [plan.scope])
  extras.push(`index('${order.name}').on(${order.columns.map((c) => `t.${camel(c.column)}${c.desc ? '.desc().nullsFirst()' : ''}`).join(', ')})`)
  for (const search of searchIndexes(plan)) extras.push(`index('${search.name}').using('gin', t.${camel(search.column)}.op('gin_trgm_ops'))`)
  for (const unique of plan.uniques) {
    const on = [...(unique.global ? [] : ['site_id']), ...unique.columns].map((c) => `t.${camel(c)}`).join(', ')
    const where = unique.partial ? `.where(sql\`\${t.${camel(unique.partial)}} <> ''\`)` : ''
    extras.push(`uniqueIndex('${unique.name}').on(${on})${where}`)
  }
  return renderTable(plan.table, plan.columns, extras, `${plan.entity.key}: ${plan.entity.label.plural['en-US']}`)
}

function renderJoin(join: JoinPlan, label: string): string {
  const columns: ColumnPlan[] = [
    { name: join.owner, type: 'integer', notNull: true, references: { table: join.ownerTable, onDelete: 'cascade' } },
    { name: join.target, type: 'integer', notNull: true, references: { table: join.targetTable, onDelete: 'cascade' } },
    { name: 'site_id', type: 'integer', notNull: true, references: { table: 'sites', onDelete: 'cascade' } },
  ]
  const extras = [
    `primaryKey({ columns: [t.${camel(join.owner)}, t.${camel(join.target)}] })`,
    `index('${identifier(`${join.table}_${join.target}_idx`)}').on(t.${camel(join.target)})`,
  ]
  return renderTable(join.table, columns, extras, `${label} (m2m)`)
}

function renderChild(child: ChildPlan, label: string): string {
  return renderTable(child.table, child.columns, indexes(child.table, child.columns), `${label} (rows)`)
}

/** The whole generated module. */
export function renderEntitySchema(): string {
  const parts: string[] = []
  for (const entity of ENTITIES) {
    const plan = planOf(entity.key)
    if (!plan.bridged) parts.push(renderEntity(plan))
    const { joins, children } = ownedTables(plan)
    for (const join of joins) parts.push(renderJoin(join, `${entity.key}.${tableField(plan, join.table)}`))
    for (const child of children) parts.push(renderChild(child, `${entity.key}.${tableField(plan, child.table)}`))
  }
  const imports = Object.values(EXISTING)
    .map((e) => `import { ${e.name} } from '${e.from}'`)
    .join('\n')
  return [
    '// Generated from contract/entities by `node server/db/entity-schema/generate.ts`; do not edit by hand.',
    '// Storage conventions: server/db/entity-schema/plan.ts. Entities mapped onto older tables: bridge.ts.',
    "import { sql } from 'drizzle-orm'",
    "import type { AnyPgColumn } from 'drizzle-orm/pg-core'",
    "import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'",
    imports,
    '',
    parts.join('\n'),
  ].join('\n')
}

function tableField(plan: TablePlan, table: string): string {
  return plan.fields.find((f) => (f.kind === 'm2m' && f.join.table === table) || (f.kind === 'rows' && f.child.table === table))?.field.name ?? table
}
