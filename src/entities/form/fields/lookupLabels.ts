import { useRef } from 'react'
import type { Values } from '../../../../contract/entities/index.ts'
import { optionValue } from '../../../../contract/entities/index.ts'
import type { Choice } from './shared.ts'
import { asList, asText, chosenText } from './shared.ts'

/**
 * Labels of chosen ids: from the record's `<name>_description` (the API sends the titles beside the ids), from chosen
 * options ({ value, text }, returnObject) and from every option seen since, so a chip keeps its text when a new search
 * no longer lists it.
 */
export function useLookupLabels(name: string, values: Values, choices: readonly Choice[]) {
  const seen = useRef(new Map<string, string>())
  const ids = asList(values[name])
  const descriptions = asList(values[`${name}_description`])
  ids.forEach((id, i) => {
    const label = chosenText(id) ?? descriptions[i]
    const key = String(optionValue(id))
    if (label !== undefined && label !== null && !seen.current.has(key)) seen.current.set(key, asText(label))
  })
  for (const c of choices) seen.current.set(String(c.value), c.label)
  return (id: unknown): Choice => {
    const value = optionValue(id) as string | number
    return { value, label: seen.current.get(String(value)) ?? `#${asText(value)}` }
  }
}
