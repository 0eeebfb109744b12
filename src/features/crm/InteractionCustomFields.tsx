import { useEffect } from 'react'
import { Stack, Typography } from '@mui/joy'
import { useQuery } from '@tanstack/react-query'
import { Trans } from '@lingui/react/macro'
import type { CallFormDefinition } from '../../../contract/api/service-actions.ts'
import type { Values } from '../../../contract/entities/index.ts'
import { FormTabs } from '../../entities/form/FormTabs.tsx'
import { initialValuesFor } from '../../entities/form/initialValues.ts'
import type { FieldComponents, FieldInputProps } from '../../entities/form/types.ts'
import { useBuilderEntity } from '../outcomes/OutcomeForm.tsx'
import { crmApi } from './crmApi.ts'

// An interaction's custom fields (its form_data): the form of the form builder its type names
// (crm.interactions.form), drawn by the dynamic renderer as the call and chat forms are. The answers are one object
// keyed by the form's field names; the server checks the required ones (form_data.<name> errors land here).

const asObject = (value: unknown): Values => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Values) : {})

export const interactionTypeQuery = (key: number | string) => ({
  queryKey: ['crm', 'interaction-type', String(key)],
  queryFn: () => crmApi.interactionType(key),
  staleTime: 60_000,
})

function CustomFieldsInput({ value, onChange, onBlur, nested, disabled, values, context }: FieldInputProps<unknown>) {
  const typeId = typeof values.interaction === 'number' ? values.interaction : null
  const type = useQuery({ ...interactionTypeQuery(typeId ?? 0), enabled: typeId !== null })
  if (typeId === null) {
    return (
      <Typography level="body-sm" color="neutral" data-testid="interaction-custom-fields-empty">
        <Trans>Escolha o tipo para ver os campos adicionais.</Trans>
      </Typography>
    )
  }
  const definition = type.data?.form_definition
  if (!definition || definition.fields.length === 0) return null
  return (
    <BuilderFields
      key={definition.id}
      definition={definition}
      value={asObject(value)}
      onChange={onChange}
      onBlur={onBlur}
      errors={nested}
      disabled={disabled}
      mode={context.mode}
    />
  )
}

function BuilderFields({
  definition,
  value,
  onChange,
  onBlur,
  errors,
  disabled,
  mode,
}: {
  definition: CallFormDefinition
  value: Values
  onChange: (value: Values) => void
  onBlur: () => void
  errors: Readonly<Record<string, string>>
  disabled: boolean
  mode: FieldInputProps['context']['mode']
}) {
  const entity = useBuilderEntity(definition)
  // A new interaction (or one whose type changed) starts from the form's defaults.
  const blank = Object.keys(value).length === 0
  useEffect(() => {
    if (blank) {
      const defaults = initialValuesFor(entity)
      if (Object.keys(defaults).length) onChange(defaults)
    }
    // Once per form: the defaults are the form's, not the answers'.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entity])
  return (
    <Stack spacing={1} data-testid="interaction-custom-fields" sx={{ borderTop: '1px solid', borderColor: 'divider', pt: 2 }}>
      <Typography level="title-sm">{definition.description}</Typography>
      <FormTabs
        fields={entity.fields}
        tabs={entity.form.tabs}
        values={value}
        errors={errors}
        onChange={(name, next) => onChange({ ...value, [name]: next })}
        onBlur={onBlur}
        context={{ entity, mode }}
        disabled={disabled}
      />
    </Stack>
  )
}

/** The answers, read-only (a datatable cell, a detail view): `label: value` per answered field. */
function CustomFieldsReadOnly({ value }: { value: unknown }) {
  const answers = Object.entries(asObject(value)).filter(([, v]) => v !== '' && v !== null && v !== undefined)
  return <>{answers.map(([name, v]) => `${name}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('; ')}</>
}

export const interactionCustomFields: FieldComponents = {
  Input: CustomFieldsInput,
  ReadOnly: CustomFieldsReadOnly,
  ownLabel: true,
  wide: true,
}
