import { useRouter, useRouterState } from '@tanstack/react-router'
import type { Locale } from '../../contract/locales.ts'
import { switchLocalePath, writeLocaleCookie } from '../app/locale.ts'

export const LANGUAGE_LABEL: Record<Locale, { flag: string; name: string; short: string }> = {
  'pt-BR': { flag: '🇧🇷', name: 'Português (Brasil)', short: 'Português' },
  'en-US': { flag: '🇺🇸', name: 'English (US)', short: 'English' },
  'es-ES': { flag: '🇪🇸', name: 'Español (España)', short: 'Español' },
}

/** Choosing a language writes the cookie and opens the same page, search and hash under the new prefix. */
export function useChooseLocale() {
  const router = useRouter()
  const location = useRouterState({ select: (s) => s.location })
  return (next: Locale) => {
    writeLocaleCookie(next)
    void router.navigate({ href: switchLocalePath(location.pathname, next) + location.searchStr + (location.hash ? `#${location.hash}` : '') })
  }
}
