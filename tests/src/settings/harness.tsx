import type { ReactNode } from 'react'
import { act, render } from '@testing-library/react'
import { expect, vi } from 'vitest'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { I18nProvider } from '@lingui/react'
import type { Profile } from '../../../contract/api/profile.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { configureClient } from '../../../src/api/client.ts'
import { activateLocale, i18n } from '../../../src/app/i18n.ts'
import { createQueryClient } from '../../../src/app/queryClient.ts'
import { jsonResponse, renderApp } from '../render-app.tsx'

// The settings screens in jsdom: the real route tree (or a bare router around one component), the real API client,
// and fetch answered by a handler per test.

export type Call = { method: string; path: string; url: URL; body: unknown }
export type Handler = (call: Call) => { status?: number; body?: unknown } | undefined

export const calls: Call[] = []

export function profile(roles: string[]): Profile {
  return {
    id: 1,
    username: 'admin',
    first_name: 'Ada',
    last_name: 'Admin',
    email: '',
    avatar: null,
    avatar_message: '',
    roles,
    last_login: new Date(Date.now() - 86_400_000).toISOString(),
    site: { id: 1, domain: 'localhost', name: 'Demo', settings: {} as Profile['site']['settings'] },
    voip: null,
    team: null,
    pauses: [],
    queue_classifications: [],
    dialer_classifications: [],
    userextra: { login_channel_telephony: false, login_channel_chat: false, password_expire_date: null, password_notification_start: null },
  }
}

const json = jsonResponse

async function bodyOf(init?: RequestInit): Promise<unknown> {
  const body = init?.body
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return JSON.parse(body)
  return body
}

/** Answers the API: the profile with `roles`, then `handler`, then an empty list. */
export function serve(roles: string[], handler: Handler = () => undefined) {
  calls.length = 0
  configureClient({
    fetch: vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost')
      const call = { method: init?.method ?? 'GET', path: url.pathname, url, body: await bodyOf(init) }
      calls.push(call)
      if (url.pathname === '/api/v1/business/profile/') return json(200, profile(roles))
      if (url.pathname === '/api/v1/business/site-settings/') return json(200, { id: 1, domain: 'localhost', name: 'Demo', settings: {} })
      const answer = handler(call)
      if (answer) return json(answer.status ?? 200, answer.body)
      return json(200, { count: 0, results: [] })
    }) as typeof fetch,
  })
}

export const ALL = [PERMISSIONS.viewSettings, PERMISSIONS.viewDashboard]

export function setupDom() {
  document.cookie = 'i18n_redirected=pt-br; path=/'
}

/** Opens a path of the real app. */
export async function openApp(path: string) {
  const router = await renderApp(path)
  await vi.waitFor(() => expect(router.state.status).toBe('idle'))
  return router
}

/** Renders one component with the providers (and a router, for links), in a language. */
export async function renderUi(ui: ReactNode, locale: 'pt-BR' | 'en-US' | 'es-ES' = 'pt-BR') {
  await activateLocale(locale)
  const queryClient = createQueryClient()
  const root = createRootRoute({ staticData: { permission: 'public' }, component: () => <>{ui}</> })
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router as never} />
      </I18nProvider>
    </QueryClientProvider>,
  )
  await act(async () => {
    await router.load()
  })
  return { ...view, queryClient }
}
