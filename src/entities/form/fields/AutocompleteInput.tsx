import { useState } from 'react'
import Autocomplete from '@mui/joy/Autocomplete'
import Chip from '@mui/joy/Chip'
import { useLingui } from '@lingui/react/macro'
import { TEXT_CUT } from '../../../../contract/constants.ts'
import { useDebouncedValue } from '../../list/useListState.ts'
import { cut } from '../../text.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { useLookupLabels } from './lookupLabels.ts'
import { asList, asText, choiceOut, chosenText, isBlank, useLookup, useOptions, useStableSelection } from './shared.ts'
import type { Choice } from './shared.ts'

function AutocompleteInput(props: FieldInputProps) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, values } = props
  const [typed, setTyped] = useState('')
  const search = useDebouncedValue(typed)
  const remote = useLookup(field.lookup, field.lookup?.path, search)
  // Without a lookup (a form-builder autocomplete with options) the fixed options are filtered as you type.
  const fixed = useOptions(field)
  const { choices, loading, error } = field.lookup ? remote : { choices: fixed, loading: false, error: null }
  const labelOf = useLookupLabels(field.name, values, choices)
  const multiple = Boolean(field.multiple)
  const selected = useStableSelection(multiple ? asList(value).map(labelOf) : isBlank(value) ? null : labelOf(value))
  return (
    <FieldShell props={props} helper={error ? t`Não foi possível carregar as opções.` : undefined}>
      <Autocomplete<Choice, boolean>
        name={field.name}
        multiple={multiple}
        options={choices}
        value={selected as never}
        loading={loading}
        filterOptions={field.lookup ? (options) => options : undefined}
        placeholder={t`Digite para buscar`}
        noOptionsText={t`Sem resultados`}
        loadingText={t`Carregando…`}
        getOptionLabel={(o) => (typeof o === 'string' ? o : o.label)}
        isOptionEqualToValue={(a, b) => String(a.value) === String(b.value)}
        onInputChange={(_, text, reason) => reason === 'input' && setTyped(text)}
        onChange={(_, next) => {
          setTyped('')
          const one = next as Choice | null
          onChange(multiple ? (next as Choice[]).map((c) => choiceOut(field, c)) : one ? choiceOut(field, one) : '')
        }}
        onBlur={onBlur}
        renderTags={(tags, getTagProps) =>
          tags.map((choice, index) => {
            const { key, ...tagProps } = getTagProps({ index })
            return (
              <Chip key={key} size="sm" variant="soft" title={choice.label} {...tagProps}>
                {cut(choice.label, TEXT_CUT.chip)}
              </Chip>
            )
          })
        }
        slotProps={{ input: { 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/**
 * The lookup path that names the chosen rows when the values carry no `<name>_description` for them (a datatable row
 * just added through its dialog holds the ids only): `?<value>__in=<ids>`; undefined when the titles are all there.
 */
function titlesPath(field: FieldReadOnlyProps['field'], values: FieldReadOnlyProps['values'], ids: readonly unknown[]): string | undefined {
  const path = field.lookup?.path
  if (!path || path.includes('{') || ids.length === 0) return undefined
  if (asList(values[`${field.name}_description`]).length >= ids.length) return undefined
  return `${path}${path.includes('?') ? '&' : '?'}${field.lookup!.value}__in=${ids.map((id) => encodeURIComponent(asText(id))).join(',')}`
}

function LookupReadOnly({ field, value, values }: FieldReadOnlyProps) {
  // Chosen options ({ value, text }) carry their own titles.
  const path = titlesPath(
    field,
    values,
    asList(value).filter((id) => chosenText(id) === undefined),
  )
  const { choices } = useLookup(path ? field.lookup : undefined, path)
  const fixed = useOptions(field)
  const labelOf = useLookupLabels(field.name, values, field.lookup ? choices : fixed)
  return (
    <ReadOnlyText
      text={asList(value)
        .map((id) => cut(labelOf(id).label, TEXT_CUT.chip))
        .join(', ')}
    />
  )
}

/**
 * autocomplete: rows of another entity searched as you type (limit 999999, 5 retries), or the field's own options
 * when it has no lookup; chips cut at 50 characters. With returnObject the value is the chosen { value, text }.
 */
export const autocompleteField: FieldComponents = { Input: AutocompleteInput, ReadOnly: LookupReadOnly }
export { LookupReadOnly }
