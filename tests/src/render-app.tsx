import type { ReactNode } from 'react'
import { act, render } from '@testing-library/react'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { I18nProvider } from '@lingui/react'
import { i18n } from '../../src/app/i18n.ts'
import { lazyQueryClient } from '../../src/app/lazyQueryClient.ts'
import { createQueryClient } from '../../src/app/queryClient.ts'
import { createAppRouter } from '../../src/app/router.tsx'
import { SiteTheme } from '../../src/app/SiteTheme.tsx'

// The whole SPA (router, query cache, Lingui, theme) rendered at a path, as main.tsx mounts it (the query cache is
// provided by the signed-in layout, not the root); shared by the jsdom
// tests that drive real pages through a faked fetch.

/** A JSON answer for a faked fetch (no body when `body` is undefined, as for a 204). */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/**
 * Mounts the app at `path` and waits for the router's first load; `extra` renders beside the router (a Toaster).
 * `router.options.context.queries.current()` tells whether the query cache was created (the sign-in page never does).
 */
export async function renderApp(path: string, extra?: ReactNode) {
  const queries = lazyQueryClient(async () => createQueryClient())
  const router = createAppRouter(queries, createMemoryHistory({ initialEntries: [path] }))
  render(
    <I18nProvider i18n={i18n}>
      <SiteTheme>
        <RouterProvider router={router} />
        {extra}
      </SiteTheme>
    </I18nProvider>,
  )
  await act(async () => {
    await router.load()
  })
  return router
}
