import { i18n } from '@lingui/core'
import dayjs from 'dayjs'
import type { Messages } from '@lingui/core'
import type { Locale } from '../../contract/locales.ts'

// Only the active language's catalog is fetched: each .po is its own chunk, compiled by @lingui/vite-plugin.
const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  'pt-BR': () => import('../../locales/pt-BR/messages.po'),
  'en-US': () => import('../../locales/en-US/messages.po'),
  'es-ES': () => import('../../locales/es-ES/messages.po'),
}
const dayjsLocales: Record<Locale, { name: string; load: () => Promise<unknown> }> = {
  'pt-BR': { name: 'pt-br', load: () => import('dayjs/locale/pt-br') },
  'en-US': { name: 'en', load: async () => undefined },
  'es-ES': { name: 'es', load: () => import('dayjs/locale/es') },
}

const loaded = new Set<Locale>()

/** Loads (once) and activates a locale: Lingui catalog, dayjs locale and `<html lang>`. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) {
    const [{ messages }] = await Promise.all([catalogs[locale](), dayjsLocales[locale].load()])
    i18n.load(locale, messages)
    loaded.add(locale)
  }
  dayjs.locale(dayjsLocales[locale].name)
  if (i18n.locale !== locale) i18n.activate(locale)
  if (typeof document !== 'undefined') document.documentElement.lang = locale
}

export function activeLocale(): Locale {
  return (i18n.locale || 'pt-BR') as Locale
}

export { i18n }
