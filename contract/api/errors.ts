import * as v from 'valibot'

// DRF-style error bodies: `{field: [msg]}`, `{non_field_errors: [...]}` or `{detail}` (optionally with a `code`).
export type FieldErrors = Record<string, string[]>
export type DetailError = { detail: string; code?: string | number }
export type ErrorBody = FieldErrors | DetailError

/** Turns valibot issues into DRF field errors; issues without a path go to non_field_errors. */
export function issuesToFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || 'non_field_errors'
    ;(errors[key] ??= []).push(issue.message)
  }
  return errors
}
