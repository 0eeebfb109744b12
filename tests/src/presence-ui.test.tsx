import { describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { NOTIFICATION_ASKED_KEY } from '../../src/features/presence/mediaPermissions.ts'
import { answer, FakeSocket, pauseRecord } from './presence-fakes.ts'
import { agent, api, open, sent, usePresenceHarness } from './presence-harness.tsx'

// The presence views in the real signed-in layout (jsdom): the agent system runs on a fake WebSocket and
// BroadcastChannel, the API client on a fake fetch. What an agent sees and what leaves the browser.

usePresenceHarness()

describe('pause widget', () => {
  it("a supervisor's pause shows the notice and a per-second timer in the top bar", async () => {
    const { socket } = await open()
    act(() => socket.receive({ action: 'startPause', pause: pauseRecord({ started_by: 99, seconds: 125, description: 'Treinamento', pause_id: 9 }) }))
    const button = await screen.findByTestId('pause-button')
    expect(within(button).getByTestId('pause-timer').textContent).toBe('00:02:05')
    await vi.waitFor(() => expect(within(button).getByTestId('pause-timer').textContent).toBe('00:02:06'))
    expect(toasts.get().map((t) => t.message)).toContain('Você foi pausado por um supervisor')
    fireEvent.click(button)
    expect(await screen.findByTestId('paused-by-supervisor')).toBeTruthy()
    expect(screen.getByTestId('pause-name').textContent).toBe('Treinamento')
  })

  it("'Entrar' starts the pause chosen in the select of the profile's pause types", async () => {
    api.answers['/api/v1/agent/pause/start/'] = () => answer(true, pauseRecord({ id: 50, pause_id: 4, description: 'Almoço' }))
    await open()
    fireEvent.click(await screen.findByTestId('pause-button'))
    const start = await screen.findByTestId('pause-start')
    expect((start as HTMLButtonElement).disabled).toBe(true)
    // Joy's Select is its own chunk, loaded when the menu first opens.
    const select = within(await screen.findByTestId('pause-select')).getByRole('combobox')
    fireEvent.click(select)
    fireEvent.click(await screen.findByRole('option', { name: 'Almoço' }))
    fireEvent.click(start)
    await vi.waitFor(() => expect(sent('/api/v1/agent/pause/start/')).toEqual([{ method: 'POST', path: '/api/v1/agent/pause/start/', body: { pause_id: 4 } }]))
    const timer = await screen.findByTestId('pause-timer')
    expect(timer.textContent).toBe('00:00:00')
    expect(FakeSocket.last().sent).toContainEqual({ action: 'start_pause', id: 50 })
  })

  it("ending a pause is 'Encerrar pausa', not the sign-out's 'Sair' or its icon", async () => {
    api.answers.check = () => pauseRecord({ maximum_duration: 600, seconds: 5 })
    await open()
    fireEvent.click(await screen.findByTestId('pause-button'))
    const stop = await screen.findByTestId('pause-stop')
    expect(stop.textContent).toBe('Encerrar pausa')
    expect(within(screen.getByTestId('pause-menu')).queryByRole('button', { name: 'Sair' })).toBeNull()
    const logout = document.querySelector('[data-menu="logout"] svg path')?.getAttribute('d')
    expect(logout).toBeTruthy()
    expect(stop.querySelector('svg path')?.getAttribute('d')).not.toBe(logout)
  })

  it("an exceeded 'Encerrar pausa' opens 'Pausa excedente' and sends the justification as reason", async () => {
    api.answers.check = () => pauseRecord({ maximum_duration: 60, seconds: 75, exceeded: true })
    let stops = 0
    api.answers['/api/v1/agent/pause/stop/'] = () => (++stops === 1 ? answer(false, pauseRecord(), 5, 'Justifique a pausa excedida') : answer(true, null))
    await open()
    fireEvent.click(await screen.findByTestId('pause-button'))
    fireEvent.click(await screen.findByTestId('pause-stop'))
    const dialog = await screen.findByTestId('pause-exceeded')
    expect(within(dialog).getByText('Pausa excedente')).toBeTruthy()
    const confirm = within(dialog).getByTestId('pause-justify') as HTMLButtonElement
    expect(confirm.disabled).toBe(true)
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Atendimento a um cliente no balcão' } })
    fireEvent.click(confirm)
    await vi.waitFor(() => expect(screen.queryByTestId('pause-exceeded')).toBeNull())
    expect(sent('/api/v1/agent/pause/stop/').map((call) => call.body)).toEqual([{}, { reason: 'Atendimento a um cliente no balcão' }])
    expect(screen.queryByTestId('pause-timer')).toBeNull()
  })
})

describe('screen lock', () => {
  it("'Bloquear tela' locks; a wrong password shows its error and keeps the lock; the right one unlocks", async () => {
    api.answers['/api/v1/business/profile/validate-password/'] = (call) => ({ success: (call.body as { password: string }).password === 'ramal1001' })
    await open()
    fireEvent.click(screen.getByTestId('lock-screen'))
    const dialog = await screen.findByTestId('screen-lock')
    expect(within(dialog).getByText('Tela bloqueada')).toBeTruthy()
    const password = dialog.querySelector('input[name="password"]') as HTMLInputElement
    fireEvent.change(password, { target: { value: 'errada' } })
    fireEvent.click(within(dialog).getByTestId('screen-lock-submit'))
    expect(await within(dialog).findByText('Senha incorreta')).toBeTruthy()
    expect(screen.getByTestId('screen-lock')).toBeTruthy()

    fireEvent.change(password, { target: { value: 'ramal1001' } })
    fireEvent.click(within(dialog).getByTestId('screen-lock-submit'))
    await vi.waitFor(() => expect(screen.queryByTestId('screen-lock')).toBeNull())
    expect(sent('/api/v1/business/profile/validate-password/').map((call) => call.body)).toEqual([{ password: 'errada' }, { password: 'ramal1001' }])
  })

  it("a pause with lock_screen locks with the title 'Pausado' and the pause's start time", async () => {
    const { socket } = await open()
    const startedAt = new Date(2025, 3, 22, 9, 30, 15)
    act(() => socket.receive({ action: 'startPause', pause: pauseRecord({ lock_screen: true, started_timestamp: startedAt.getTime() / 1000 }) }))
    const dialog = await screen.findByTestId('screen-lock')
    expect(within(dialog).getByText('Pausado')).toBeTruthy()
    expect(within(dialog).getByTestId('screen-lock-started').textContent).toContain('22/04/2025 09:30:15')
  })
})

describe('service ownership and browser permissions', () => {
  it("the tab that does not serve shows the placeholder, and 'Atender aqui' sends service_here", async () => {
    const { socket } = await open()
    act(() => socket.receive({ action: 'serviceElsewhere' }))
    const panel = await screen.findByTestId('service-ownership')
    expect(panel.textContent).toContain('Webphone esta em execução em outra aba ou janela.')
    socket.sent.length = 0
    fireEvent.click(within(panel).getByTestId('service-here'))
    expect(socket.actions()).toEqual(['service_here'])
  })

  it('the tab that lost the service says it will reload', async () => {
    const { socket } = await open()
    act(() => socket.receive({ action: 'startService' }))
    expect(screen.queryByTestId('service-ownership')).toBeNull()
    act(() => socket.receive({ action: 'serviceElsewhere' }))
    expect((await screen.findByTestId('service-ownership')).textContent).toContain('Solicitação de atendimento em outra aba, está será atualizada.')
  })

  it('shows the remote-logout notice when the server sends logout', async () => {
    const { socket } = await open()
    act(() => socket.receive({ action: 'logout', reason: 'password-change' }))
    expect(await screen.findByText('Comando recebido, você será deslogado em 15 segundos')).toBeTruthy()
  })

  it('asks to allow audio when the browser blocks playback', async () => {
    api.play.mockImplementation(async () => {
      throw new DOMException('blocked', 'NotAllowedError')
    })
    await open()
    const dialog = await screen.findByTestId('audio-permission')
    api.play.mockImplementation(async () => {})
    fireEvent.click(within(dialog).getByTestId('audio-allow'))
    await vi.waitFor(() => expect(screen.queryByTestId('audio-permission')).toBeNull())
  })

  it('asks for notifications once per browser', async () => {
    const requestPermission = vi.fn(async () => 'denied')
    vi.stubGlobal('Notification', { permission: 'default', requestPermission })
    await open()
    expect(requestPermission).toHaveBeenCalledTimes(1)
    expect(localStorage.getItem(NOTIFICATION_ASKED_KEY)).toBeTruthy()
    cleanup()
    await open()
    expect(requestPermission).toHaveBeenCalledTimes(1)
  })

  it('users who serve neither calls nor chats get no placeholder and no pause widget', async () => {
    api.signedIn = agent({ roles: [PERMISSIONS.viewDashboard] })
    const { socket } = await open()
    act(() => socket.receive({ action: 'serviceElsewhere' }))
    expect(screen.queryByTestId('service-ownership')).toBeNull()
    expect(screen.queryByTestId('pause-button')).toBeNull()
    expect(screen.getByTestId('lock-screen')).toBeTruthy()
  })
})
