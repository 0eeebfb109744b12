import Chip from '@mui/joy/Chip'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useLingui } from '@lingui/react/macro'
import { optionValue } from '../../../../contract/entities/index.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asList, choiceOut, chosenText, useOptions } from './shared.ts'
import type { Choice } from './shared.ts'
import { useOpenOnPress } from '../../../components/form/openOnPress.ts'

/** Matches a stored value to an option whether it arrived as 3, '3' or a chosen option ({ value: 3, text }). */
export function matchChoice(choices: readonly Choice[], stored: unknown): Choice | undefined {
  const value = optionValue(stored)
  return choices.find((c) => c.value === value) ?? choices.find((c) => String(c.value) === String(value))
}

function SelectInput(props: FieldInputProps) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur } = props
  const choices = useOptions(field)
  const multiple = Boolean(field.multiple)
  const selected = multiple
    ? asList(value).map((v) => matchChoice(choices, v)?.value ?? (optionValue(v) as string))
    : value === undefined || value === null || value === ''
      ? null
      : (matchChoice(choices, value)?.value ?? (optionValue(value) as string))
  const press = useOpenOnPress(props.disabled)
  // The form holds each choice's value, or the choice itself ({ value, text }) with returnObject.
  const out = (next: string | number) => {
    const choice = matchChoice(choices, next)
    return choice ? choiceOut(field, choice) : next
  }
  return (
    <FieldShell props={props}>
      <Select<string | number, boolean>
        listboxOpen={press.listboxOpen}
        onListboxOpenChange={press.onListboxOpenChange}
        name={field.name}
        multiple={multiple}
        value={selected as never}
        placeholder={t`Selecione`}
        onChange={(_, next) => onChange(multiple ? asList<string | number>(next).map(out) : next === null || next === '' ? '' : out(next as string | number))}
        onClose={onBlur}
        renderValue={
          multiple
            ? (options) => (
                <span style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
                  {(options as { label: unknown; value: unknown }[]).map((o) => (
                    <Chip key={String(o.value)} size="sm" variant="soft">
                      {o.label as string}
                    </Chip>
                  ))}
                </span>
              )
            : undefined
        }
        slotProps={{ listbox: { sx: { maxHeight: 320 } }, button: press.button }}
      >
        {!multiple && !props.required && <Option value={''}>{t`Nenhum`}</Option>}
        {choices.map((c) => (
          <Option key={String(c.value)} value={c.value} label={c.label}>
            {c.label}
          </Option>
        ))}
      </Select>
    </FieldShell>
  )
}

function SelectReadOnly({ field, value }: FieldReadOnlyProps) {
  const choices = useOptions(field)
  return (
    <ReadOnlyText
      text={asList(value)
        .map((v) => matchChoice(choices, v)?.label ?? chosenText(v) ?? String(v))
        .join(', ')}
    />
  )
}

/** select: one of the field's options, or several with `multiple`; with returnObject the value is the option itself. */
export const selectField: FieldComponents = { Input: SelectInput, ReadOnly: SelectReadOnly }
