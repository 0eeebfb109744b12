import { DestinationPicker } from '../../../components/destinations/DestinationPicker.tsx'
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
 * app: where a call or chat goes, through the one destination picker (src/components/destinations/) — the rows of the
 * chosen app from its /v1/service/apps/ lookup.
 */
function AppInput(props: FieldInputProps) {
  const text = useText()
  const { field, value, onChange, onBlur, id, error, required, disabled, label } = props
  const family: AppFamily = field.family ?? 'pabx'
  const current = asDestination(value)
  const app = current.app ? destinationApp(family, current.app) : undefined
  const targets = useAppTargets(app?.appdata === 'id' ? app : undefined)
  return (
    <div data-field={field.name}>
      <DestinationPicker
        id={id}
        family={family}
        apps={field.apps ?? []}
        value={{ app: current.app, appdata: asText(current.appdata) }}
        onChange={(next) => onChange(next ?? '')}
        onBlur={onBlur}
        rows={{
          choices: targets.choices.map((c) => ({ value: String(c.value), label: c.label })),
          pending: targets.loading,
          failed: Boolean(targets.error),
        }}
        label={label}
        required={required}
        disabled={disabled}
        {...(error ? { error } : {})}
        {...(field.hint ? { hint: text(field.hint) } : {})}
        clearable={!required}
      />
    </div>
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
