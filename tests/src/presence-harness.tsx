import { afterEach, beforeEach, vi } from 'vitest'
import { act, cleanup, screen } from '@testing-library/react'
import type { Profile } from '../../contract/api/profile.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { configureClient } from '../../src/api/client.ts'
import { Toaster } from '../../src/components/toast/Toaster.tsx'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { FakeSocket, fakeBrowserChannels } from './presence-fakes.ts'
import { jsonResponse, renderApp } from './render-app.tsx'

// The signed-in app in jsdom for the presence views: the real route tree, layout and agent system, on a fake
// WebSocket and BroadcastChannel, with fetch answered here (`answers` by path, per test).

export const AGENT = [PERMISSIONS.viewDashboard, PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat, PERMISSIONS.viewTakeBreak]
const pauseType = (id: number, description: string, maximum_duration: number) => ({
  id,
  description,
  maximum_duration,
  color: '#795548',
  productive: false,
  enable_webphone: true,
  allow_incoming_call: false,
  allow_outgoing_call: false,
  enable_webchat: true,
  allow_incoming_chat: false,
  allow_outgoing_chat: false,
  lock_screen: false,
})
export const PAUSE_TYPES = [pauseType(3, 'Café', 600), pauseType(4, 'Almoço', 3600)]

export function agent(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 7,
    username: 'agent1',
    first_name: 'Ana',
    last_name: 'Agente',
    email: '',
    avatar: null,
    avatar_message: '',
    roles: AGENT,
    last_login: new Date(Date.now() - 86_400_000).toISOString(),
    site: { id: 1, domain: 'localhost', name: 'Demo', settings: {} as Profile['site']['settings'] },
    voip: { websocket: 'ws://localhost/ws/sip', endpoint: '1001', realm: 'localhost', password: 'x', device_state_busy_at: 1 },
    team: null,
    pauses: PAUSE_TYPES,
    queue_classifications: [],
    dialer_classifications: [],
    userextra: { login_channel_telephony: false, login_channel_chat: false, password_expire_date: null, password_notification_start: null },
    ...overrides,
  }
}

export type Call = { method: string; path: string; body: unknown }
/** What the test sets up: the signed-in user and answers by path ('check' for the pause check). */
export const api = { calls: [] as Call[], signedIn: agent(), answers: {} as Record<string, (call: Call) => unknown>, play: vi.fn() }

const json = jsonResponse

/** Opens a page of the app; unless told otherwise, waits for the signed-in layout and opens its service socket. */
export async function open(path = '/', { signedIn = true } = {}) {
  const router = await renderApp(path, <Toaster />)
  if (!signedIn) return { router, socket: null as unknown as FakeSocket }
  await screen.findByTestId('lock-screen') // the signed-in layout is up
  const socket = await vi.waitFor(() => FakeSocket.last())
  act(() => socket.open())
  return { router, socket }
}

export const sent = (path: string) => api.calls.filter((call) => call.path === path)

/** Installs the fakes around every test of the calling file. */
export function usePresenceHarness() {
  beforeEach(() => {
    FakeSocket.all = []
    api.calls = []
    api.answers = {}
    api.signedIn = agent()
    toasts.set([])
    localStorage.clear()
    document.cookie = 'i18n_redirected=pt-br; path=/'
    vi.stubGlobal('WebSocket', FakeSocket)
    vi.stubGlobal('BroadcastChannel', fakeBrowserChannels().FakeChannel)
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission: vi.fn(async () => 'granted') })
    api.play = vi.fn(async () => {})
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(api.play as never)
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {})
    configureClient({
      fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
        const { pathname } = new URL(String(url), 'http://localhost')
        const call = { method: init?.method ?? 'GET', path: pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined }
        api.calls.push(call)
        if (pathname === '/api/v1/business/profile/') return json(200, api.signedIn)
        if (pathname === '/api/v1/agent/pause/check/') return json(200, api.answers.check?.(call) ?? null)
        const handler = api.answers[pathname]
        if (handler) return json(200, handler(call))
        return json(200, { success: true })
      }) as typeof fetch,
    })
  })
  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })
}
