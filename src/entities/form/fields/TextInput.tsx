import { useState } from 'react'
import Box from '@mui/joy/Box'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import { useLingui } from '@lingui/react/macro'
import { VisibilityIcon, VisibilityOffIcon } from '../../../components/icons/icons.tsx'
import { OpenInNewIcon } from '../../icons.tsx'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText, resolveLookupPath } from './shared.ts'

/** The window a pop-up field opens (a CRM screen beside the call, say). */
const POPUP_FEATURES = 'popup,width=1024,height=768'

/**
 * A read-only address (the form builder's pop-up): shown with its `{name}` placeholders filled from the form, and a
 * button that opens it in a window; the button waits while a field it names is empty.
 */
function PopupInput(props: FieldInputProps<string>) {
  const { t } = useLingui()
  const { field, values } = props
  // Read-only fields are not among a new form's values: the address is the field's default then.
  const value = asText(props.value ?? field.default)
  const address = resolveLookupPath(value, values)
  return (
    <FieldShell props={props}>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Input name={field.name} value={address ?? value} readOnly sx={{ flex: 1 }} />
        <IconButton
          variant="soft"
          color="primary"
          disabled={!address || !value}
          onClick={() => window.open(address, '_blank', POPUP_FEATURES)}
          aria-label={t`Abrir em uma janela`}
          title={t`Abrir em uma janela`}
          data-testid="open-popup"
        >
          <OpenInNewIcon />
        </IconButton>
      </Box>
    </FieldShell>
  )
}

function TextInput(props: FieldInputProps<string>) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, context } = props
  const [reveal, setReveal] = useState(false)
  if (field.readonly && field.validation === 'url') return <PopupInput {...props} />
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
        // No maxLength: the browser would cut a paste silently; the schema's message says what is too long.
        slotProps={{ input: { 'aria-invalid': Boolean(props.error) } }}
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

/**
 * text: one line; secrets as a password input that never shows the stored value; a read-only address (validation
 * url) as a pop-up: the address and a button that opens it in a window.
 */
export const textField: FieldComponents = {
  Input: TextInput,
  ReadOnly: ({ field, value }) => <ReadOnlyText text={field.secret ? (value ? '••••••' : '') : asText(value)} />,
}
