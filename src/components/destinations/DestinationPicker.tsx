import Box from '@mui/joy/Box'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useLingui } from '@lingui/react/macro'
import { destinationApp } from '../../../contract/entities/apps.ts'
import type { AppFamily } from '../../../contract/entities/types.ts'
import { useText } from '../../entities/text.ts'

// The one destination picker (issue 16 item 6): where a call goes, as every place that sends one names it — inbound
// routes (DIDs) and their out-of-hours branch (calendars), IVR options and time-outs, queue overflow, call-group
// time-outs, detours, and the webphone's transfers. An app (IVR, queue, NPS, announcement, extension, call group,
// voicemail, external number, hang up) and its appdata: a row of that app, a number typed, or nothing. Stored as
// `{app, appdata}`, dialled as `<app>.<id>` (contract/codes/transfer.ts `destinationAddress`). Where the rows come
// from is the caller's: the settings forms list the site's (/v1/service/apps/…), the webphone the extension's
// permission-apps list.

export type DestinationValue = { app: string; appdata: string }

/** The rows the chosen app offers. */
export type DestinationRows = { choices: readonly { value: string; label: string }[]; pending: boolean; failed: boolean }

type Props = {
  id: string
  family: AppFamily
  apps: readonly string[]
  value: DestinationValue
  onChange(value: DestinationValue | null): void
  /** The chosen app's rows (looked up by the caller, who knows whose rows they are). */
  rows: DestinationRows
  label: string
  /** The label of the typed number (an external number, or the webphone's free destination). */
  numberLabel?: string
  /** The label of the row select (the chosen app's name by default). */
  targetLabel?: string
  required?: boolean
  disabled?: boolean
  error?: string
  hint?: string
  /** Offers 'Nenhum' (an optional destination). */
  clearable?: boolean
  /** One column (the webphone's narrow panel) instead of two side by side. */
  stacked?: boolean
  /** Enter in the number field. */
  onSubmit?(): void
  onBlur?(): void
  /** `data-testid` prefix: `<prefix>-kind`, `<prefix>-kind-<app>`, `<prefix>-target`. */
  testId?: string
  /** A label of an app other than the registry's (the webphone's 'Número'). */
  appLabels?: Partial<Record<string, string>>
}

export function DestinationPicker(props: Props) {
  const { t } = useLingui()
  const text = useText()
  const { id, family, apps, value, onChange, rows, label, required, disabled, error, hint, testId } = props
  const app = value.app ? destinationApp(family, value.app) : undefined
  const appLabel = (name: string) => props.appLabels?.[name] ?? (text(destinationApp(family, name)?.label) || name)
  const rowsMessage = app?.appdata === 'id' && rows.failed ? t`Não foi possível carregar as opções.` : undefined
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: props.stacked ? '1fr' : { xs: '1fr', sm: '1fr 1fr' }, gap: props.stacked ? 1 : 1.5, alignItems: 'start' }}
      data-destination-picker={id}
    >
      <FormControl id={id} error={Boolean(error)} required={required} disabled={disabled} size={props.stacked ? 'sm' : 'md'}>
        <FormLabel>{label}</FormLabel>
        <Select
          name={`${id}_app`}
          value={value.app || null}
          placeholder={t`Selecione`}
          onChange={(_, next) => onChange(next ? { app: next, appdata: '' } : null)}
          onClose={props.onBlur}
          slotProps={{ button: { 'aria-label': label } }}
          data-testid={testId ? `${testId}-kind` : undefined}
        >
          {props.clearable && <Option value={''}>{t`Nenhum`}</Option>}
          {apps.map((name) => (
            <Option key={name} value={name} data-testid={testId ? `${testId}-kind-${name}` : undefined}>
              {appLabel(name)}
            </Option>
          ))}
        </Select>
        {(error || hint) && <FormHelperText>{error ?? hint}</FormHelperText>}
      </FormControl>
      {app?.appdata === 'id' && (
        <FormControl id={`${id}-appdata`} required disabled={disabled} error={Boolean(error) || Boolean(rowsMessage)} size={props.stacked ? 'sm' : 'md'}>
          <FormLabel>{props.targetLabel ?? appLabel(value.app)}</FormLabel>
          <Select
            name={`${id}_appdata`}
            value={value.appdata === '' ? null : value.appdata}
            placeholder={rows.pending ? t`Carregando…` : rows.choices.length === 0 ? t`Nenhum destino disponível` : t`Selecione`}
            disabled={disabled || (!rows.pending && rows.choices.length === 0)}
            onChange={(_, next) => onChange({ app: value.app, appdata: next ?? '' })}
            onClose={props.onBlur}
            slotProps={{ button: { 'aria-label': props.targetLabel ?? appLabel(value.app) } }}
            data-testid={testId ? `${testId}-target` : undefined}
          >
            {rows.choices.map((c) => (
              <Option key={c.value} value={c.value}>
                {c.label}
              </Option>
            ))}
          </Select>
          {rowsMessage && <FormHelperText>{rowsMessage}</FormHelperText>}
        </FormControl>
      )}
      {app?.appdata === 'number' && (
        <FormControl id={`${id}-appdata`} required disabled={disabled} error={Boolean(error)} size={props.stacked ? 'sm' : 'md'}>
          <FormLabel>{props.numberLabel ?? t`Número`}</FormLabel>
          <Input
            name={`${id}_appdata`}
            value={value.appdata}
            onChange={(e) => onChange({ app: value.app, appdata: e.target.value.replace(/[^\d*#+]/g, '') })}
            onBlur={props.onBlur}
            onKeyDown={(event) => event.key === 'Enter' && props.onSubmit?.()}
            slotProps={{ input: { inputMode: 'tel', 'aria-label': props.numberLabel ?? t`Número` } }}
          />
        </FormControl>
      )}
    </Box>
  )
}
