import { useState } from 'react'
import type { ReactNode } from 'react'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import { useLingui } from '@lingui/react/macro'
import { VisibilityIcon, VisibilityOffIcon } from '../icons/formIcons.tsx'

type FieldLike = {
  name: string
  state: { value: unknown; meta: { errors: unknown[]; isTouched: boolean } }
  handleChange: (value: string) => void
  handleBlur: () => void
  form: { state: { submissionAttempts: number } }
}

type Props = {
  field: FieldLike
  label: ReactNode
  type?: 'text' | 'password' | 'email'
  autoComplete?: string
  helper?: ReactNode
  autoFocus?: boolean
  startDecorator?: ReactNode
  size?: 'sm' | 'md' | 'lg'
}

export function errorText(errors: unknown[]): string | undefined {
  const first = errors.find(Boolean)
  if (!first) return undefined
  if (typeof first === 'string') return first
  if (typeof first === 'object' && first && 'message' in first) return String((first as { message: unknown }).message)
  return String(first)
}

/** A Joy input bound to a TanStack Form field (or a `useSchemaForm` one); shows its error once touched or after a submit. */
export function TextField({ field, label, type = 'text', autoComplete, helper, autoFocus, startDecorator, size = 'md' }: Props) {
  const { t } = useLingui()
  const [reveal, setReveal] = useState(false)
  const shown = field.state.meta.isTouched || field.form.state.submissionAttempts > 0
  const error = shown ? errorText(field.state.meta.errors) : undefined
  return (
    // The id goes on FormControl: Joy then gives it to the input, points the label's `for` at it and the input's
    // aria-describedby at the helper text. Ids set on FormLabel or Input separately fall out of step.
    <FormControl id={field.name} error={Boolean(error)} size={size}>
      <FormLabel>{label}</FormLabel>
      <Input
        name={field.name}
        type={type === 'password' && reveal ? 'text' : type}
        value={String(field.state.value ?? '')}
        onChange={(e) => field.handleChange(e.target.value)}
        onBlur={field.handleBlur}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        startDecorator={startDecorator}
        endDecorator={
          type === 'password' ? (
            <IconButton
              size="sm"
              variant="plain"
              color="neutral"
              tabIndex={-1}
              onClick={() => setReveal(!reveal)}
              aria-label={reveal ? t`Ocultar senha` : t`Mostrar senha`}
            >
              {reveal ? <VisibilityOffIcon /> : <VisibilityIcon />}
            </IconButton>
          ) : undefined
        }
        slotProps={{ input: { 'aria-invalid': Boolean(error) } }}
      />
      {(error || helper) && <FormHelperText>{error ?? helper}</FormHelperText>}
    </FormControl>
  )
}
