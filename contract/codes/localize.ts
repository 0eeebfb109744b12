import type { Locale } from '../locales.ts'
import { DEFAULT_LOCALE, toLocale } from '../locales.ts'

/** A text in the three interface languages. */
export type Texts = Readonly<Record<Locale, string>>

/** Picks the text of a language tag ('en-US', 'en-us', 'en', an Accept-Language tag), pt-BR when it names none. */
export function localize(texts: Texts, locale?: string | null): string {
  return texts[toLocale(locale) ?? DEFAULT_LOCALE]
}

/** Codes arrive as numbers from machines and as strings from SIP headers and query strings; both mean the same. */
export function toCode(code: number | string | null | undefined): number | undefined {
  if (typeof code === 'number') return Number.isInteger(code) ? code : undefined
  if (typeof code === 'string' && /^\s*\d+\s*$/.test(code)) return Number(code)
  return undefined
}

/** The label of a numeric code in a table; an unknown code is shown raw, an absent one as ''. */
export function codeLabel(labels: Readonly<Record<number, Texts>>, code: number | string | null | undefined, locale?: string | null): string {
  if (code === null || code === undefined) return ''
  const known = toCode(code)
  return known !== undefined && Object.hasOwn(labels, known) ? localize(labels[known]!, locale) : String(code).trim()
}
