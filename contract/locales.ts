// The three interface languages. pt-BR is the default and has no URL prefix.
export const LOCALES = ['pt-BR', 'en-US', 'es-ES'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'pt-BR'

/** URL prefix of each locale (`undefined` for the default). */
export const LOCALE_PREFIX: Record<Locale, string | undefined> = { 'pt-BR': undefined, 'en-US': 'en-us', 'es-ES': 'es-es' }
/** Value stored in the `i18n_redirected` cookie (kept 365 days). */
export const LOCALE_COOKIE = 'i18n_redirected'
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60
export const LOCALE_CODE: Record<Locale, string> = { 'pt-BR': 'pt-br', 'en-US': 'en-us', 'es-ES': 'es-es' }

/** Resolves a prefix, cookie value or Accept-Language tag to a locale; undefined when it names none. */
export function toLocale(value: string | undefined | null): Locale | undefined {
  if (!value) return undefined
  const tag = value.trim().toLowerCase()
  if (tag.startsWith('pt')) return 'pt-BR'
  if (tag.startsWith('en')) return 'en-US'
  if (tag.startsWith('es')) return 'es-ES'
  return undefined
}

/** First supported language of an Accept-Language header (or navigator.languages). */
export function pickLocale(tags: readonly string[] | string | undefined): Locale | undefined {
  const list = typeof tags === 'string' ? tags.split(',').map((t) => t.split(';')[0]!) : (tags ?? [])
  for (const tag of list) {
    const locale = toLocale(tag)
    if (locale) return locale
  }
  return undefined
}
