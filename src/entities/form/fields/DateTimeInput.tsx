import Input from '@mui/joy/Input'
import { formatDateTime } from '../../../app/dates.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { fromLocalInput, toLocalInput } from './datetime.ts'
import { asText } from './shared.ts'

function DateTimeInput(props: FieldInputProps<string>) {
  const { field, value, onChange, onBlur } = props
  // A value the input cannot show (typed elsewhere, invalid) shows empty; the schema then says
  // 'Data inválida ou não preenchida'.
  return (
    <FieldShell props={props}>
      <Input
        type="datetime-local"
        name={field.name}
        value={toLocalInput(value)}
        onChange={(e) => onChange(fromLocalInput(e.target.value))}
        onBlur={onBlur}
        slotProps={{ input: { step: 1, 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** datetimepicker: the browser's date and time picker, to the second (step 1 s), sent as ISO 8601 with the offset. */
export const datetimeField: FieldComponents = {
  Input: DateTimeInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={formatDateTime(asText(value)) || asText(value)} />,
}

function HourInput(props: FieldInputProps<string>) {
  const { field, value, onChange, onBlur } = props
  return (
    <FieldShell props={props}>
      <Input
        type="time"
        name={field.name}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        slotProps={{ input: { 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** hourpicker: a time of day, HH:mm. */
export const hourField: FieldComponents = { Input: HourInput, ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} /> }
