import Input from '@mui/joy/Input'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

function NumberInput(props: FieldInputProps<string | number>) {
  const { field, value, onChange, onBlur } = props
  // Text with a numeric keyboard: a pt-BR decimal comma is accepted (the schema converts), and an empty box stays empty.
  return (
    <FieldShell props={props}>
      <Input
        name={field.name}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        slotProps={{ input: { inputMode: field.storage === 'int' ? 'numeric' : 'decimal', 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** number: the minimum defaults to 0, the maximum is optional (spec 001 §5). */
export const numberField: FieldComponents = {
  Input: NumberInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} />,
}
