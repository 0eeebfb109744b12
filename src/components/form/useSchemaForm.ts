import { useRef, useState } from 'react'
import type * as v from 'valibot'
import { useLingui } from '@lingui/react'
import { reloadForChunkError } from '../../app/chunkReload.ts'

type Values = Record<string, string>
type Validate = (values: unknown, lang: string) => Record<string, string> | undefined

/** What `TextField` reads from a field: the same shape as a TanStack Form field, so both kinds of form share it. */
export type SchemaField = {
  name: string
  state: { value: string; meta: { errors: string[]; isTouched: boolean } }
  handleChange: (value: string) => void
  handleBlur: () => void
  form: { state: { submissionAttempts: number } }
}

/**
 * A small form for pages that must stay light (the sign-in page): string fields validated by a contract schema on
 * every change and on submit, in the active language, plus the server's field errors. A field shows its error once
 * it was touched or a submit was attempted; a server error stays on its field until that field changes or the form
 * is submitted again. `onSubmit` runs only when the values pass the schema.
 *
 * `loadSchema` is a dynamic import: the schema, valibot and the validation messages load when the form is first
 * touched (or submitted), not with the page. Before that no field shows an error, so nothing is lost.
 */
export function useSchemaForm<T extends Values>({
  loadSchema,
  defaultValues,
  onSubmit,
}: {
  loadSchema: () => Promise<v.GenericSchema>
  defaultValues: T
  onSubmit: (values: T) => Promise<void>
}) {
  const { i18n } = useLingui()
  const [validate, setValidate] = useState<Validate | null>(null)
  const loading = useRef<Promise<Validate> | null>(null)
  const loadValidation = () =>
    (loading.current ??= Promise.all([loadSchema(), import('./validation.ts')]).then(
      ([schema, { schemaFieldErrors }]) => {
        const next: Validate = (values, lang) => schemaFieldErrors(schema, values, lang)
        setValidate(() => next)
        return next
      },
      (error: unknown) => {
        loading.current = null
        throw error
      },
    ))
  const [values, setValues] = useState(defaultValues)
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({})
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof T, string>>>({})
  const [submissionAttempts, setSubmissionAttempts] = useState(0)
  const [isSubmitting, setSubmitting] = useState(false)
  const submitting = useRef(false)
  // Computed while rendering, so the messages follow the active language at once.
  const errors = validate?.(values, i18n.locale) ?? {}

  const field = (name: keyof T & string): SchemaField => ({
    name,
    state: {
      value: values[name],
      meta: { errors: [errors[name], serverErrors[name]].filter((e): e is string => Boolean(e)), isTouched: Boolean(touched[name]) },
    },
    handleChange: (value) => {
      void loadValidation().catch(() => {})
      setValues((prev) => ({ ...prev, [name]: value }))
      setTouched((prev) => ({ ...prev, [name]: true }))
      setServerErrors((prev) => ({ ...prev, [name]: undefined }))
    },
    handleBlur: () => {
      void loadValidation().catch(() => {})
      setTouched((prev) => ({ ...prev, [name]: true }))
    },
    form: { state: { submissionAttempts } },
  })

  const handleSubmit = async () => {
    if (submitting.current) return
    setSubmissionAttempts((n) => n + 1)
    setServerErrors({})
    submitting.current = true
    setSubmitting(true)
    try {
      const check = await loadValidation().catch((error: unknown) => {
        // The validation chunk is gone (a new deployment): reload, as for a page chunk; otherwise say so and stop.
        if (!reloadForChunkError(error)) console.error(error)
        return null
      })
      if (!check || check(values, i18n.locale)) return
      await onSubmit(values)
    } finally {
      submitting.current = false
      setSubmitting(false)
    }
  }

  /** Puts server messages on their fields (as `applyServerErrors` does for TanStack forms). */
  const setFieldErrors = (fields: Partial<Record<keyof T, string>>) => setServerErrors(fields)

  return { field, handleSubmit, isSubmitting, setFieldErrors }
}
