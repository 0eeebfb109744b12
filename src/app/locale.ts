import { DEFAULT_LOCALE, LOCALE_CODE, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALE_PREFIX, LOCALES, pickLocale, toLocale } from '../../contract/locales.ts'
import type { Locale } from '../../contract/locales.ts'

// Which language a page is shown in (spec 000 §1): the URL prefix, then the `i18n_redirected` cookie, then the
// browser language. pt-BR has no prefix.

/** The locale named by a URL prefix segment ('en-us' → en-US); undefined for no segment; null for an unknown one. */
export function localeFromPrefix(segment: string | undefined): Locale | undefined | null {
  if (segment === undefined || segment === '') return undefined
  const found = LOCALES.find((l) => LOCALE_PREFIX[l] === segment.toLowerCase())
  return found ?? null
}

/** The locale of a cookie value (pt-br, en-us, es-es); undefined for anything else. */
export function localeFromCookie(value: string | undefined): Locale | undefined {
  if (!value) return undefined
  return LOCALES.find((l) => LOCALE_CODE[l] === value.toLowerCase())
}

export type LocaleSources = { prefix?: string; cookie?: string; browser?: readonly string[] }

/** Prefix > cookie > browser > pt-BR. An unknown prefix is not a language: callers answer 404 for it. */
export function resolveLocale({ prefix, cookie, browser }: LocaleSources): Locale {
  const fromPrefix = localeFromPrefix(prefix)
  if (fromPrefix) return fromPrefix
  return localeFromCookie(cookie) ?? pickLocale(browser) ?? DEFAULT_LOCALE
}

/** The first path segment (a locale prefix or the first segment of an unprefixed page). */
export function firstSegment(pathname: string): string | undefined {
  return pathname.split('/').filter(Boolean)[0]
}

/** The route param value for a locale: undefined for pt-BR (no prefix). */
export function localeParam(locale: Locale): string | undefined {
  return LOCALE_PREFIX[locale]
}

/** Rewrites a pathname to the same page under another locale's prefix. */
export function switchLocalePath(pathname: string, to: Locale): string {
  const segments = pathname.split('/').filter(Boolean)
  if (localeFromPrefix(segments[0])) segments.shift()
  const prefix = LOCALE_PREFIX[to]
  if (prefix) segments.unshift(prefix)
  const trailing = pathname.length > 1 && pathname.endsWith('/') && segments.length > 0 ? '/' : ''
  return '/' + segments.join('/') + trailing
}

export function readCookie(name: string, cookies = typeof document === 'undefined' ? '' : document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

export function writeLocaleCookie(locale: Locale) {
  document.cookie = `${LOCALE_COOKIE}=${LOCALE_CODE[locale]}; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`
}

/** The sources available in the browser right now. */
export function browserLocaleSources(pathname: string): LocaleSources {
  return {
    prefix: firstSegment(pathname),
    cookie: readCookie(LOCALE_COOKIE),
    browser: typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language],
  }
}

/** Where an unprefixed URL should go instead, or undefined to stay (spec: prefix except default). */
export function localeRedirect(pathname: string, sources: LocaleSources): Locale | undefined {
  if (localeFromPrefix(firstSegment(pathname))) return undefined
  const preferred = localeFromCookie(sources.cookie) ?? pickLocale(sources.browser)
  return preferred && preferred !== DEFAULT_LOCALE ? preferred : undefined
}
