import { t } from '@lingui/core/macro'
import { submitErrors } from '../../api/errors.ts'
import { toast } from '../toast/toastStore.ts'

// Method syntax on purpose: any TanStack form (whatever its field names) fits.
type SettableForm = {
  setFieldMeta(field: never, updater: never): void
}

/**
 * Sorts a failed submit for where the user looks (spec 000 §8): field errors for their fields, the rest above the
 * form, and 'Ocorreu um erro {detail}' as a toast when nothing answered (then both are empty).
 */
export function sortServerErrors(error: unknown, fields: readonly string[]): { fields: Record<string, string>; form: string[] } {
  const mapped = submitErrors(error, fields)
  if (mapped.toast !== undefined) {
    const detail = mapped.toast
    toast.error(t`Ocorreu um erro ${detail}`)
    return { fields: {}, form: [] }
  }
  return { fields: mapped.fields, form: mapped.form }
}

/** `sortServerErrors` for a TanStack form: field errors go next to their fields. Returns the above-the-form messages. */
export function applyServerErrors(form: SettableForm, error: unknown, fields: readonly string[]): string[] {
  const mapped = sortServerErrors(error, fields)
  for (const [name, message] of Object.entries(mapped.fields)) {
    const set = form.setFieldMeta as unknown as (f: string, u: (prev: Record<string, unknown>) => Record<string, unknown>) => void
    set(name, (prev) => ({ ...prev, isTouched: true, errorMap: { ...(prev.errorMap as object), onSubmit: message } }))
  }
  return mapped.form
}
