import * as v from 'valibot'

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
