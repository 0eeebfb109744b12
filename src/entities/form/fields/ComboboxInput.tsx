import { useState } from 'react'
import Autocomplete from '@mui/joy/Autocomplete'
import Chip from '@mui/joy/Chip'
import { useLingui } from '@lingui/react/macro'
import { TEXT_CUT } from '../../../../contract/constants.ts'
import { joinDelimiter, splitItems } from '../../../../contract/entities/index.ts'
import { cut } from '../../text.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asList, useOptions } from './shared.ts'

/** The items a typed text holds, split on any of the field's delimiters (';' by default). */
export function splitTyped(text: string, delimiters: readonly string[]): string[] {
  const pattern = new RegExp(`[${(delimiters.length ? delimiters : [';']).map((d) => `\\${d}`).join('')}\\n]`)
  return text
    .split(pattern)
    .map((s) => s.trim())
    .filter(Boolean)
}

function ComboboxInput(props: FieldInputProps<string[] | string>) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur } = props
  // Typing the delimiter the items are joined on closes an item (';' when they travel as a list).
  const delimiters = field.delimiters?.length ? field.delimiters : [joinDelimiter(field) ?? ';']
  const items = typeof value === 'string' ? splitItems(value, delimiters[0]) : asList<string>(value).map(String)
  const suggestions = useOptions(field).map((o) => String(o.value))
  const [typed, setTyped] = useState('')
  const add = (text: string) => {
    const fresh = splitTyped(text, delimiters).filter((x) => !items.includes(x))
    if (fresh.length) onChange([...items, ...fresh])
    setTyped('')
  }
  return (
    <FieldShell props={props} helper={field.hint ? undefined : t`Digite e tecle Enter ou "${delimiters[0]}" para adicionar.`}>
      <Autocomplete
        multiple
        freeSolo
        name={field.name}
        options={suggestions}
        value={items}
        onChange={(_, next) => onChange(next.flatMap((x) => splitTyped(String(x), delimiters)))}
        inputValue={typed}
        onInputChange={(_, text, reason) => {
          // Typing a delimiter closes the item, as Enter does; a pasted list becomes several items.
          if (reason === 'input' && /[;,\n]/.test(text) && delimiters.some((d) => text.includes(d))) add(text)
          else setTyped(reason === 'reset' ? '' : text)
        }}
        onBlur={() => {
          // What is left typed counts as an item: leaving the field must not lose it.
          if (typed.trim()) add(typed)
          onBlur()
        }}
        renderTags={(tags, getTagProps) =>
          tags.map((item, index) => {
            const { key, ...tagProps } = getTagProps({ index })
            return (
              <Chip key={key} size="sm" variant="soft" title={item} {...tagProps}>
                {cut(item, TEXT_CUT.chip)}
              </Chip>
            )
          })
        }
        slotProps={{ input: { 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** combobox: free values typed as chips; with delimiters the form sends them joined on the first one. */
export const comboboxField: FieldComponents = {
  Input: ComboboxInput,
  ReadOnly: ({ field, value }) => (
    <ReadOnlyText
      text={(typeof value === 'string' ? splitItems(value, joinDelimiter(field)) : asList<string>(value)).join(`${joinDelimiter(field) ?? ';'} `)}
    />
  ),
}
