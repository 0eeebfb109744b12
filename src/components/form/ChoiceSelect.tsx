import type { ReactNode } from 'react'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'

// A filter bar's pick-one select (reports, builder pages): "all" first, then the choices by description (#id when a
// choice has none). Its FormControl id and test id are `${prefix}-${id}`.

export type Choice = { id: number | string; description?: string | null }

export function ChoiceSelect({
  prefix,
  id,
  label,
  value,
  choices,
  all,
  onChange,
}: {
  prefix: string
  id: string
  label: ReactNode
  value: string
  choices: readonly Choice[] | undefined
  all: string
  onChange: (value: string) => void
}) {
  return (
    <FormControl id={`${prefix}-${id}`} size="sm">
      <FormLabel>{label}</FormLabel>
      <Select value={value} onChange={(_, next) => onChange(next ?? '')} data-testid={`${prefix}-${id}`}>
        <Option value="">{all}</Option>
        {(choices ?? []).map((choice) => (
          <Option key={choice.id} value={String(choice.id)}>
            {choice.description || `#${choice.id}`}
          </Option>
        ))}
      </Select>
    </FormControl>
  )
}
