import { useMemo, useState } from 'react'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Card from '@mui/joy/Card'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { entityByKey, formValuesFor } from '../../../../contract/entities/index.ts'
import type { Field, Values } from '../../../../contract/entities/index.ts'
import { FormTabs } from '../../../entities/form/FormTabs.tsx'
import { bodyOf, validateValues } from '../../../entities/form/validate.ts'
import { PreviewIcon } from '../../../entities/icons.tsx'
import { builderForm, previewEntity } from './builderFields.ts'

/** What a typed value depends on: the field's definition but its label and width (a relabelled field keeps it). */
const signature = ({ label: _label, cols: _cols, ...rest }: Field) => JSON.stringify(rest)

type Typed = Record<string, { readonly signature: string; readonly value: unknown }>

/**
 * 'Pré-visualizar': the form being built, drawn live by the same renderer the settings and the agent's call form use,
 * with its own values and the same validation (try it: required fields, masks, limits). A valid form shows the body
 * it would send (chosen options, joined lists, formatted dates). A value typed before its field's definition changed
 * is dropped, so a field turned into a list or an object never holds a value of the old shape.
 */
export function FormBuilderPreview({ definitions }: { definitions: unknown }) {
  const { t, i18n } = useLingui()
  const key = JSON.stringify(definitions ?? [])
  const entity = useMemo(() => {
    const { fields, tabs } = builderForm(definitions)
    return previewEntity(entityByKey('service.forms'), fields, tabs)
    // The definitions change identity on every keystroke; their content is what matters.
  }, [key]) // eslint-disable-line react-hooks/exhaustive-deps
  const [typed, setTyped] = useState<Typed>({})
  const [checked, setChecked] = useState(false)
  const signatures = useMemo(() => new Map(entity.fields.map((f) => [f.name, signature(f)])), [entity])
  const values: Values = {}
  for (const [name, entry] of Object.entries(typed)) if (signatures.get(name) === entry.signature) values[name] = entry.value
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
          onChange={(name, value) => setTyped((prev) => ({ ...prev, [name]: { signature: signatures.get(name) ?? '', value } }))}
          onBlur={() => {}}
          context={{ entity, mode: 'create' }}
        />
      )}
      {valid && (
        <>
          <Typography level="body-sm" color="success" data-testid="preview-valid">
            {t`O formulário está válido.`}
          </Typography>
          <Typography level="title-sm" id="form-preview-body">
            {t`Dados enviados`}
          </Typography>
          <Box
            component="pre"
            aria-labelledby="form-preview-body"
            data-testid="preview-body"
            sx={{ m: 0, p: 1, borderRadius: 'sm', bgcolor: 'background.surface', fontSize: 'xs', overflowX: 'auto', whiteSpace: 'pre-wrap' }}
          >
            {JSON.stringify(bodyOf(entity, current), null, 2)}
          </Box>
        </>
      )}
    </Card>
  )
}
