import { useState } from 'react'
import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import type { Entity, SchemaMode, Values } from '../../../contract/entities/index.ts'
import { useLingui } from '@lingui/react/macro'
import { AppForm } from '../../components/form/AppForm.tsx'
import { FormTabs, tabWithError } from './FormTabs.tsx'
import type { FormContext } from './types.ts'
import { useEntityForm } from './useEntityForm.ts'

type Props = {
  entity: Entity
  mode: SchemaMode
  initialValues: Values
  original?: Values | null
  recordId?: number
  save: (values: Values) => Promise<void>
  onCancel?: () => void
  /** Drawn beside the form with the live values (the form builder's preview). */
  aside?: (values: Values) => ReactNode
}

/**
 * The dynamic form renderer of a settings entity: its tabs, its fields through the kind → component map, messages
 * from its valibot schema and from the server (non_field_errors and detail above the form), and the save buttons.
 */
export function EntityForm({ entity, mode, initialValues, original, recordId, save, onCancel, aside }: Props) {
  const { t } = useLingui()
  const state = useEntityForm({ entity, mode, initialValues, original, save })
  const [tab, setTab] = useState(entity.form.tabs[0]?.key)
  const context: FormContext = { entity, recordId, mode }
  const body = (
    <AppForm
      errors={state.formErrors}
      onSubmit={async () => {
        const sent = await state.submit()
        if (!sent) setTab(tabWithError(entity.form.tabs, state.schemaErrors) ?? tab)
      }}
    >
      <FormTabs
        fields={entity.fields}
        tabs={entity.form.tabs}
        tab={tab}
        onTab={setTab}
        values={state.values}
        errors={state.errors}
        onChange={state.setValue}
        onBlur={state.touch}
        context={context}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, pt: 1 }}>
        {onCancel && (
          <Button variant="plain" color="neutral" onClick={onCancel}>
            {t`Cancelar`}
          </Button>
        )}
        <Button type="submit" loading={state.isSubmitting} data-testid="form-save">
          {t`Salvar`}
        </Button>
      </Box>
    </AppForm>
  )
  if (!aside) return body
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(320px, 2fr)' }, gap: 3, alignItems: 'start' }}>
      {body}
      {aside(state.values)}
    </Box>
  )
}
