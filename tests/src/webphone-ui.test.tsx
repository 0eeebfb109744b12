import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { I18nProvider } from '@lingui/react'
import type { AnyActorRef } from 'xstate'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { configureClient } from '../../src/api/client.ts'
import { activateLocale, i18n } from '../../src/app/i18n.ts'
import { createQueryClient } from '../../src/app/queryClient.ts'
import { SiteTheme } from '../../src/app/SiteTheme.tsx'
import { Toaster } from '../../src/components/toast/Toaster.tsx'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { AUDIO_DEVICE_KEYS } from '../../src/features/webphone/audioDevices.ts'
import { callView, webphoneView } from '../../src/features/webphone/useWebphone.ts'
import { WebphoneControl } from '../../src/features/webphone/WebphoneWidget.tsx'
import { AgentStatusChip } from '../../src/features/webphone/AgentStatusChip.tsx'
import { agent, api, open, usePresenceHarness } from './presence-harness.tsx'
import { jsonResponse } from './render-app.tsx'

// The webphone views of the top bar (jsdom), each rendered from a fake webphone snapshot: what the agent sees and
// which events the clicks send to the webphone actor. The top-bar entry itself is checked in the real signed-in app.

type Snapshot = { value: unknown; context: Record<string, unknown> }

/** A stand-in for an actor ref: a snapshot the test changes and the events views send. */
function fakeActor(initial: Snapshot) {
  let snapshot = initial
  const listeners = new Set<() => void>()
  const send = vi.fn()
  const ref = {
    getSnapshot: () => snapshot,
    subscribe(observer: { next?: () => void } | (() => void)) {
      const next = typeof observer === 'function' ? observer : () => observer.next?.()
      listeners.add(next)
      return { unsubscribe: () => listeners.delete(next) }
    },
    send,
  }
  const set = (next: Partial<Snapshot> & { context?: Record<string, unknown> }) => {
    snapshot = { value: next.value ?? snapshot.value, context: { ...snapshot.context, ...next.context } }
    act(() => listeners.forEach((listener) => listener()))
  }
  return { ref: ref as unknown as AnyActorRef, send, set }
}

function call(id: string, context: Record<string, unknown> = {}, value: unknown = 'inuse') {
  const NOW = Date.now()
  return {
    id,
    ref: fakeActor({
      value,
      context: {
        id,
        uid: `uid-${id}`,
        direction: 'incoming',
        phone: '11999990000',
        name: '',
        accepted: value !== 'ringing',
        connected: value !== 'ringing',
        mute: false,
        hold: false,
        startedAt: NOW,
        answeredAt: value === 'ringing' ? null : NOW,
        endedAt: null,
        callType: 20,
        queue: null,
        metadata: null,
        endReason: null,
        ...context,
      },
    }).ref,
  }
}

function webphone(value: unknown = { ready: { registration: 'registered' } }, context: Record<string, unknown> = {}) {
  return fakeActor({
    value,
    context: {
      registration: 'registered',
      calls: [],
      currentCallId: null,
      stage: 'dialpad',
      dnd: false,
      routeId: null,
      busyAt: 1,
      autoAnswer: false,
      autoLogin: false,
      transfer: null,
      error: null,
      ...context,
    },
  })
}

const answers: Record<string, () => unknown> = {}

function show(actor: AnyActorRef | null, serveHere: (() => void) | null = null, team: Partial<ReturnType<typeof agent>['team']> = null) {
  const queryClient = createQueryClient()
  queryClient.setQueryData(['profile'], agent({ team: team as never }))
  render(
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <SiteTheme>
          <WebphoneControl actor={actor} serveHere={serveHere} />
          <Toaster />
        </SiteTheme>
      </I18nProvider>
    </QueryClientProvider>,
  )
  return queryClient
}

/** Opens the panel and waits for its lazy body. */
async function openPanel() {
  fireEvent.click(screen.getByTestId('webphone-button'))
  const panel = await screen.findByTestId('webphone-panel')
  // The first open downloads (here: transforms) the panel's chunk, slow on a busy machine.
  await vi.waitFor(() => expect(panel.querySelector('[data-testid^="webphone-"]')).toBeTruthy(), { timeout: 10_000 })
  return panel
}

/** The calls count on the widget button; null while the badge is hidden. */
function callsBadge(): string | null {
  const badge = screen.getByTestId('webphone-count').querySelector('.MuiBadge-badge')
  return badge && !badge.classList.contains('MuiBadge-invisible') ? badge.textContent : null
}

const sentTypes = (send: ReturnType<typeof vi.fn>) => send.mock.calls.map(([event]) => event)

describe('webphone views', () => {
  beforeAll(async () => {
    await activateLocale('pt-BR')
  })
  beforeEach(() => {
    localStorage.clear()
    toasts.set([])
    for (const key of Object.keys(answers)) delete answers[key]
    answers['/api/v1/pabx/outbound-routes/'] = () => ({ count: 1, results: [{ id: 3, description: 'Rota fixa' }] })
    configureClient({
      fetch: vi.fn(async (url: RequestInfo | URL) => {
        const { pathname } = new URL(String(url), 'http://localhost')
        const answer = answers[pathname]
        return answer ? jsonResponse(200, answer()) : jsonResponse(404, { detail: 'not found' })
      }) as typeof fetch,
    })
  })
  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  describe('placeholders', () => {
    it("without a webphone actor the panel is 'off' and its login button does nothing", async () => {
      show(null)
      expect(screen.getByTestId('webphone-button').dataset.phase).toBe('off')
      const panel = await openPanel()
      expect(within(panel).getByText('No momento o webphone esta desativado.')).toBeTruthy()
      expect((within(panel).getByTestId('webphone-start') as HTMLButtonElement).disabled).toBe(true)
    })

    it("'Logar no webphone' sends START when the webphone is off", async () => {
      const phone = webphone('off')
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByText('Logar no webphone'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'START' }])
    })

    it("a user without an extension is told so and offered no 'Logar no webphone', which could not log in", async () => {
      const phone = webphone('off')
      const queryClient = show(phone.ref)
      act(() => queryClient.setQueryData(['profile'], agent({ voip: null })))
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-no-extension').textContent).toContain('Você não tem um ramal')
      expect(within(panel).queryByText('Logar no webphone')).toBeNull()
    })

    it("another tab serving shows the presence texts and 'Atender aqui' asks for the service", async () => {
      const serveHere = vi.fn()
      show(webphone('otherTab').ref, serveHere)
      const panel = await openPanel()
      expect(within(panel).getByText('Webphone esta em execução em outra aba ou janela.')).toBeTruthy()
      fireEvent.click(within(panel).getByText('Atender aqui'))
      expect(serveHere).toHaveBeenCalledTimes(1)
    })

    it("missing permissions offer 'Recarregar Webphone', which sends RELOAD", async () => {
      const phone = webphone('missingPermissions')
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByText('Recarregar Webphone'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'RELOAD' }])
    })
  })

  describe('registration and logout', () => {
    it('the button and the panel show the registration state and follow it live', async () => {
      const phone = webphone({ ready: { registration: 'connecting' } }, { registration: 'connected' })
      show(phone.ref)
      const button = screen.getByTestId('webphone-button')
      expect(button.textContent).toContain('Conectado')
      phone.set({ value: { ready: { registration: 'registered' } }, context: { registration: 'registered' } })
      expect(button.textContent).toContain('Registrado')
      expect(button.dataset.registration).toBe('registered')
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-registration').textContent).toBe('Registrado')
      expect(within(panel).queryByTestId('webphone-register')).toBeNull()
    })

    it("a failed registration offers 'Registrar' (RELOAD); the logout button sends STOP", async () => {
      const phone = webphone({ ready: { registration: 'registrationFailed' } }, { registration: 'registrationFailed' })
      show(phone.ref)
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-registration').textContent).toBe('Falha no registro')
      fireEvent.click(within(panel).getByTestId('webphone-register'))
      fireEvent.click(within(panel).getByTestId('webphone-logout'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'RELOAD' }, { type: 'STOP' }])
    })

    it('no logout button when the team logs the webphone in by itself', async () => {
      show(webphone(undefined, { autoLogin: true }).ref)
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-ready')).toBeTruthy()
      expect(within(panel).queryByTestId('webphone-logout')).toBeNull()
    })

    it("the machine's error shows in the panel", async () => {
      show(webphone(undefined, { error: { code: 'call', message: 'Falha ao ligar' } }).ref)
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-error').textContent).toBe('Falha ao ligar')
    })
  })

  describe('dialpad', () => {
    it('keys, typing and backspace build the number; the call button dials it through the only route', async () => {
      const phone = webphone()
      const client = show(phone.ref)
      const panel = await openPanel()
      await vi.waitFor(() => expect(client.getQueryData(['webphone', 'outbound-routes'])).toBeTruthy())
      expect(within(panel).queryByTestId('webphone-route')).toBeNull()
      for (const key of ['1', '0', '0', '9']) fireEvent.click(within(panel).getByTestId(`webphone-key-${key}`))
      const box = within(panel).getByLabelText('Número') as HTMLInputElement
      expect(box.value).toBe('1009')
      fireEvent.click(within(panel).getByTestId('webphone-backspace'))
      fireEvent.change(box, { target: { value: '1001abc' } })
      expect(box.value).toBe('1001')
      fireEvent.click(within(panel).getByTestId('webphone-dial'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'DIAL', number: '1001', routeId: 3 }])
      expect(box.value).toBe('')
      expect(DIALPAD_ORDER(panel)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'])
    })

    it("with several routes dialling needs one: 'Selecione uma rota de saída'; choosing sends SET_ROUTE", async () => {
      answers['/api/v1/pabx/outbound-routes/'] = () => ({
        count: 2,
        results: [
          { id: 3, description: 'Rota fixa' },
          { id: 4, description: 'Rota móvel' },
        ],
      })
      const phone = webphone()
      show(phone.ref)
      const panel = await openPanel()
      const route = await within(panel).findByTestId('webphone-route')
      fireEvent.change(within(panel).getByLabelText('Número'), { target: { value: '11988887777' } })
      fireEvent.click(within(panel).getByTestId('webphone-dial'))
      expect(within(panel).getByTestId('webphone-route-error').textContent).toBe('Selecione uma rota de saída')
      expect(phone.send).not.toHaveBeenCalled()
      fireEvent.click(within(route).getByRole('combobox'))
      fireEvent.click(await screen.findByRole('option', { name: 'Rota móvel' }))
      expect(sentTypes(phone.send)).toEqual([{ type: 'SET_ROUTE', routeId: 4 }])
      phone.set({ context: { routeId: 4 } })
      fireEvent.click(within(panel).getByTestId('webphone-dial'))
      expect(sentTypes(phone.send).at(-1)).toEqual({ type: 'DIAL', number: '11988887777', routeId: 4 })
    })

    it('during an accepted call the keys and the typed tones are sent as DTMF', async () => {
      const phone = webphone(undefined, { calls: [call('c1')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByTestId('webphone-key-5'))
      fireEvent.click(within(panel).getByTestId('webphone-key-#'))
      fireEvent.keyDown(within(panel).getByLabelText('Número'), { key: '*' })
      fireEvent.keyDown(within(panel).getByLabelText('Número'), { key: 'a' })
      expect(sentTypes(phone.send)).toEqual([
        { type: 'DTMF', callId: 'c1', tone: '5' },
        { type: 'DTMF', callId: 'c1', tone: '#' },
        { type: 'DTMF', callId: 'c1', tone: '*' },
      ])
    })
  })

  describe('calls', () => {
    it('lists the calls (phone, name, status, HH:MM:SS) in at most 160 px; a click selects one', async () => {
      const NOW = Date.now()
      const calls = [
        call('c1', { phone: '1002', name: 'Bruno Agente', answeredAt: NOW - 3_725_000 }),
        call('c2', { phone: '11955554444', name: '', startedAt: NOW - 30_000, answeredAt: NOW - 20_000, endedAt: NOW - 5_000 }, 'ended'),
        call('c3', { phone: '11933332222', direction: 'outgoing', hold: true }, { active: 'onhold' }),
      ]
      const phone = webphone(undefined, { calls, currentCallId: 'c1' })
      show(phone.ref)
      expect(callsBadge()).toBe('2')
      const panel = await openPanel()
      const list = within(panel).getByTestId('webphone-calls')
      expect(getComputedStyle(list).maxHeight).toBe('160px')
      const rows = within(list).getAllByTestId('webphone-call')
      expect(rows.map((row) => within(row).getByTestId('webphone-call-phone').textContent)).toEqual(['1002', '11955554444', '11933332222'])
      expect(within(rows[0]!).getByTestId('webphone-call-name').textContent).toBe('Bruno Agente')
      expect(rows.map((row) => within(row).getByTestId('webphone-call-status').textContent)).toEqual(['Em ligação', 'Encerrada', 'Em espera'])
      expect(within(rows[0]!).getByTestId('webphone-call-timer').textContent).toMatch(/^01:02:0[5-8]$/)
      expect(within(rows[1]!).getByTestId('webphone-call-timer').textContent).toBe('00:00:15')
      fireEvent.click(rows[2]!)
      expect(sentTypes(phone.send)).toEqual([{ type: 'SELECT_CALL', callId: 'c3' }])
    })

    it('the current call controls send hang-up, hold, mute, transfer and conference', async () => {
      const phone = webphone(undefined, { calls: [call('c1'), call('c2')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      for (const id of ['hold', 'mute', 'transfer', 'conference', 'hangup']) fireEvent.click(within(panel).getByTestId(`webphone-${id}`))
      expect(sentTypes(phone.send)).toEqual([
        { type: 'HOLD', callId: 'c1' },
        { type: 'MUTE', callId: 'c1' },
        { type: 'SET_STAGE', stage: 'transfer' },
        { type: 'SET_STAGE', stage: 'conference' },
        { type: 'HANGUP', callId: 'c1' },
      ])
    })

    it('a held and muted call offers to resume and unmute; one call alone cannot start a conference', async () => {
      const phone = webphone(undefined, { calls: [call('c1', { hold: true, mute: true }, 'onhold')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      expect((within(panel).getByTestId('webphone-conference') as HTMLButtonElement).disabled).toBe(true)
      fireEvent.click(within(panel).getByTestId('webphone-unhold'))
      fireEvent.click(within(panel).getByTestId('webphone-unmute'))
      expect(sentTypes(phone.send)).toEqual([
        { type: 'UNHOLD', callId: 'c1' },
        { type: 'UNMUTE', callId: 'c1' },
      ])
    })

    it('the panel is 1000 px wide with the form area when the current call has a form, 360 otherwise', async () => {
      const phone = webphone(undefined, { calls: [call('c1'), call('c2', { metadata: { form: 12 } })], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      expect(panel.dataset.width).toBe('360')
      expect(within(panel).queryByTestId('webphone-form-slot')).toBeNull()
      phone.set({ context: { currentCallId: 'c2' } })
      expect(panel.dataset.width).toBe('1000')
      expect(within(panel).getByTestId('webphone-form-slot')).toBeTruthy()
    })
  })

  describe('the form beside the call', () => {
    const metadata = {
      form: 12,
      form_definition: { id: 12, description: 'Atendimento', fields: [{ name: 'nome', label: 'Nome do cliente', type: 'text', required: true }] },
      form_values: null,
      classification: null,
      classification_required: true,
      data: { queue: 4, call_type: 20 },
    }

    it('draws the queue form with the renderer; an invalid form is not saved, a valid one is sent once', async () => {
      const posted: { url: string; body: unknown }[] = []
      configureClient({
        fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
          const { pathname, search } = new URL(String(url), 'http://localhost')
          if (init?.method === 'POST') {
            posted.push({ url: `${pathname}${search}`, body: JSON.parse(String(init.body ?? 'null')) })
            return jsonResponse(200, { success: true, detail: 'ok' })
          }
          if (pathname === '/api/v1/service/classifications/') return jsonResponse(200, { count: 1, results: [{ id: 7, description: 'Dúvida' }] })
          return jsonResponse(404, { detail: 'not found' })
        }) as typeof fetch,
      })
      const phone = webphone(undefined, { calls: [call('f1', { uid: 'uid-f1', metadata })], currentCallId: 'f1' })
      show(phone.ref)
      const panel = await openPanel()
      await vi.waitFor(() => expect(panel.dataset.width).toBe('1000'))
      const form = await within(panel).findByTestId('webphone-call-form')
      expect(within(form).getByText('Atendimento')).toBeTruthy()
      // Half filled: not valid, the machine hears it (a transfer is blocked), nothing is sent.
      await vi.waitFor(() => expect(sentTypes(phone.send)).toContainEqual({ type: 'CALL_FORM', callId: 'f1', uid: 'uid-f1', sent: false, valid: false }))
      fireEvent.click(within(form).getByTestId('webphone-form-save'))
      expect(posted).toEqual([])
      fireEvent.change(within(form).getByLabelText(/Nome do cliente/), { target: { value: 'Ana' } })
      await vi.waitFor(() => expect(sentTypes(phone.send)).toContainEqual({ type: 'CALL_FORM', callId: 'f1', uid: 'uid-f1', sent: false, valid: true }))
      fireEvent.click(within(form).getByTestId('webphone-form-save'))
      await vi.waitFor(() => expect(posted).toEqual([{ url: '/api/v1/service/action/tab-form/uid-f1/?type=form&form_id=12', body: { nome: 'Ana' } }]))
      await within(form).findByTestId('webphone-form-sent')
      // The classification of the call's queue is required (the team's kinds): the renderer's chain.
      const classification = within(panel).getByTestId('webphone-classification')
      fireEvent.click(within(classification).getByTestId('webphone-classification-save'))
      expect(posted).toHaveLength(1)
    })
  })

  describe('the status at a glance', () => {
    it('names where the agent stands with the time in it, and follows the status', () => {
      const status = fakeActor({ value: 'not_inuse', context: { status: 'not_inuse' } })
      render(
        <I18nProvider i18n={i18n}>
          <AgentStatusChip system={{ get: () => status.ref } as never} />
        </I18nProvider>,
      )
      const chip = screen.getByTestId('agent-status')
      expect(chip.textContent).toBe('Disponível · 00:00:00')
      status.set({ context: { status: 'after_service' } })
      expect(screen.getByTestId('agent-status').textContent).toBe('Pós-atendimento · 00:00:00')
      status.set({ context: { status: 'paused' } })
      expect(screen.getByTestId('agent-status').dataset.status).toBe('paused')
      expect(screen.getByTestId('agent-status').textContent).toContain('Em pausa')
    })
  })

  describe('ringing dialog', () => {
    it("shows the first queued incoming call's phone and name; answer and hang-up reach that call", async () => {
      const calls = [
        call('c1', { phone: '1003' }, 'inuse'),
        call('c2', { phone: '11977776666', name: 'Cliente Silva' }, 'ringing'),
        call('c3', { phone: '11911112222', name: 'Outro' }, 'ringing'),
      ]
      const phone = webphone(undefined, { calls, currentCallId: 'c1' })
      show(phone.ref)
      const dialog = await screen.findByTestId('webphone-ringing')
      expect(within(dialog).getByTestId('webphone-ringing-phone').textContent).toBe('11977776666')
      expect(within(dialog).getByTestId('webphone-ringing-name').textContent).toBe('Cliente Silva')
      fireEvent.click(within(dialog).getByText('Atender'))
      fireEvent.click(within(dialog).getByText('Desligar'))
      expect(sentTypes(phone.send)).toEqual([
        { type: 'ANSWER', callId: 'c2' },
        { type: 'HANGUP', callId: 'c2' },
      ])
    })

    it("'Atender' takes the focus; Alt+A answers and Alt+D hangs up", async () => {
      const phone = webphone(undefined, { calls: [call('c2', { phone: '11977776666' }, 'ringing')], currentCallId: 'c2' })
      show(phone.ref)
      const dialog = await screen.findByTestId('webphone-ringing')
      const answer = within(dialog).getByTestId('webphone-ringing-answer')
      await vi.waitFor(() => expect(document.activeElement).toBe(answer))
      expect(answer.getAttribute('aria-keyshortcuts')).toBe('Alt+A')
      fireEvent.keyDown(answer, { key: 'a', altKey: true })
      fireEvent.keyDown(answer, { key: 'd', altKey: true })
      fireEvent.keyDown(answer, { key: 'a' })
      expect(sentTypes(phone.send)).toEqual([
        { type: 'ANSWER', callId: 'c2' },
        { type: 'HANGUP', callId: 'c2' },
      ])
    })

    it('during a call the button shows its number and timer, not only the registration', () => {
      const phone = webphone(undefined, { calls: [call('c1', { phone: '11988887777', answeredAt: Date.now() - 65_000 }, 'inuse')], currentCallId: 'c1' })
      show(phone.ref)
      const label = within(screen.getByTestId('webphone-button')).getByTestId('webphone-call-label')
      expect(label.textContent).toContain('11988887777')
      expect(within(label).getByTestId('webphone-call-timer').textContent).toMatch(/^00:01:0[56]$/)
    })

    it('a supervisor coaching shows a small notice beside the button (whisper, then barge), no call and no ringing', () => {
      const phone = webphone(undefined, { calls: [call('c1')], currentCallId: 'c1' })
      show(phone.ref)
      expect(screen.queryByTestId('webphone-coaching')).toBeNull()
      phone.set({ context: { coaching: { mode: 'whisper', supervisor: 'Sofia' } } })
      expect(screen.getByTestId('webphone-coaching').textContent).toBe('Supervisor Sofia está orientando você')
      phone.set({ context: { coaching: { mode: 'barge', supervisor: 'Sofia' } } })
      expect(screen.getByTestId('webphone-coaching').textContent).toBe('Supervisor Sofia entrou na chamada')
      expect(callsBadge()).toBe('1')
      expect(screen.queryByTestId('webphone-ringing')).toBeNull()
      phone.set({ context: { coaching: null } })
      expect(screen.queryByTestId('webphone-coaching')).toBeNull()
    })

    it('no dialog for outgoing calls or with auto-answer', () => {
      show(webphone(undefined, { calls: [call('c1', { direction: 'outgoing' }, 'ringing')] }).ref)
      expect(screen.queryByTestId('webphone-ringing')).toBeNull()
      cleanup()
      show(webphone(undefined, { autoAnswer: true, calls: [call('c1', {}, 'ringing')] }).ref)
      expect(screen.queryByTestId('webphone-ringing')).toBeNull()
    })
  })

  describe('transfer and conference', () => {
    it('the transfer stage needs a destination, then sends the chosen type', async () => {
      const phone = webphone(undefined, { stage: 'transfer', calls: [call('c1')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByTestId('webphone-transfer-send'))
      expect(within(panel).getByText('Informe o destino da transferência')).toBeTruthy()
      expect(phone.send).not.toHaveBeenCalled()
      fireEvent.click(within(within(panel).getByTestId('webphone-transfer-attend')).getByRole('radio'))
      fireEvent.change(within(panel).getByLabelText('Destino'), { target: { value: ' 1002 ' } })
      fireEvent.click(within(panel).getByTestId('webphone-transfer-send'))
      fireEvent.click(within(panel).getByTestId('webphone-transfer-back'))
      expect(sentTypes(phone.send)).toEqual([
        { type: 'TRANSFER', transferType: 'attend', destination: '1002', label: '1002', app: 'number', appdata: '1002' },
        { type: 'SET_STAGE', stage: 'dialpad' },
      ])
    })

    it("transfers to a queue picked from the extension's permission list for transfers", async () => {
      const asked: string[] = []
      const endpoint = (agent().voip as { endpoint: string }).endpoint
      answers[`/api/v1/pabx/action/endpoint/permission-apps/${endpoint}/queue/transfer/`] = () => {
        asked.push('queue')
        return {
          count: 2,
          results: [
            { id: 3, description: 'Suporte', app: 'queue', appdata: '3' },
            { id: 7, description: 'Vendas', app: 'queue', appdata: '7' },
          ],
        }
      }
      const phone = webphone(undefined, { stage: 'transfer', calls: [call('c1')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByRole('combobox', { name: 'Transferir para' }))
      fireEvent.click(await screen.findByRole('option', { name: 'Fila' }))
      await vi.waitFor(() => expect(asked).toEqual(['queue']))
      // Nothing picked yet: the destination is missing.
      fireEvent.click(within(panel).getByTestId('webphone-transfer-send'))
      expect(within(panel).getByText('Informe o destino da transferência')).toBeTruthy()
      await vi.waitFor(() => expect((within(panel).getByRole('combobox', { name: 'Destino' }) as HTMLButtonElement).disabled).toBe(false))
      fireEvent.click(within(panel).getByRole('combobox', { name: 'Destino' }))
      fireEvent.click(await screen.findByRole('option', { name: 'Vendas' }))
      fireEvent.click(within(panel).getByTestId('webphone-transfer-send'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'TRANSFER', transferType: 'blind', destination: 'queue.7', label: 'Vendas', app: 'queue', appdata: '7' }])
    })

    it('offers every destination app — IVRs, voicemail, NPS and announcements too — and sends the <app>.<id> address', async () => {
      const endpoint = (agent().voip as { endpoint: string }).endpoint
      answers[`/api/v1/pabx/action/endpoint/permission-apps/${endpoint}/ivrbasic/transfer/`] = () => ({
        count: 1,
        results: [{ id: 5, description: 'URA principal', app: 'ivrbasic', appdata: '5' }],
      })
      const phone = webphone(undefined, { stage: 'transfer', calls: [call('c1')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByRole('combobox', { name: 'Transferir para' }))
      const offered = (await screen.findAllByRole('option')).map((option) => option.textContent)
      expect(offered).toEqual(['Número', 'URA', 'Fila', 'Pesquisa NPS', 'Anúncio', 'Ramal', 'Grupo de chamada', 'Correio de voz'])
      fireEvent.click(screen.getByRole('option', { name: 'URA' }))
      await vi.waitFor(() => expect((within(panel).getByRole('combobox', { name: 'Destino' }) as HTMLButtonElement).disabled).toBe(false))
      fireEvent.click(within(panel).getByRole('combobox', { name: 'Destino' }))
      fireEvent.click(await screen.findByRole('option', { name: 'URA principal' }))
      fireEvent.click(within(panel).getByTestId('webphone-transfer-send'))
      expect(sentTypes(phone.send)).toEqual([
        { type: 'TRANSFER', transferType: 'blind', destination: 'ivrbasic.5', label: 'URA principal', app: 'ivrbasic', appdata: '5' },
      ])
    })

    it("an attended transfer offers 'Transferir' only once the destination answered; cancel sends TRANSFER_CANCEL", async () => {
      const NOW = Date.now()
      const destination = fakeActor({ value: 'ringing', context: { id: 'c2', phone: '1002', direction: 'outgoing', accepted: false, startedAt: NOW } })
      const phone = webphone(undefined, {
        stage: 'transfer-attend',
        calls: [call('c1'), { id: 'c2', ref: destination.ref }],
        currentCallId: 'c2',
        transfer: { type: 'attend', originCallId: 'c1', destinationCallId: 'c2', destination: '1002' },
      })
      show(phone.ref)
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-transfer-progress').textContent).toContain('Transferência Assistida para 1002')
      expect(within(panel).queryByTestId('webphone-transfer-confirm')).toBeNull()
      expect(within(panel).getByTestId('webphone-transfer-waiting')).toBeTruthy()
      destination.set({ value: 'inuse', context: { accepted: true, answeredAt: NOW } })
      fireEvent.click(within(panel).getByTestId('webphone-transfer-confirm'))
      fireEvent.click(within(panel).getByTestId('webphone-transfer-cancel'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'TRANSFER_CONFIRM' }, { type: 'TRANSFER_CANCEL' }])
    })

    it("'Transferindo a chamada...' while the transfer goes", async () => {
      show(webphone(undefined, { stage: 'transferring' }).ref)
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-transferring').textContent).toBe('Transferindo a chamada...')
    })

    it('the conference joins the calls left checked (two at least)', async () => {
      const phone = webphone(undefined, { stage: 'conference', calls: [call('c1'), call('c2'), call('c3'), call('c4', {}, 'ended')], currentCallId: 'c1' })
      show(phone.ref)
      const panel = await openPanel()
      const boxes = within(panel).getAllByTestId('webphone-conference-call')
      expect(boxes).toHaveLength(3)
      fireEvent.click(within(boxes[1]!).getByRole('checkbox'))
      fireEvent.click(within(panel).getByTestId('webphone-conference-start'))
      fireEvent.click(within(boxes[0]!).getByRole('checkbox'))
      expect((within(panel).getByTestId('webphone-conference-start') as HTMLButtonElement).disabled).toBe(true)
      expect(sentTypes(phone.send)).toEqual([{ type: 'CONFERENCE', callIds: ['c1', 'c3'] }])
    })
  })

  describe('phonebook and audio settings', () => {
    it('the phonebook lists the extensions and dials the chosen one', async () => {
      answers['/api/v1/service/apps/pabx/endpoints/'] = () => ({
        count: 2,
        results: [
          { id: 1, description: 'Ramal 1001 (Ana Agente)' },
          { id: 2, description: 'Ramal 1002 (Bruno Agente)' },
        ],
      })
      const phone = webphone()
      show(phone.ref)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByTestId('webphone-stage-phonebook'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'SET_STAGE', stage: 'phonebook' }])
      phone.set({ context: { stage: 'phonebook' } })
      expect(await within(panel).findAllByTestId('webphone-contact')).toHaveLength(2)
      fireEvent.change(within(panel).getByLabelText('Buscar contato'), { target: { value: 'bruno' } })
      const [bruno] = within(panel).getAllByTestId('webphone-contact')
      expect(within(panel).getAllByTestId('webphone-contact')).toHaveLength(1)
      fireEvent.click(bruno!)
      expect(sentTypes(phone.send).slice(1)).toEqual([
        { type: 'DIAL', number: '1002' },
        { type: 'SET_STAGE', stage: 'dialpad' },
      ])
    })

    it('audio settings keep the chosen devices in local storage and tell the webphone', async () => {
      vi.stubGlobal('navigator', {
        ...navigator,
        mediaDevices: {
          enumerateDevices: async () => [
            { kind: 'audioinput', deviceId: 'mic-1', label: 'Microfone USB' },
            { kind: 'audiooutput', deviceId: 'spk-1', label: 'Alto-falantes' },
            { kind: 'audiooutput', deviceId: 'spk-2', label: 'Fone de ouvido' },
          ],
        },
      })
      const phone = webphone(undefined, { stage: 'settings' })
      show(phone.ref)
      const panel = await openPanel()
      const output = await within(panel).findByTestId('webphone-output')
      fireEvent.click(within(output).getByRole('combobox'))
      fireEvent.click(await screen.findByRole('option', { name: 'Fone de ouvido' }))
      fireEvent.click(within(within(panel).getByTestId('webphone-input')).getByRole('combobox'))
      fireEvent.click(await screen.findByRole('option', { name: 'Microfone USB' }))
      fireEvent.click(within(panel).getByTestId('webphone-settings-save'))
      expect(localStorage.getItem(AUDIO_DEVICE_KEYS.output)).toBe('spk-2')
      expect(localStorage.getItem(AUDIO_DEVICE_KEYS.input)).toBe('mic-1')
      expect(sentTypes(phone.send)).toEqual([
        { type: 'SET_AUDIO_DEVICES', input: 'mic-1', output: 'spk-2' },
        { type: 'SET_STAGE', stage: 'dialpad' },
      ])
    })

    it('without audio devices saving refuses with the spec message', async () => {
      vi.stubGlobal('navigator', { ...navigator, mediaDevices: { enumerateDevices: async () => [] } })
      const phone = webphone(undefined, { stage: 'settings' })
      show(phone.ref)
      const panel = await openPanel()
      const message = 'Não foram encontrados dispositivos de áudio, altere as configurações do seu navegador'
      expect((await within(panel).findByTestId('webphone-no-devices')).textContent).toBe(message)
      fireEvent.click(within(panel).getByTestId('webphone-settings-save'))
      expect(toasts.get().map((toast) => toast.message)).toEqual([message])
      expect(phone.send).not.toHaveBeenCalled()
      expect([localStorage.getItem(AUDIO_DEVICE_KEYS.input), localStorage.getItem(AUDIO_DEVICE_KEYS.output)]).toEqual([null, null])
    })
  })

  describe('after-service', () => {
    // As the machine holds it: the ended call is already gone from the list; the after-service keeps its number.
    const running = (extra: Record<string, unknown> = {}) => ({
      callId: 'c1',
      uid: 'u1',
      phone: '11944443333',
      duration: 40,
      startedAt: Date.now() - 10_000,
      endsAt: Date.now() + 30_000,
      mode: 'spec',
      sessionId: 5,
      classified: false,
      ...extra,
    })

    it('the button turns amber with the phone and a countdown though the call is gone; the panel shows the same countdown', async () => {
      show(webphone(undefined, { stage: 'after-service', calls: [], currentCallId: null, afterService: running() }).ref, null, {
        duration_of_after_service: 40,
      } as never)
      const button = screen.getByTestId('webphone-button')
      expect(button.className).toMatch(/colorWarning/)
      const label = within(button).getByTestId('webphone-after-service')
      expect(label.textContent).toContain('Pós-atendimento 11944443333')
      expect(within(label).getByTestId('webphone-after-service-timer').textContent).toMatch(/^00:00:(29|30)$/)
      expect(callsBadge()).toBeNull()
      const panel = await openPanel()
      expect(within(panel).getByTestId('webphone-after-service-countdown').textContent).toMatch(/^00:00:(2[89]|30)$/)
    })

    it('stays amber while the agent looks at another stage of the panel', () => {
      show(webphone(undefined, { stage: 'dialpad', calls: [], afterService: running() }).ref)
      expect(screen.getByTestId('webphone-button').className).toMatch(/colorWarning/)
      expect(screen.getByTestId('webphone-after-service-timer')).toBeTruthy()
    })

    it("'Encerrar pós-atendimento' ends the wrap-up before its time; a mandatory mode waits for the classification", async () => {
      const phone = webphone(undefined, { stage: 'after-service', calls: [], afterService: running() })
      show(phone.ref, null, { duration_of_after_service: 40 } as never)
      const panel = await openPanel()
      fireEvent.click(within(panel).getByTestId('webphone-after-service-end'))
      expect(sentTypes(phone.send)).toEqual([{ type: 'AFTER_SERVICE_END' }])
    })

    it('a mandatory mode disables the end until the call is classified', async () => {
      const phone = webphone(undefined, { stage: 'after-service', calls: [], afterService: running({ mode: 'mandatory', endsAt: null }) })
      show(phone.ref)
      const panel = await openPanel()
      expect((within(panel).getByTestId('webphone-after-service-end') as HTMLButtonElement).disabled).toBe(true)
      expect(within(panel).getByTestId('webphone-after-service-needs-classification')).toBeTruthy()
      expect(within(panel).queryByTestId('webphone-after-service-countdown')).toBeNull()
    })
  })
})

/** The dialpad keys in screen order. */
function DIALPAD_ORDER(panel: HTMLElement): string[] {
  return within(panel)
    .getAllByTestId(/^webphone-key-/)
    .map((key) => key.textContent ?? '')
}

describe('snapshot mapping', () => {
  it('reads nested state values and falls back to off for an unknown shape', () => {
    expect(webphoneView({ value: { ready: { registration: 'registered' } }, context: { registration: 'registered', stage: 'conference' } })).toMatchObject({
      phase: 'ready',
      registration: 'registered',
      stage: 'conference',
    })
    expect(webphoneView(undefined).phase).toBe('off')
    expect(webphoneView({ value: 'weird', context: { stage: 'nope' } })).toMatchObject({ phase: 'off', stage: 'dialpad' })
    expect(callView('x', { value: { active: { media: 'onmute' } }, context: { phone: '1', mute: true } }).status).toBe('onmute')
    expect(callView('x', { value: 'whatever', context: { endedAt: 5 } }).status).toBe('ended')
    expect(callView('x', { value: 'inuse', context: { metadata: { form_id: 3 } } }).hasForm).toBe(true)
    // A trunk caller whose display name is its number: the name is not shown twice.
    expect(callView('x', { value: 'ringing', context: { phone: '5511987654321', name: '5511987654321' } }).name).toBe('')
    expect(callView('x', { value: 'ringing', context: { phone: '10001', name: 'Ana Agente' } }).name).toBe('Ana Agente')
  })
})

describe('top-bar entry', () => {
  usePresenceHarness()

  it('shows the webphone button to users holding sites.view_softphone only', async () => {
    await open()
    expect(screen.getByTestId('webphone-button')).toBeTruthy()
    cleanup()
    api.signedIn = agent({ roles: [PERMISSIONS.viewDashboard, PERMISSIONS.viewTakeBreak] })
    await open()
    expect(screen.queryByTestId('webphone-button')).toBeNull()
    expect(screen.getByTestId('pause-button')).toBeTruthy()
  })
})
