import { i18n } from '@lingui/core'
import type { Messages } from '@lingui/core'
import type { Locale } from '../../contract/locales.ts'

// Only the active language's catalog is fetched: each .po is its own chunk, compiled by @lingui/vite-plugin.
const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  'pt-BR': () => import('../../locales/pt-BR/messages.po'),
  'en-US': () => import('../../locales/en-US/messages.po'),
  'es-ES': () => import('../../locales/es-ES/messages.po'),
}

const loaded = new Set<Locale>()

/** Loads (once) and activates a locale: Lingui catalog and `<html lang>` (dayjs follows in `dates.ts`). */
export async function activateLocale(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) {
    const { messages } = await catalogs[locale]()
    i18n.load(locale, messages)
    loaded.add(locale)
  }
  if (i18n.locale !== locale) i18n.activate(locale)
  if (typeof document !== 'undefined') document.documentElement.lang = locale
}

export function activeLocale(): Locale {
  return (i18n.locale || 'pt-BR') as Locale
}

export { i18n }
