import { useMemo } from 'react'
import Alert from '@mui/joy/Alert'
import Button from '@mui/joy/Button'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { entityByKey } from '../../../contract/entities/index.ts'
import type { Entity, Values } from '../../../contract/entities/index.ts'
import type { CallFormDefinition } from '../../../contract/api/service-actions.ts'
import { FormTabs } from '../../entities/form/FormTabs.tsx'
import { builderForm, previewEntity } from '../settings/formBuilder/builderFields.ts'

// The form a queue names, drawn by the dynamic renderer from its form-builder definition (issue 15 item 1): beside a
// call (src/features/webphone/CallOutcomePanel.tsx) and in a chat's Form tab (src/features/chat/ChatOutcomeTabs.tsx). The caller keeps
// the values, validates them with the same entity and sends them once; a sent form is read-only.

/** The renderer's entity for a form-builder definition (memoised on the definition). */
export function useBuilderEntity(definition: CallFormDefinition): Entity {
  return useMemo(() => {
    const { fields, tabs } = builderForm(definition.fields)
    return previewEntity(entityByKey('service.forms'), fields, tabs)
  }, [definition])
}

export type OutcomeFormIds = { form: string; save: string; sent: string }

export function OutcomeForm({
  definition,
  entity,
  values,
  errors,
  sent,
  ids,
  onChange,
  onBlur,
  onSave,
}: {
  definition: CallFormDefinition
  entity: Entity
  values: Values
  errors: Record<string, string>
  sent: boolean
  ids: OutcomeFormIds
  onChange: (name: string, value: unknown) => void
  onBlur: () => void
  onSave: () => void
}) {
  const { t } = useLingui()
  return (
    <Stack spacing={1} data-testid={ids.form}>
      <Typography level="title-md">{definition.description || t`Formulário`}</Typography>
      <FormTabs
        fields={entity.fields}
        tabs={entity.form.tabs}
        values={values}
        errors={errors}
        onChange={onChange}
        onBlur={onBlur}
        context={{ entity, mode: 'create' }}
        disabled={sent}
      />
      {sent ? (
        <Alert size="sm" color="success" variant="soft" data-testid={ids.sent}>
          <Trans>Formulário enviado.</Trans>
        </Alert>
      ) : (
        <Button size="sm" onClick={onSave} sx={{ alignSelf: 'flex-end' }} data-testid={ids.save}>
          <Trans>Salvar formulário</Trans>
        </Button>
      )}
    </Stack>
  )
}
