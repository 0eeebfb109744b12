import { useMemo, useState } from 'react'
import { useForm, useStore } from '@tanstack/react-form'
import { useLingui } from '@lingui/react/macro'
import type { Entity, SchemaMode, Values } from '../../../contract/entities/index.ts'
import { isApiError } from '../../api/errors.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { rootOf, validateValues } from './validate.ts'

/** A failed save sorted for the form: messages on their fields (nested paths kept), the rest above the form. */
export function sortSaveErrors(entity: Entity, error: unknown): { fields: Record<string, string>; form: string[]; toast?: string } {
  if (!isApiError(error) || error.noResponse) return { fields: {}, form: [], toast: error instanceof Error ? error.message : String(error) }
  const names = new Set(entity.fields.map((f) => f.name))
  const fields: Record<string, string> = {}
  const form: string[] = []
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    if (names.has(rootOf(path))) fields[path] = messages.join(' ')
    else form.push(...messages)
  }
  if (!form.length && !Object.keys(fields).length) form.push(error.message)
  return { fields, form }
}

type Options = {
  entity: Entity
  mode: SchemaMode
  initialValues: Values
  /** The record as read (update): payloadFor omits unchanged files and removes one set to null. */
  original?: Values | null
  save: (values: Values) => Promise<void>
}

/**
 * The state of a dynamic form: TanStack Form holds the values; messages come from the entity's valibot schema in the
 * active language (shown once a field was left or a submit tried) and from the server's 400 (shown until the field
 * changes). A submit with messages sends nothing.
 */
export function useEntityForm({ entity, mode, initialValues, original, save }: Options) {
  const { t, i18n } = useLingui()
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [attempts, setAttempts] = useState(0)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [formErrors, setFormErrors] = useState<string[]>([])
  const form = useForm({
    defaultValues: initialValues,
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        await save(value)
      } catch (error) {
        const sorted = sortSaveErrors(entity, error)
        if (sorted.toast !== undefined) {
          const detail = sorted.toast
          toast.error(t`Ocorreu um erro ${detail}`)
        }
        setServerErrors(sorted.fields)
        setFormErrors(sorted.form)
      }
    },
  })
  const values = useStore(form.store, (s) => s.values)
  const isSubmitting = useStore(form.store, (s) => s.isSubmitting)
  const schemaErrors = useMemo(() => validateValues(entity, mode, values, i18n.locale, original), [entity, mode, values, i18n.locale, original])
  const shown: Record<string, string> = {}
  for (const [path, message] of Object.entries(schemaErrors)) if (attempts > 0 || touched.has(rootOf(path))) shown[path] = message
  for (const [path, message] of Object.entries(serverErrors)) shown[path] ??= message

  return {
    form,
    values,
    errors: shown,
    schemaErrors,
    formErrors,
    isSubmitting,
    setValue: (name: string, value: unknown) => {
      form.setFieldValue(name as never, value as never)
      setServerErrors((prev) => Object.fromEntries(Object.entries(prev).filter(([path]) => rootOf(path) !== name)))
    },
    touch: (name: string) => setTouched((prev) => (prev.has(name) ? prev : new Set(prev).add(name))),
    /** Returns false (and sends nothing) while the schema has messages. */
    submit: async (): Promise<boolean> => {
      setAttempts((n) => n + 1)
      if (Object.keys(schemaErrors).length > 0) return false
      await form.handleSubmit()
      return true
    },
  }
}
