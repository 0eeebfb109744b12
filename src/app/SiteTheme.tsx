import { useEffect, useMemo } from 'react'
import type { ReactNode } from 'react'
import CssBaseline from '@mui/joy/CssBaseline'
import GlobalStyles from '@mui/joy/GlobalStyles'
import { CssVarsProvider } from '@mui/joy/styles'
import { useLingui } from '@lingui/react/macro'
import { useSiteSettings } from './siteSettings.ts'
import { buildTheme, shellColorVars } from './theme.ts'

export { useSiteSettings }

/** Joy theme (in the page's language: it names the loading indicators) and shell colours from the site settings; the favicon too. */
export function SiteTheme({ children }: { children: ReactNode }) {
  const settings = useSiteSettings()
  const { t } = useLingui()
  const loading = t`Carregando`
  const theme = useMemo(
    () => buildTheme(settings ?? {}, { loading }),
    [
      loading,
      settings?.primary_color,
      settings?.secondary_color,
      settings?.success_color,
      settings?.error_color,
      settings?.button_primary_color,
      settings?.switch_color,
    ],
  )
  const vars = shellColorVars(settings)
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (link) link.href = settings?.logo_favicon || '/favicon.svg'
  }, [settings?.logo_favicon])
  return (
    <CssVarsProvider theme={theme} defaultMode="light" modeStorageKey="atende-mode" disableNestedContext>
      <CssBaseline />
      <GlobalStyles
        styles={{
          ':root': vars,
          '@keyframes atende-toast-in': { from: { opacity: 0, transform: 'translateY(-8px)' }, to: { opacity: 1, transform: 'none' } },
          body: { WebkitFontSmoothing: 'antialiased' },
        }}
      />
      {children}
    </CssVarsProvider>
  )
}
