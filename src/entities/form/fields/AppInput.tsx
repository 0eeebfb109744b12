import Box from '@mui/joy/Box'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useLingui } from '@lingui/react/macro'
import { apiPath, destinationApp } from '../../../../contract/entities/index.ts'
import type { AppFamily, DestinationApp } from '../../../../contract/entities/index.ts'
import { useText } from '../../text.ts'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText, useLookup } from './shared.ts'

export type Destination = { app: string; appdata: string | number }

function asDestination(value: unknown): Destination {
  if (value && typeof value === 'object' && 'app' in value) {
    const d = value as { app?: unknown; appdata?: unknown }
    return { app: asText(d.app), appdata: (d.appdata as string | number | null) ?? '' }
  }
  return { app: '', appdata: '' }
}

const LOOKUP = { value: 'id', label: 'description' } as const

/** The rows an app's appdata names: the spec's /v1/service/apps/… lookup, or the entity's own list if that fails. */
function useAppTargets(app: DestinationApp | undefined) {
  const primary = useLookup(app?.lookup ? { path: app.lookup, ...LOOKUP } : undefined, app?.lookup)
  const fallbackPath = app?.entity && primary.error ? apiPath(app.entity) : undefined
  const fallback = useLookup(fallbackPath ? { path: fallbackPath, ...LOOKUP } : undefined, fallbackPath)
  return fallbackPath ? fallback : primary
}

/**
 * app: where a call or chat goes — an app (IVR, queue, NPS, announcement, extension, call group, voicemail, external
 * number, hang up) and its appdata: a row chosen from the app's lookup, a number typed, or nothing.
 */
function AppInput(props: FieldInputProps) {
  const { t } = useLingui()
  const text = useText()
  const { field, value, onChange, onBlur, id, error, required, disabled, label } = props
  const family: AppFamily = field.family ?? 'pabx'
  const current = asDestination(value)
  const app = current.app ? destinationApp(family, current.app) : undefined
  const targets = useAppTargets(app?.appdata === 'id' ? app : undefined)
  const appdataMessage = app?.appdata === 'id' && targets.error ? t`Não foi possível carregar as opções.` : undefined
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5, alignItems: 'start' }} data-field={field.name}>
      <FormControl id={id} error={Boolean(error)} required={required} disabled={disabled}>
        <FormLabel>{label}</FormLabel>
        <Select
          name={`${field.name}_app`}
          value={current.app || null}
          placeholder={t`Selecione`}
          onChange={(_, next) => onChange(next ? { app: next, appdata: '' } : '')}
          onClose={onBlur}
        >
          {!required && <Option value={''}>{t`Nenhum`}</Option>}
          {(field.apps ?? []).map((name) => {
            const option = destinationApp(family, name)
            return (
              <Option key={name} value={name}>
                {option ? text(option.label) : name}
              </Option>
            )
          })}
        </Select>
        {(error || field.hint) && <FormHelperText>{error ?? text(field.hint)}</FormHelperText>}
      </FormControl>
      {app?.appdata === 'id' && (
        <FormControl id={`${id}-appdata`} required disabled={disabled} error={Boolean(error) || Boolean(appdataMessage)}>
          <FormLabel>{text(app.label)}</FormLabel>
          <Select
            name={`${field.name}_appdata`}
            value={current.appdata === '' ? null : String(current.appdata)}
            placeholder={t`Selecione`}
            onChange={(_, next) => onChange({ app: current.app, appdata: next ?? '' })}
            onClose={onBlur}
          >
            {targets.choices.map((c) => (
              <Option key={String(c.value)} value={String(c.value)}>
                {c.label}
              </Option>
            ))}
          </Select>
          {appdataMessage && <FormHelperText>{appdataMessage}</FormHelperText>}
        </FormControl>
      )}
      {app?.appdata === 'number' && (
        <FormControl id={`${id}-appdata`} required disabled={disabled} error={Boolean(error)}>
          <FormLabel>{t`Número`}</FormLabel>
          <Input
            name={`${field.name}_appdata`}
            value={asText(current.appdata)}
            onChange={(e) => onChange({ app: current.app, appdata: e.target.value.replace(/[^\d*#+]/g, '') })}
            onBlur={onBlur}
            slotProps={{ input: { inputMode: 'tel' } }}
          />
        </FormControl>
      )}
    </Box>
  )
}

function AppReadOnly({ field, value, values }: FieldReadOnlyProps) {
  const text = useText()
  const description = values[`${field.name}_description`]
  if (typeof description === 'string' && description) return <ReadOnlyText text={description} />
  const d = asDestination(value)
  const app = d.app ? destinationApp(field.family ?? 'pabx', d.app) : undefined
  return <ReadOnlyText text={d.app ? `${app ? text(app.label) : d.app}${d.appdata !== '' ? `: ${d.appdata}` : ''}` : ''} />
}

export const appField: FieldComponents = { Input: AppInput, ReadOnly: AppReadOnly, ownLabel: true, wide: true }
