import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { ChosenOption, Field, Lookup, Values } from '../../../../contract/entities/index.ts'
import { optionValue } from '../../../../contract/entities/index.ts'
import { lookupQuery } from '../../api.ts'
import type { LookupRow } from '../../api.ts'
import { useText } from '../../text.ts'

export type Choice = { readonly value: string | number; readonly label: string }

/** A field's fixed options in the active language. */
export function useOptions(field: Field): Choice[] {
  const text = useText()
  return (field.options ?? []).map((o) => ({ value: o.value as string | number, label: text(o.text) }))
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

export function asText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value)
}

export function asList<T = unknown>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : isBlank(value) ? [] : [value as T]
}

/** What a choice control hands the form: the choice's value, or with `returnObject` the choice itself. */
export function choiceOut(field: Field, choice: Choice): Choice['value'] | ChosenOption {
  return field.returnObject ? { value: choice.value, text: choice.label } : choice.value
}

/**
 * The chosen choices of an Autocomplete, the same object while they are the same: Joy's Autocomplete clears what is
 * being typed whenever its value changes identity, and the choices are rebuilt on every render.
 */
export function useStableSelection<T extends Choice | Choice[] | null>(selected: T): T {
  const key = JSON.stringify(selected)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => selected, [key])
}

/** The text a chosen option ({ value, text }) carries, if the value is one. */
export function chosenText(value: unknown): string | undefined {
  return value !== null && typeof value === 'object' && 'text' in value && 'value' in value ? asText((value as ChosenOption).text) : undefined
}

/** `{name}` placeholders in a lookup path, filled from the form (dependent lookups: api-join, api-join-3). */
export function lookupDependencies(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
}

/** The path with its placeholders filled, or undefined while a parent value is missing. */
export function resolveLookupPath(path: string, values: Values): string | undefined {
  let missing = false
  const resolved = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = optionValue(values[name])
    const id = value && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value
    if (isBlank(id)) missing = true
    return encodeURIComponent(asText(id))
  })
  return missing ? undefined : resolved
}

export function rowChoice(lookup: Pick<Lookup, 'value' | 'label'>, row: LookupRow): Choice {
  const value = row[lookup.value] as string | number
  const label = row[lookup.label] ?? row.description ?? row.name ?? value
  return { value, label: asText(label) }
}

/** Choices loaded from an API (limit 999999, retried up to 5 times); `path` may carry a query string. */
export function useLookup(lookup: Lookup | undefined, path: string | undefined, search?: string, cache = false) {
  const [base, queryString] = (path ?? '').split('?')
  const query: Record<string, string> = Object.fromEntries(new URLSearchParams(queryString ?? ''))
  if (search) query.search = search
  const result = useQuery({ ...lookupQuery(base ?? '', query), enabled: !!lookup && !!path, ...(cache ? { staleTime: Infinity, gcTime: Infinity } : {}) })
  const choices = lookup ? (result.data ?? []).map((row) => rowChoice(lookup, row)) : []
  return { choices, rows: result.data ?? [], loading: result.isFetching, error: result.error }
}
