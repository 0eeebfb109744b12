import { useState } from 'react'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import { useLingui } from '@lingui/react/macro'
import { VisibilityIcon, VisibilityOffIcon } from '../../../components/icons/icons.tsx'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

function TextInput(props: FieldInputProps<string>) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, context } = props
  const [reveal, setReveal] = useState(false)
  const secret = Boolean(field.secret)
  // Secrets are write-only: on update an empty value keeps the stored one.
  const helper = secret && context.mode === 'update' ? t`Deixe em branco para manter a senha atual.` : undefined
  return (
    <FieldShell props={props} helper={helper}>
      <Input
        name={field.name}
        type={secret && !reveal ? 'password' : field.validation === 'email' ? 'email' : 'text'}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        autoComplete={secret ? 'new-password' : 'off'}
        slotProps={{ input: { maxLength: field.max, 'aria-invalid': Boolean(props.error) } }}
        endDecorator={
          secret ? (
            <IconButton size="sm" variant="plain" color="neutral" onClick={() => setReveal(!reveal)} aria-label={reveal ? t`Ocultar senha` : t`Mostrar senha`}>
              {reveal ? <VisibilityOffIcon /> : <VisibilityIcon />}
            </IconButton>
          ) : undefined
        }
      />
    </FieldShell>
  )
}

/** text: one line; secrets as a password input that never shows the stored value. */
export const textField: FieldComponents = {
  Input: TextInput,
  ReadOnly: ({ field, value }) => <ReadOnlyText text={field.secret ? (value ? '••••••' : '') : asText(value)} />,
}
