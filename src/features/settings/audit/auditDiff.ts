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

/** The fields whose values differ between before and after (every field for a create or a delete). */
export function auditChanges(before: Values | null, after: Values | null): Change[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !NOISE.has(k))
  return keys
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }))
    .filter((c) => JSON.stringify(c.before ?? null) !== JSON.stringify(c.after ?? null))
}

/** A value as the diff shows it: lists and rows as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—'
  if (typeof value === 'object') return JSON.stringify(value, null, 2)
  return String(value)
}
