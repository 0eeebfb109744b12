import { useRef, useState } from 'react'
import type * as v from 'valibot'
import { useLingui } from '@lingui/react'
import { schemaFieldErrors } from './validation.ts'

type Values = Record<string, string>

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
 */
export function useSchemaForm<T extends Values>({ schema, defaultValues, onSubmit }: {
  schema: v.GenericSchema
  defaultValues: T
  onSubmit: (values: T) => Promise<void>
}) {
  const { i18n } = useLingui()
  const [values, setValues] = useState(defaultValues)
  const [touched, setTouched] = useState<Partial<Record<keyof T, boolean>>>({})
  const [serverErrors, setServerErrors] = useState<Partial<Record<keyof T, string>>>({})
  const [submissionAttempts, setSubmissionAttempts] = useState(0)
  const [isSubmitting, setSubmitting] = useState(false)
  const submitting = useRef(false)
  // Computed while rendering, so the messages follow the active language at once.
  const errors = schemaFieldErrors(schema, values, i18n.locale) ?? {}

  const field = (name: keyof T & string): SchemaField => ({
    name,
    state: {
      value: values[name],
      meta: { errors: [errors[name], serverErrors[name]].filter((e): e is string => Boolean(e)), isTouched: Boolean(touched[name]) },
    },
    handleChange: (value) => {
      setValues((prev) => ({ ...prev, [name]: value }))
      setTouched((prev) => ({ ...prev, [name]: true }))
      setServerErrors((prev) => ({ ...prev, [name]: undefined }))
    },
    handleBlur: () => setTouched((prev) => ({ ...prev, [name]: true })),
    form: { state: { submissionAttempts } },
  })

  const handleSubmit = async () => {
    if (submitting.current) return
    setSubmissionAttempts((n) => n + 1)
    setServerErrors({})
    if (schemaFieldErrors(schema, values, i18n.locale)) return
    submitting.current = true
    setSubmitting(true)
    try {
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
