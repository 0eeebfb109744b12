import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { Profile } from '../../contract/api/profile.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { configureClient } from '../../src/api/client.ts'
import { installValidationMessages } from '../../src/app/validationMessages.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { jsonResponse, renderApp } from './render-app.tsx'

// The sign-in form (a small valibot form, not TanStack Form): field errors from the contract schema in the page's
// language, the server's field and non-field errors, and the way in. The real route tree; fetch is answered here.

const profile = {
  id: 1,
  username: 'admin',
  first_name: 'Ada',
  last_name: 'Admin',
  email: '',
  avatar: null,
  avatar_message: '',
  roles: [PERMISSIONS.viewDashboard],
  last_login: new Date().toISOString(),
  site: { id: 1, domain: 'localhost', name: 'Demo', settings: {} },
  voip: null,
  team: null,
  pauses: [],
  queue_classifications: [],
  dialer_classifications: [],
  userextra: { login_channel_telephony: false, login_channel_chat: false, password_expire_date: null, password_notification_start: null },
} as unknown as Profile

const json = jsonResponse

let signedIn = false
let loginAnswer: () => Response
const posts: unknown[] = []

async function open(path: string) {
  const router = await renderApp(path)
  await vi.waitFor(() => expect(router.state.status).toBe('idle'))
  return router
}

const field = (name: string) => document.querySelector(`input[name="${name}"]`) as HTMLInputElement
const helpOf = (name: string) => document.getElementById(`${name}-helper-text`)?.textContent ?? null

async function type(name: string, value: string) {
  await act(async () => {
    fireEvent.change(field(name), { target: { value } })
  })
}

// The form loads its validation (schema, valibot, messages) when first used: a submit is over when the button is
// no longer busy (or gone, once signed in).
async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('login-submit'))
  })
  await vi.waitFor(() => expect(screen.queryByTestId('login-submit')?.hasAttribute('disabled') ?? false).toBe(false))
}

beforeAll(() => {
  installValidationMessages()
})

beforeEach(() => {
  signedIn = false
  posts.length = 0
  toasts.set([])
  loginAnswer = () => {
    signedIn = true
    return json(200, profile)
  }
  document.cookie = 'i18n_redirected=pt-br; path=/'
  configureClient({
    fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url)
      if (path.startsWith('/api/session/login/')) {
        posts.push(JSON.parse(String(init?.body)))
        return loginAnswer()
      }
      if (path.startsWith('/api/v1/business/profile/')) return signedIn ? json(200, profile) : json(401, { detail: 'not authenticated' })
      if (path.startsWith('/api/v1/business/site-settings/')) return json(200, { id: 1, domain: 'localhost', name: 'Demo', settings: {} })
      return json(200, { success: true })
    }) as typeof fetch,
  })
})
afterEach(cleanup)

describe('sign-in form', () => {
  it('names its inputs by their labels and describes them by their errors', async () => {
    await open('/en-us/login')
    await screen.findByTestId('login-submit')
    expect(screen.getByLabelText(/username|usuário/i)).toBe(field('username'))
    expect(screen.getByLabelText(/^password|^senha/i)).toBe(field('password'))
    await submit()
    await vi.waitFor(() => expect(field('username').getAttribute('aria-describedby')).toBe('username-helper-text'))
  })

  it('shows the required errors after a submit, in the page language, and sends nothing', async () => {
    await open('/en-us/login')
    await screen.findByTestId('login-submit')
    expect(helpOf('username')).toBeNull()
    await submit()
    await vi.waitFor(() => expect(helpOf('username')).toBe('This field is required'))
    expect(helpOf('password')).toBe('This field is required')
    expect(field('username').getAttribute('aria-invalid')).toBe('true')
    expect(posts).toEqual([])
  })

  it('validates a field as it is typed and follows a language switch', async () => {
    await open('/login')
    await screen.findByTestId('login-submit')
    await type('password', 'x'.repeat(129))
    await vi.waitFor(() => expect(helpOf('password')).toBe('Este campo é maior do que o permitido que é 128'))
    expect(helpOf('username')).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByText('Español'))
    })
    await vi.waitFor(() => expect(helpOf('password')).toBe('Este campo es más largo que el máximo permitido de 128'))
    await type('password', 'secret')
    // Validation runs once its schema has loaded (useSchemaForm): a condition to wait for, not a moment.
    await vi.waitFor(() => expect(helpOf('password')).toBeNull())
  })

  it("shows the server's non-field errors above the form and its field errors on the field until it changes", async () => {
    loginAnswer = () => json(400, { non_field_errors: ['Usuário ou senha inválidos.'] })
    const router = await open('/login')
    await screen.findByTestId('login-submit')
    await type('username', 'admin')
    await type('password', 'wrong-password1')
    await submit()
    expect((await screen.findByTestId('form-errors')).textContent).toBe('Usuário ou senha inválidos.')
    expect(posts).toEqual([{ username: 'admin', password: 'wrong-password1' }])
    expect(router.state.location.pathname).toBe('/login')

    loginAnswer = () => json(400, { username: ['Conta desativada.'] })
    await submit()
    await vi.waitFor(() => expect(helpOf('username')).toBe('Conta desativada.'))
    expect(screen.queryByTestId('form-errors')).toBeNull()
    await type('username', 'admin2')
    expect(helpOf('username')).toBeNull()
  })

  it('signs in with the trimmed user name and opens the remembered page', async () => {
    const router = await open('/login?redirect=%2Fprofile')
    await screen.findByTestId('login-submit')
    await type('username', '  admin ')
    await type('password', 'gestor2025')
    // The sign-in page works without the query cache (TanStack Query stays off it, QUALITY.md budget) …
    expect(router.options.context?.queries.current()).toBeUndefined()
    await submit()
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    expect(posts).toEqual([{ username: 'admin', password: 'gestor2025' }])
    // … which signing in creates, with the user in it for the signed-in pages.
    expect(router.options.context?.queries.current()?.getQueryData(['profile'])).toMatchObject({ username: 'admin' })
  })
})
