import * as v from 'valibot'
import { installValidationMessages } from '../../app/validationMessages.ts'

// Every form validates through here, so the fallback messages are installed with the first validation (not in
// main.tsx: valibot and the message tables stay off the sign-in page until its form is used).
installValidationMessages()

/** The first message of each failing field (dot path), validating with the active language; undefined when valid. */
export function schemaFieldErrors<TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, lang: string): Record<string, string> | undefined {
  const result = v.safeParse(schema, value, { lang })
  if (result.success) return undefined
  const fields: Record<string, string> = {}
  for (const issue of result.issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || 'non_field_errors'
    fields[key] ??= issue.message
  }
  return fields
}

/** A TanStack Form form-level validator from a contract schema (plus optional extra rules). */
export function formValidator<TValues>(schema: v.GenericSchema, lang: () => string, extra?: (value: TValues, lang: string) => Record<string, string>) {
  return ({ value }: { value: TValues }) => {
    const fields = { ...extra?.(value, lang()), ...schemaFieldErrors(schema, value, lang()) }
    return Object.keys(fields).length ? { fields } : undefined
  }
}
