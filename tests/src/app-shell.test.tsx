import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { Profile } from '../../contract/api/profile.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { configureClient } from '../../src/api/client.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { jsonResponse, renderApp } from './render-app.tsx'

// Guards and the default layout end to end in jsdom: the real route tree and API client, fetch answered here.

const DAY = 86_400_000
function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 1,
    username: 'agent1',
    first_name: 'Ana',
    last_name: 'Agente',
    email: '',
    avatar: null,
    avatar_message: '',
    roles: [PERMISSIONS.viewDashboard],
    last_login: new Date(Date.now() - DAY).toISOString(),
    site: { id: 1, domain: 'localhost', name: 'Demo', settings: {} as Profile['site']['settings'] },
    voip: null,
    team: null,
    pauses: [],
    queue_classifications: [],
    dialer_classifications: [],
    userextra: { login_channel_telephony: false, login_channel_chat: false, password_expire_date: null, password_notification_start: null },
    ...overrides,
  }
}

const json = jsonResponse

let signedIn: Profile | null = null
const calls: string[] = []

async function open(path: string) {
  const router = await renderApp(path)
  await vi.waitFor(() => expect(router.state.status).toBe('idle'))
  return router
}

beforeEach(() => {
  signedIn = null
  calls.length = 0
  toasts.set([])
  // jsdom's browser language is en-US; these users chose Portuguese, so unprefixed pages stay unprefixed.
  document.cookie = 'i18n_redirected=pt-br; path=/'
  configureClient({
    fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url)
      calls.push(`${init?.method ?? 'GET'} ${path}`)
      if (path.startsWith('/api/session/logout/')) signedIn = null
      if (path.startsWith('/api/v1/business/profile/')) return signedIn ? json(200, signedIn) : json(401, { detail: 'not authenticated' })
      if (path.startsWith('/api/v1/business/site-settings/')) return json(200, { id: 1, domain: 'localhost', name: 'Demo', settings: {} })
      return json(200, { success: true })
    }) as typeof fetch,
  })
})
afterEach(cleanup)

describe('route guards', () => {
  it('sends a visitor to the sign-in page of the same language, remembering the target', async () => {
    const router = await open('/en-us/profile?tab=2')
    expect(router.state.location.pathname).toBe('/en-us/login')
    expect(router.state.location.search).toEqual({ redirect: '/en-us/profile?tab=2' })
    expect(document.documentElement.lang).toBe('en-US')
  })

  it('shows 403 when the page needs a permission the user lacks', async () => {
    signedIn = profile({ roles: ['sites.view_chat'] })
    const router = await open('/es-es/')
    expect(router.state.location.pathname).toBe('/es-es/403')
    expect(await screen.findByText('Sin permiso')).toBeTruthy()
    expect(screen.getByText('No tiene permiso para acceder a esta página')).toBeTruthy()
  })

  it('opens the page when the user holds its permission', async () => {
    signedIn = profile()
    const router = await open('/')
    expect(router.state.location.pathname).toBe('/')
    expect(await screen.findByText('Olá, Ana Agente')).toBeTruthy()
  })

  it('forces the change-password page when the password has expired, with the toast', async () => {
    signedIn = profile({
      userextra: {
        login_channel_telephony: false,
        login_channel_chat: false,
        password_expire_date: new Date(Date.now() - 1000).toISOString(),
        password_notification_start: null,
      },
    })
    const router = await open('/profile/change-avatar')
    expect(router.state.location.pathname).toBe('/profile/change-password')
    expect(toasts.get().map((t) => t.message)).toContain('Sua senha expirou, por favor, crie uma nova senha.')
  })

  it('warns on the home page right after sign-in inside the notification window', async () => {
    signedIn = profile({
      last_login: new Date().toISOString(),
      userextra: {
        login_channel_telephony: false,
        login_channel_chat: false,
        password_expire_date: new Date(Date.now() + DAY).toISOString(),
        password_notification_start: new Date(Date.now() - DAY).toISOString(),
      },
    })
    await open('/')
    expect(toasts.get().map((t) => t.message)).toContain('Sua senha irá expirar em breve.')
  })

  it("answers 404 for an unknown locale prefix and an unknown page, in the visit's language", async () => {
    // An unknown prefix is no language: the cookie's (pt-BR here) speaks.
    await open('/fr-fr/profile')
    expect(await screen.findByText('Esta página não foi encontrada')).toBeTruthy()
    cleanup()
    await open('/en-us/nowhere/at/all')
    expect(await screen.findByText('This page could not be found')).toBeTruthy()
    expect(screen.getByText('Back to the home page')).toBeTruthy()
  })

  it('answers 404 for the pages of an area the site turned off, and drops it from the menu', async () => {
    const roles = [PERMISSIONS.viewDashboard, PERMISSIONS.viewChat, PERMISSIONS.viewSettings, 'chat.view_bot']
    const modules = { telephony: true, chat: true, dialer: true, crm: true, reports: true }
    signedIn = profile({ roles, site: { ...profile().site, modules } })
    await open('/profile')
    await screen.findByText('Meu perfil', { selector: 'h1' })
    expect(document.querySelector('[data-menu="chats"]')).toBeTruthy()
    cleanup()

    signedIn = profile({ roles, site: { ...profile().site, modules: { ...modules, chat: false } } })
    await open('/profile')
    await screen.findByText('Meu perfil', { selector: 'h1' })
    expect(document.querySelector('[data-menu="chats"]')).toBeNull()
    expect(document.querySelector('[data-menu="home"]')).toBeTruthy()
    cleanup()
    const router = await open('/chats')
    expect(await screen.findByText('Esta página não foi encontrada')).toBeTruthy()
    expect(router.state.location.pathname).toBe('/chats')
    cleanup()
    await open('/en-us/settings/chat/bots')
    expect(await screen.findByText('This page could not be found')).toBeTruthy()
  })

  it('takes the webphone out of the top bar when telephony is off', async () => {
    const roles = [PERMISSIONS.viewDashboard, PERMISSIONS.viewSoftphone]
    const modules = { telephony: true, chat: true, dialer: true, crm: true, reports: true }
    signedIn = profile({ roles, site: { ...profile().site, modules } })
    await open('/profile')
    await screen.findByText('Meu perfil', { selector: 'h1' })
    expect(document.querySelector('[data-testid="webphone-button"]')).toBeTruthy()
    cleanup()
    signedIn = profile({ roles, site: { ...profile().site, modules: { ...modules, telephony: false } } })
    await open('/profile')
    await screen.findByText('Meu perfil', { selector: 'h1' })
    expect(document.querySelector('[data-testid="webphone-button"]')).toBeNull()
    expect(document.querySelector('[data-menu="phonecalls"]')).toBeNull()
  })

  it('moves an unprefixed page to the browser language when no language was chosen', async () => {
    document.cookie = 'i18n_redirected=; Max-Age=0; path=/'
    const router = await open('/login')
    expect(router.state.location.pathname).toBe('/en-us/login')
    expect(document.cookie).toContain('i18n_redirected=en-us')
  })

  it('moves an unprefixed page to the language of the cookie', async () => {
    document.cookie = 'i18n_redirected=es-es; path=/'
    const router = await open('/login?x=1')
    expect(router.state.location.pathname).toBe('/es-es/login')
    expect(router.state.location.searchStr).toBe('?x=1')
  })
})

describe('default layout', () => {
  it('signs out after the confirmation and lands on the sign-in page', async () => {
    signedIn = profile()
    const router = await open('/')
    fireEvent.click(await screen.findByRole('button', { name: 'Sair' }))
    expect(await screen.findByText('Você tem certeza que quer deslogar?')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByTestId('logout-confirm'))
    })
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(calls).toContain('POST /api/session/logout/')
  })

  it('shows the menu entries the user may open, with the profile group', async () => {
    signedIn = profile({ roles: [] })
    await open('/profile')
    await screen.findByText('Meu perfil', { selector: 'h1' })
    expect(document.querySelector('[data-menu="my-profile"]')?.textContent).toContain('Meu perfil')
    expect(document.querySelector('[data-menu="home"]')).toBeNull()
    expect(document.querySelector('[data-menu="profile-password"]')).toBeTruthy()
  })

  it('switches language keeping the page and its search params, and writes the cookie', async () => {
    signedIn = profile()
    const router = await open('/profile?tab=2')
    fireEvent.click(await screen.findByTestId('language-menu'))
    await act(async () => {
      fireEvent.click(await screen.findByText('English (US)'))
    })
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/en-us/profile'))
    expect(router.state.location.searchStr).toBe('?tab=2')
    expect(document.cookie).toContain('i18n_redirected=en-us')
    expect(await screen.findByText('My profile', { selector: 'h1' })).toBeTruthy()
  })

  it('lists notifications with a close button each', async () => {
    signedIn = profile({ roles: [PERMISSIONS.viewDashboard, PERMISSIONS.viewNotification] })
    await open('/')
    fireEvent.click(await screen.findByTestId('notifications'))
    expect(await screen.findByText('Bem-vindo ao Atende! Suas notificações aparecem aqui.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }))
    await vi.waitFor(() => expect(screen.queryByText('Bem-vindo ao Atende! Suas notificações aparecem aqui.')).toBeNull())
  })

  it('hides the bell and full-screen button without their permissions', async () => {
    signedIn = profile()
    await open('/')
    await screen.findByText('Olá, Ana Agente')
    expect(screen.queryByTestId('notifications')).toBeNull()
    expect(screen.queryByTestId('fullscreen')).toBeNull()
  })
})
