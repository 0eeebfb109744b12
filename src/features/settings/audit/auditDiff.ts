import type { Values } from '../../../../contract/entities/index.ts'

export type AuditEntry = {
  readonly id: number
  /** When the change was made (ISO 8601). */
  readonly at: string
  readonly user: number | null
  readonly user_description?: string | null
  readonly entity: string
  readonly object_id: number
  readonly action: 'create' | 'update' | 'delete'
  readonly before: Values | null
  readonly after: Values | null
  /** Set when the database changed this row in cascade of another row's delete: that row. */
  readonly cascade_of?: { readonly entity: string; readonly object_id: number } | null
}

export type Change = { readonly field: string; readonly before: unknown; readonly after: unknown }

// Bookkeeping keys every record carries; they change on every save and say nothing.
const NOISE = new Set(['id', 'updated_at', 'created_at'])

const DESCRIPTION = '_description'

/** A reference's title the API sends beside its id (`team_description` beside `team`). */
function isDescriptionOf(key: string, keys: ReadonlySet<string>): boolean {
  return key.endsWith(DESCRIPTION) && keys.has(key.slice(0, -DESCRIPTION.length))
}

/** A side of a change as people read it: a reference by its title, not by its id. */
function shown(record: Values | null, field: string): unknown {
  const title = record?.[`${field}${DESCRIPTION}`]
  return title !== undefined && title !== null && title !== '' ? title : record?.[field]
}

/**
 * The fields whose values differ between before and after (every field for a create or a delete). A reference
 * counts once, under its own field, shown by its titles; a title that changed because the row it names was renamed
 * is no change of this record.
 */
export function auditChanges(before: Values | null, after: Values | null): Change[] {
  const all = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  const keys = [...all].filter((k) => !NOISE.has(k) && !isDescriptionOf(k, all))
  return keys
    .filter((field) => JSON.stringify(before?.[field] ?? null) !== JSON.stringify(after?.[field] ?? null))
    .map((field) => ({ field, before: shown(before, field), after: shown(after, field) }))
}

/** A value as the diff shows it: lists and rows as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—'
  if (typeof value === 'object') return JSON.stringify(value, null, 2)
  return String(value)
}
