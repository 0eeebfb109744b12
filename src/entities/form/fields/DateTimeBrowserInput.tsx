import { useState } from 'react'
import Input from '@mui/joy/Input'
import { useLingui } from '@lingui/react/macro'
import { dayjs, formatDateTime, parseDateInput } from '../../../app/dates.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

/**
 * A typed date and optional time in one of the spec's formats (yyyy-MM-dd, yy-MM-dd, dd/MM/yyyy, dd/MM/yy, then
 * HH:mm[:ss]) as ISO 8601 with the offset; undefined when it names no real moment.
 */
export function parseTypedDateTime(text: string): string | undefined {
  const [datePart, timePart] = text.trim().split(/\s+|T/)
  const date = parseDateInput(datePart)
  if (!date) return undefined
  if (!timePart) return date.format('YYYY-MM-DDTHH:mm:ssZ')
  const time = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(timePart)
  if (!time) return undefined
  return dayjs(date)
    .hour(Number(time[1]))
    .minute(Number(time[2]))
    .second(Number(time[3] ?? 0))
    .format('YYYY-MM-DDTHH:mm:ssZ')
}

function DateTimeBrowserInput(props: FieldInputProps<string>) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur } = props
  const [typed, setTyped] = useState<string>()
  const shown = typed ?? (formatDateTime(asText(value)) || asText(value))
  return (
    <FieldShell props={props} helper={field.hint ? undefined : t`DD/MM/AAAA HH:mm:ss`}>
      <Input
        name={field.name}
        value={shown}
        placeholder="DD/MM/AAAA HH:mm:ss"
        onChange={(e) => {
          setTyped(e.target.value)
          // A text that names no moment stays as typed, so the schema answers 'Data inválida ou não preenchida'.
          onChange(e.target.value.trim() === '' ? '' : (parseTypedDateTime(e.target.value) ?? e.target.value))
        }}
        onBlur={() => {
          setTyped(undefined)
          onBlur()
        }}
        slotProps={{ input: { 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** datetimebrowser: a date and time typed as text in the accepted formats (no picker). */
export const datetimeBrowserField: FieldComponents = {
  Input: DateTimeBrowserInput,
  ReadOnly: ({ value }) => <ReadOnlyText text={formatDateTime(asText(value)) || asText(value)} />,
}
