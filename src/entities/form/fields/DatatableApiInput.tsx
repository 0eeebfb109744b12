import Box from '@mui/joy/Box'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { RowsTable } from './DatatableInput.tsx'
import { resolveLookupPath, useLookup } from './shared.ts'

/**
 * datatable-api: rows read from an API (the field's lookup path, `{field}` placeholders filled from the form), shown
 * with the field's columns; nothing of it is sent.
 */
function DatatableApiInput({ field, values, label, id }: FieldInputProps) {
  const { t } = useLingui()
  const path = field.lookup ? resolveLookupPath(field.lookup.path, values) : undefined
  const { rows, loading, error } = useLookup(field.lookup, path)
  return (
    <Box data-field={field.name} role="group" aria-labelledby={`${id}-label`}>
      <Typography level="title-sm" id={`${id}-label`} sx={{ mb: 1 }}>
        {label}
      </Typography>
      {error ? (
        <Typography level="body-sm" color="danger">
          {t`Não foi possível carregar as opções.`}
        </Typography>
      ) : (
        <RowsTable field={field} rows={loading ? [] : rows} />
      )}
    </Box>
  )
}

export const datatableApiField: FieldComponents = {
  Input: DatatableApiInput,
  ReadOnly: (props) => <DatatableApiInput {...(props as FieldInputProps)} />,
  ownLabel: true,
}
