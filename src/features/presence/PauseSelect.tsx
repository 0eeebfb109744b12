import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useLingui } from '@lingui/react/macro'
import type { PauseType } from './usePauseTypes.ts'

// The pause widget's select of pause types. Its own chunk: Joy's Select is ~9 KB gzipped that no page draws until the
// pause menu opens (PauseWidget.tsx loads it when the pointer or the focus reaches the pause button).

export type PauseSelectProps = { types: readonly PauseType[]; value: number | null; onChange: (value: number | null) => void }

export function PauseSelect({ types, value, onChange }: PauseSelectProps) {
  const { t } = useLingui()
  return (
    <Select
      placeholder={types.length ? t`Selecione uma pausa` : t`Nenhuma pausa disponível`}
      disabled={!types.length}
      value={value}
      onChange={(_, next) => onChange(next)}
      // Inside the menu: a listbox in a portal would count as a click outside and close it.
      slotProps={{ listbox: { disablePortal: true, sx: { zIndex: 1 } } }}
      data-testid="pause-select"
      aria-label={t`Tipo de pausa`}
    >
      {types.map((type) => (
        <Option key={type.id} value={type.id}>
          {type.description}
        </Option>
      ))}
    </Select>
  )
}
