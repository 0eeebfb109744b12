import { useMemo, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { entityByKey, formValuesFor } from '../../../../contract/entities/index.ts'
import type { Values } from '../../../../contract/entities/index.ts'
import { FormTabs } from '../../../entities/form/FormTabs.tsx'
import { validateValues } from '../../../entities/form/validate.ts'
import { PreviewIcon } from '../../../entities/icons.tsx'
import { builderForm, previewEntity } from './builderFields.ts'

/**
 * 'Pré-visualizar': the form being built, drawn live by the same renderer the settings and the agent's call form use,
 * with its own values and the same validation (try it: required fields, masks, limits).
 */
export function FormBuilderPreview({ definitions }: { definitions: unknown }) {
  const { t, i18n } = useLingui()
  const key = JSON.stringify(definitions ?? [])
  const entity = useMemo(() => {
    const { fields, tabs } = builderForm(definitions)
    return previewEntity(entityByKey('service.forms'), fields, tabs)
    // The definitions change identity on every keystroke; their content is what matters.
  }, [key]) // eslint-disable-line react-hooks/exhaustive-deps
  const [values, setValues] = useState<Values>({})
  const [checked, setChecked] = useState(false)
  const current = { ...formValuesFor(entity), ...values }
  const errors = checked ? validateValues(entity, 'create', current, i18n.locale) : {}
  const valid = checked && Object.keys(errors).length === 0
  return (
    <Card variant="soft" sx={{ position: { lg: 'sticky' }, top: 16, gap: 1.5 }} data-testid="form-preview" aria-labelledby="form-preview-title">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography level="title-md" id="form-preview-title" startDecorator={<PreviewIcon />} sx={{ flex: 1 }}>
          {t`Pré-visualizar`}
        </Typography>
        <Button size="sm" variant="outlined" onClick={() => setChecked(true)} data-testid="preview-validate">
          {t`Validar`}
        </Button>
      </Box>
      {entity.fields.length === 0 ? (
        <Typography level="body-sm" textColor="text.tertiary">
          {t`Adicione campos na aba Campos para vê-los aqui.`}
        </Typography>
      ) : (
        <FormTabs
          fields={entity.fields}
          tabs={entity.form.tabs}
          values={current}
          errors={errors}
          onChange={(name, value) => setValues((prev) => ({ ...prev, [name]: value }))}
          onBlur={() => {}}
          context={{ entity, mode: 'create' }}
        />
      )}
      {valid && (
        <Typography level="body-sm" color="success" data-testid="preview-valid">
          {t`O formulário está válido.`}
        </Typography>
      )}
    </Card>
  )
}
