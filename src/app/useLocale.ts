import { useLingui } from '@lingui/react'
import type { Locale } from '../../contract/locales.ts'
import { localeParam } from './locale.ts'

/** The active locale and the `{-$locale}` param that keeps links in it. */
export function useLocale() {
  const { i18n } = useLingui()
  const locale = (i18n.locale || 'pt-BR') as Locale
  return { locale, params: { locale: localeParam(locale) } }
}
