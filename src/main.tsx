import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from '@tanstack/react-router'
import { I18nProvider } from '@lingui/react'
import { configureClient } from './api/client.ts'
import { installChunkReloadGuard } from './app/chunkReload.ts'
import { activateLocale, i18n } from './app/i18n.ts'
import { browserLocaleSources, localeParam, resolveLocale } from './app/locale.ts'
import { lazyQueryClient } from './app/lazyQueryClient.ts'
import { createAppRouter } from './app/router.tsx'
import { SiteTheme } from './app/SiteTheme.tsx'
import { Toaster } from './components/toast/Toaster.tsx'

installChunkReloadGuard()
// TanStack Query loads with the first signed-in page (or the sign-in submit), not with the sign-in page.
const queries = lazyQueryClient(() => import('./app/queryClient.ts').then((m) => m.createQueryClient()))
const router = createAppRouter(queries)

configureClient({
  locale: () => i18n.locale || 'pt-BR',
  // A 401 on a signed-in call means the session is gone (spec 000 §8).
  onUnauthorized: () => {
    // The session is gone: forget the user so the next guard asks the server again.
    queries.current()?.removeQueries({ queryKey: ['profile'] })
    const locale = localeParam((i18n.locale || 'pt-BR') as Parameters<typeof localeParam>[0])
    if (!router.state.location.pathname.endsWith('/401')) void router.navigate({ to: '/{-$locale}/401', params: { locale } })
  },
})

// The first catalog is loaded before the first paint, so no page ever flashes untranslated ids.
await activateLocale(resolveLocale(browserLocaleSources(window.location.pathname)))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <SiteTheme>
        <RouterProvider router={router} />
        <Toaster />
      </SiteTheme>
    </I18nProvider>
  </StrictMode>,
)
