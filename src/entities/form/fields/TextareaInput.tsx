import Textarea from '@mui/joy/Textarea'
import Typography from '@mui/joy/Typography'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

function TextareaInput(props: FieldInputProps<string>) {
  const { field, value, onChange, onBlur } = props
  const length = asText(value).length
  return (
    <FieldShell props={props}>
      <Textarea
        name={field.name}
        minRows={3}
        maxRows={12}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        slotProps={{ textarea: { 'aria-invalid': Boolean(props.error) } }}
        endDecorator={
          <Typography
            level="body-xs"
            textColor={field.max !== undefined && length > field.max ? 'danger.500' : 'text.tertiary'}
            sx={{ ml: 'auto' }}
            data-testid="counter"
          >
            {field.max !== undefined ? `${length} / ${field.max}` : length}
          </Typography>
        }
      />
    </FieldShell>
  )
}

/** textarea: several lines, with a character counter (against max when set). */
export const textareaField: FieldComponents = {
  Input: TextareaInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} />,
}
