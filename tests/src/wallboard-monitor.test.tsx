import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import type { MonitorSession } from '../../contract/api/monitor.ts'
import type { WallboardAgent } from '../../contract/realtime/wallboard.ts'
import { MonitorBar } from '../../src/features/dashboards/MonitorBar.tsx'
import { calls, renderUi, serve, setupDom } from './settings/harness.tsx'

// The wallboard's monitoring bar (issue 19 item 1): starts a listen on the agent, switches to whisper, stops — each a
// request to the monitor API — in jsdom against a faked API.

const AGENT: WallboardAgent = {
  id: 4,
  name: 'Ana Agente',
  username: 'agent1',
  team: 1,
  team_name: 'Equipe',
  status: 'inuse',
  status_since: null,
  chat_status: null,
  chat_status_since: null,
  login_telephony: true,
  login_chat: false,
  pause: null,
  call: { number: '11987654321', direction: 'inbound', state: 'talking', since: '2025-03-03T13:00:00.000Z', queue: 1 },
  chats: 0,
  after_service: null,
  queues: [],
}
const ID = '0123456789abcdef'
const session = (mode: MonitorSession['mode'], listenOnly = false): MonitorSession => ({
  id: ID,
  user_id: 4,
  call_id: 'c1',
  mode,
  started_at: '2025-03-03T13:01:00.000Z',
  listen_only: listenOnly,
})
let listenOnly = false

beforeEach(() => {
  setupDom()
  listenOnly = false
  serve([], (c) => {
    if (c.method === 'POST' && c.path === '/api/v1/agent/supervisor/monitor/') return { body: session('listen', listenOnly) }
    if (c.method === 'POST' && c.path === `/api/v1/agent/supervisor/monitor/${ID}/mode/`) return { body: session((c.body as { mode: MonitorSession['mode'] }).mode) }
    if (c.method === 'POST' && c.path === `/api/v1/agent/supervisor/monitor/${ID}/stop/`) return { body: session('whisper') }
    return undefined
  })
})
afterEach(cleanup)

describe('the monitoring bar', () => {
  it('starts listening, switches to whisper and stops', async () => {
    const done = vi.fn()
    await renderUi(<MonitorBar request={{ agent: AGENT, mode: 'listen' }} onDone={done} />)
    await waitFor(() => expect(screen.getByText('Monitorando Ana Agente')).toBeTruthy())
    expect(calls.find((c) => c.path === '/api/v1/agent/supervisor/monitor/')?.body).toEqual({ user_id: 4, mode: 'listen' })
    await act(async () => fireEvent.click(screen.getByTestId('wallboard-monitor-whisper')))
    await waitFor(() => expect(screen.getByTestId('wallboard-monitor').getAttribute('data-mode')).toBe('whisper'))
    expect(calls.find((c) => c.path.endsWith('/mode/'))?.body).toEqual({ mode: 'whisper' })
    await act(async () => fireEvent.click(screen.getByTestId('wallboard-monitor-stop')))
    await waitFor(() => expect(done).toHaveBeenCalled())
    expect(calls.some((c) => c.path === `/api/v1/agent/supervisor/monitor/${ID}/stop/`)).toBe(true)
  })

  it('offers only listening on a call the agent took directly', async () => {
    listenOnly = true
    await renderUi(<MonitorBar request={{ agent: AGENT, mode: 'listen' }} onDone={() => {}} />)
    await waitFor(() => expect(screen.getByTestId('wallboard-monitor-listen-only').textContent).toBe('Só ouvir: o agente atendeu esta chamada diretamente.'))
    expect((screen.getByTestId('wallboard-monitor-whisper') as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByTestId('wallboard-monitor-barge') as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByTestId('wallboard-monitor-listen') as HTMLButtonElement).disabled).toBe(false)
    fireEvent.click(screen.getByTestId('wallboard-monitor-whisper'))
    expect(calls.some((c) => c.path.endsWith('/mode/'))).toBe(false)
  })

  it('speaks English and Spanish', async () => {
    await renderUi(<MonitorBar request={{ agent: AGENT, mode: 'listen' }} onDone={() => {}} />, 'en-US')
    await waitFor(() => expect(screen.getByText('Monitoring Ana Agente')).toBeTruthy())
    expect(screen.getByText('Whisper')).toBeTruthy()
    cleanup()
    await renderUi(<MonitorBar request={{ agent: AGENT, mode: 'listen' }} onDone={() => {}} />, 'es-ES')
    await waitFor(() => expect(screen.getByText('Monitorizando a Ana Agente')).toBeTruthy())
    expect(screen.getByText('Susurrar')).toBeTruthy()
  })
})
