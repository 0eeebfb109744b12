import Input from '@mui/joy/Input'
import { formatDateTime } from '../../../app/dates.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { fromLocalInput, pickerOf, toLocalInput } from './datetime.ts'
import { asText } from './shared.ts'

function DateTimeInput(props: FieldInputProps<string>) {
  const { field, value, onChange, onBlur } = props
  const format = field.dateFormat
  const picker = pickerOf(format)
  // A value the input cannot show (typed elsewhere, invalid) shows empty; the schema then says
  // 'Data inválida ou não preenchida'. With a format the value is shown below the picker as it is sent.
  return (
    <FieldShell props={props} helper={format && value ? value : undefined}>
      <Input
        type={picker.type}
        name={field.name}
        value={toLocalInput(value, format)}
        onChange={(e) => onChange(fromLocalInput(e.target.value, format))}
        onBlur={onBlur}
        slotProps={{ input: { step: picker.step, 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/**
 * datetimepicker: the browser's date and time picker, to the second (step 1 s), sent as ISO 8601 with the offset; with
 * a dateFormat (form builder) the value is the text in that dayjs format, and the picker a date or time one when the
 * format names only a date or only a time.
 */
export const datetimeField: FieldComponents = {
  Input: DateTimeInput,
  ReadOnly: ({ field, value }) => <ReadOnlyText text={field.dateFormat ? asText(value) : formatDateTime(asText(value)) || asText(value)} />,
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
