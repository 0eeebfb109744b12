import Box from '@mui/joy/Box'
import Checkbox from '@mui/joy/Checkbox'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Slider from '@mui/joy/Slider'
import Switch from '@mui/joy/Switch'
import { useLingui } from '@lingui/react/macro'
import { FieldMessage, FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

function YesNo({ value }: FieldReadOnlyProps) {
  const { t } = useLingui()
  return <ReadOnlyText text={value === true ? t`Sim` : t`Não`} />
}

function SwitchInput(props: FieldInputProps<boolean>) {
  const { field, value, onChange, onBlur, id, label, disabled, error } = props
  return (
    <FormControl
      id={id}
      orientation="horizontal"
      disabled={disabled}
      error={Boolean(error)}
      sx={{ alignItems: 'center', gap: 1.5, minHeight: 36, flexWrap: 'wrap' }}
      data-field={field.name}
    >
      <Switch checked={value === true} onChange={(e) => onChange(e.target.checked)} slotProps={{ input: { name: field.name, onBlur } }} />
      <FormLabel sx={{ m: 0 }}>{label}</FormLabel>
      <Box sx={{ flexBasis: '100%' }}>
        <FieldMessage props={props} />
      </Box>
    </FormControl>
  )
}

/** switch: on or off. */
export const switchField: FieldComponents = { Input: SwitchInput, ReadOnly: YesNo, ownLabel: true }

function CheckboxInput(props: FieldInputProps<boolean>) {
  const { field, value, onChange, onBlur, id, label, disabled, error } = props
  return (
    <Box data-field={field.name} sx={{ minHeight: 36, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
      <Checkbox
        id={id}
        name={field.name}
        label={label}
        checked={value === true}
        disabled={disabled}
        color={error ? 'danger' : undefined}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={onBlur}
        slotProps={{ input: { 'aria-describedby': error || field.hint ? `${id}-helper-text` : undefined } }}
      />
      <FieldMessage props={props} />
    </Box>
  )
}

/** checkbox: a yes/no box with its label beside it. */
export const checkboxField: FieldComponents = { Input: CheckboxInput, ReadOnly: YesNo, ownLabel: true }

function SliderInput(props: FieldInputProps<number | string>) {
  const { field, value, onChange, onBlur, id } = props
  const min = field.min ?? 0
  const max = field.max ?? 100
  const number = value === '' || value === null || value === undefined ? min : Number(value)
  return (
    <FieldShell props={props}>
      <Slider
        name={field.name}
        min={min}
        max={max}
        value={Number.isFinite(number) ? number : min}
        valueLabelDisplay="auto"
        marks={[
          { value: min, label: String(min) },
          { value: max, label: String(max) },
        ]}
        onChange={(_, next) => onChange(next as number)}
        onChangeCommitted={onBlur}
        slotProps={{ input: { 'aria-labelledby': `${id}-label` } }}
        sx={{ mx: 1, width: 'auto' }}
      />
    </FieldShell>
  )
}

/** slider: a number between min and max (0 to 100 unless the field says). */
export const sliderField: FieldComponents = { Input: SliderInput, ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} /> }
