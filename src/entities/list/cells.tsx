import Chip from '@mui/joy/Chip'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { TEXT_CUT } from '../../../contract/constants.ts'
import type { Entity, Field } from '../../../contract/entities/index.ts'
import { formatDateTime } from '../../app/dates.ts'
import type { ApiRecord } from '../api.ts'
import { cut, useText } from '../text.ts'

// One list cell per column (spec 001 §2 generic list): the active flag as a chip, references by their title
// (`<field>_description` beside the id), choices by their label, dates formatted, long texts cut with the whole text
// in a tooltip (TEXT_CUT.lastMessage in tables), chips cut at 50.

export function fieldOf(entity: Entity, name: string): Field | undefined {
  return entity.fields.find((f) => f.name === name)
}

/** Whether the server can order the list by a column (its own column: not lists, files or layout). */
export function isSortable(entity: Entity, column: string): boolean {
  if (column === 'id') return true
  const field = fieldOf(entity, column)
  return !!field && !['m2m', 'jsonb', 'rows', 'none', 'file'].includes(field.storage) && !field.secret
}

function optionText(field: Field, value: unknown, text: ReturnType<typeof useText>): string {
  const option = field.options?.find((o) => String(o.value) === String(value))
  return option ? text(option.text) : String(value)
}

/** A value as plain text (empty for nothing). */
export function plainValue(field: Field | undefined, record: ApiRecord, name: string, text: ReturnType<typeof useText>): string | string[] {
  const value = record[name]
  const description = record[`${name}_description`]
  if (value === null || value === undefined || value === '') return ''
  if (!field) return String(value)
  if (Array.isArray(description)) return description.map((d, i) => String(d ?? (value as unknown[])[i] ?? ''))
  if (typeof description === 'string' && description) return description
  if (Array.isArray(value)) return value.map((v) => (field.options ? optionText(field, v, text) : String(v)))
  if (field.options) return optionText(field, value, text)
  if (field.storage === 'timestamptz') return formatDateTime(value as string)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function Cell({ entity, column, record }: { entity: Entity; column: string; record: ApiRecord }) {
  const { t } = useLingui()
  const text = useText()
  const field = fieldOf(entity, column)
  const value = record[column]
  if (field?.storage === 'bool' || typeof value === 'boolean') {
    const on = value === true
    const label = column === 'is_active' ? (on ? t`Ativo` : t`Inativo`) : on ? t`Sim` : t`Não`
    return (
      <Chip size="sm" variant="soft" color={on ? 'success' : 'neutral'} data-testid={column === 'is_active' ? 'active-chip' : undefined}>
        {label}
      </Chip>
    )
  }
  const shown = plainValue(field, record, column, text)
  if (Array.isArray(shown)) {
    return (
      <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
        {shown.map((item, i) => (
          <Chip key={i} size="sm" variant="outlined" title={item}>
            {cut(item, TEXT_CUT.chip)}
          </Chip>
        ))}
      </span>
    )
  }
  return (
    <Typography level="body-sm" title={shown.length > TEXT_CUT.lastMessage ? shown : undefined} sx={{ wordBreak: 'break-word' }}>
      {cut(shown, TEXT_CUT.lastMessage)}
    </Typography>
  )
}
