import { useLingui } from '@lingui/react'
import { localize } from '../../contract/codes/localize.ts'
import type { Texts } from '../../contract/entities/index.ts'

/** The registry's three-language texts in the active language. */
export function useText(): (texts: Texts | undefined) => string {
  const { i18n } = useLingui()
  return (texts) => (texts ? localize(texts, i18n.locale) : '')
}

/** Cuts a text to `max` characters with an ellipsis (spec 001 §9 text cut rules). */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text
}
