import Button from '@mui/joy/Button'
import Radio from '@mui/joy/Radio'
import RadioGroup from '@mui/joy/RadioGroup'
import ToggleButtonGroup from '@mui/joy/ToggleButtonGroup'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { matchChoice } from './SelectInput.tsx'
import { asList, asText, useOptions } from './shared.ts'

function ChoiceReadOnly({ field, value }: FieldReadOnlyProps) {
  const choices = useOptions(field)
  return (
    <ReadOnlyText
      text={asList(value)
        .map((v) => matchChoice(choices, v)?.label ?? String(v))
        .join(', ')}
    />
  )
}

/** The option's own value (3, not '3') for a text the DOM gives back. */
function valueOf(field: FieldInputProps['field'], text: string): string | number {
  return (field.options ?? []).find((o) => String(o.value) === text)?.value as string | number
}

function ButtonGroupInput(props: FieldInputProps) {
  const { field, value, onChange, onBlur, id } = props
  const choices = useOptions(field)
  const multiple = Boolean(field.multiple)
  const selected = multiple ? asList(value).map(String) : asText(value) || null
  return (
    <FieldShell props={props}>
      <ToggleButtonGroup
        id={id}
        aria-labelledby={`${id}-label`}
        value={selected as never}
        onChange={(_, next: string | string[] | null) => {
          onChange(multiple ? asList<string>(next).map((x) => valueOf(field, x)) : next === null ? '' : valueOf(field, next as string))
          onBlur()
        }}
        size="sm"
        sx={{ flexWrap: 'wrap' }}
      >
        {choices.map((c) => (
          <Button key={String(c.value)} value={String(c.value)}>
            {c.label}
          </Button>
        ))}
      </ToggleButtonGroup>
    </FieldShell>
  )
}

/** btngroup: the options as toggle buttons (one, or several with `multiple`). */
export const btngroupField: FieldComponents = { Input: ButtonGroupInput, ReadOnly: ChoiceReadOnly }

function RadioInput(props: FieldInputProps) {
  const { field, value, onChange, onBlur } = props
  const choices = useOptions(field)
  return (
    <FieldShell props={props}>
      <RadioGroup
        name={field.name}
        value={asText(value)}
        onChange={(e) => onChange(valueOf(field, e.target.value))}
        onBlur={onBlur}
        orientation="horizontal"
        sx={{ flexWrap: 'wrap', gap: 2 }}
      >
        {choices.map((c) => (
          <Radio key={String(c.value)} value={String(c.value)} label={c.label} />
        ))}
      </RadioGroup>
    </FieldShell>
  )
}

/** radio: one of the options, all in sight. */
export const radioField: FieldComponents = { Input: RadioInput, ReadOnly: ChoiceReadOnly }
