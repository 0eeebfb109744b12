import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Link from '@mui/joy/Link'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { DeleteIcon, UploadIcon } from '../../../components/icons/icons.tsx'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { AudioPreview } from './AudioPreview.tsx'
import { ReadOnlyText } from './ReadOnlyText.tsx'

type FileValue = string | Blob | null | undefined

function fileName(value: FileValue): string {
  if (!value) return ''
  if (typeof value === 'string') return decodeURIComponent(value.split('/').pop() ?? value)
  return 'name' in value ? String((value as File).name) : 'arquivo'
}

function FileInput(props: FieldInputProps<FileValue>) {
  const { t } = useLingui()
  const { field, value, onChange, id, context } = props
  return (
    <FieldShell props={props}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Button component="label" size="sm" variant="outlined" color="neutral" startDecorator={<UploadIcon />} disabled={props.disabled}>
          {value ? t`Trocar arquivo` : t`Escolher arquivo`}
          {/* The visually hidden input keeps the label's `for` target: it is the field's control. */}
          <input
            id={id}
            type="file"
            name={field.name}
            accept={field.accept}
            aria-invalid={Boolean(props.error)}
            style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) onChange(file)
              e.target.value = ''
            }}
          />
        </Button>
        {typeof value === 'string' && value && (
          <Link href={value} target="_blank" rel="noopener" level="body-sm" data-testid="current-file">
            {fileName(value)}
          </Link>
        )}
        {value instanceof Blob && <Typography level="body-sm">{fileName(value)}</Typography>}
        {value ? (
          <Button size="sm" variant="plain" color="danger" startDecorator={<DeleteIcon />} onClick={() => onChange(null)} data-testid="remove-file">
            {t`Remover arquivo`}
          </Button>
        ) : (
          <Typography level="body-sm" textColor="text.tertiary">
            {t`Nenhum arquivo`}
          </Typography>
        )}
      </Box>
      <AudioPreview field={field.name} value={value} context={context} />
    </FieldShell>
  )
}

/** file: choose, replace or remove the current file (null removes it; an unchanged URL is not sent). */
export const fileField: FieldComponents = {
  Input: FileInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={fileName(value)} />,
}
