import { useEffect, useRef } from 'react'
import Autocomplete from '@mui/joy/Autocomplete'
import Chip from '@mui/joy/Chip'
import { useLingui } from '@lingui/react/macro'
import { TEXT_CUT } from '../../../../contract/constants.ts'
import { cut } from '../../text.ts'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { LookupReadOnly } from './AutocompleteInput.tsx'
import { useLookupLabels } from './lookupLabels.ts'
import { asList, asText, choiceOut, isBlank, lookupDependencies, resolveLookupPath, useLookup, useStableSelection } from './shared.ts'
import type { Choice } from './shared.ts'

/**
 * api, api-join, api-join-3: a select over rows of an API, filtered in the box. A join's lookup path names the fields
 * it depends on — `/api/v1/service/unions/?classification={classification}` — so its options follow the first
 * select's value (api-join) or the first two (api-join-3); it waits while a parent is empty and clears when one changes.
 * With returnObject the value is the chosen row as { value, text }.
 */
function ApiSelectInput(props: FieldInputProps) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, values } = props
  const template = field.lookup?.path ?? ''
  const path = resolveLookupPath(template, values)
  const { choices, loading, error } = useLookup(field.lookup, path)
  const labelOf = useLookupLabels(field.name, values, choices)
  const multiple = Boolean(field.multiple)
  const dependsOn = lookupDependencies(template)
  const parentKey = dependsOn.map((name) => asText(values[name])).join('|')
  const previous = useRef(parentKey)
  useEffect(() => {
    if (previous.current !== parentKey && !isBlank(value)) onChange(multiple ? [] : '')
    previous.current = parentKey
  }, [parentKey]) // eslint-disable-line react-hooks/exhaustive-deps
  const waiting = path === undefined
  const selected = useStableSelection(multiple ? asList(value).map(labelOf) : isBlank(value) ? null : labelOf(value))
  return (
    <FieldShell props={props} helper={error ? t`Não foi possível carregar as opções.` : waiting ? t`Escolha antes o campo anterior.` : undefined}>
      <Autocomplete<Choice, boolean>
        name={field.name}
        multiple={multiple}
        options={choices}
        value={selected as never}
        loading={loading}
        disabled={props.disabled || waiting}
        placeholder={t`Selecione`}
        noOptionsText={t`Sem resultados`}
        loadingText={t`Carregando…`}
        getOptionLabel={(o) => (typeof o === 'string' ? o : o.label)}
        isOptionEqualToValue={(a, b) => String(a.value) === String(b.value)}
        onChange={(_, next) => {
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

export const apiField: FieldComponents = { Input: ApiSelectInput, ReadOnly: LookupReadOnly }
