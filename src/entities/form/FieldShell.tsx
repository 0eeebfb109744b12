import type { ReactNode } from 'react'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import { useText } from '../text.ts'
import type { FieldInputProps } from './types.ts'

/**
 * Label, control and message of one field. The id goes on FormControl only: Joy hands it to the input (Input,
 * Textarea, Select's button, Autocomplete's input, Switch), sets the label's `for`, and points the input's
 * aria-describedby at the helper text, so every control is named by its label.
 */
export function FieldShell({ props, children, helper }: { props: FieldInputProps<any>; children: ReactNode; helper?: ReactNode }) {
  const text = useText()
  const { id, label, error, required, disabled, field } = props
  const hint = helper ?? (field.hint ? text(field.hint) : undefined)
  return (
    <FormControl id={id} error={Boolean(error)} required={required} disabled={disabled} data-field={field.name}>
      <FormLabel>{label}</FormLabel>
      {children}
      {(error || hint) && <FormHelperText>{error ?? hint}</FormHelperText>}
    </FormControl>
  )
}

/** The message under a control that draws its own label (switch, checkbox, layout kinds). */
export function FieldMessage({ props }: { props: FieldInputProps<any> }) {
  const text = useText()
  const message = props.error ?? (props.field.hint ? text(props.field.hint) : undefined)
  if (!message) return null
  return (
    <FormHelperText id={`${props.id}-helper-text`} sx={{ color: props.error ? 'danger.500' : undefined, mt: 0.5 }}>
      {message}
    </FormHelperText>
  )
}
