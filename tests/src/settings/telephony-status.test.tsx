import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, screen, within } from '@testing-library/react'
import type { TelephonyStatusAnswer } from '../../../contract/api/telephony.ts'
import { ALL, calls, openApp, serve, setupDom } from './harness.tsx'

// /settings shows the telephone exchange's engines to whoever manages the trunks, and the install command when the
// binaries are missing (the server keeps running without them).

beforeAll(setupDom)
afterEach(cleanup)

const engine = (state: TelephonyStatusAnswer['kamailio']['state'], version: string | null = null) => ({
  state,
  version,
  pid: null,
  restarts: 0,
  last_error: null,
})
const STATUS_PATH = '/api/v1/pabx/telephony/status/'

function answer(status: TelephonyStatusAnswer) {
  return (call: { path: string }) => (call.path === STATUS_PATH ? { body: status } : undefined)
}

describe('the telephony engines on /settings', () => {
  it('shows both engines running with their versions', async () => {
    serve(
      [...ALL, 'pabx.view_trunk'],
      answer({
        mode: 'embedded',
        kamailio: engine('running', '5.6.3'),
        rtpengine: engine('running', '10.5.3.5'),
        install_hint: null,
        evapi: { connected: true },
        kamailio_load: null,
      }),
    )
    await openApp('/settings')
    const card = await screen.findByTestId('telephony-status')
    expect(within(card).getAllByText('Em execução')).toHaveLength(2)
    expect(within(card).getByText('5.6.3')).toBeTruthy()
    expect(within(card).queryByTestId('telephony-install-hint')).toBeNull()
    expect(within(card).queryByTestId('telephony-memory')).toBeNull()
  })

  it("shows Kamailio's memory pressure, and warns when it runs high", async () => {
    const MB = 1024 * 1024
    const load = { shm_total: 128 * MB, shm_used: 118 * MB, shm_max_used: 120 * MB, pressure: 118 / 128, level: 'critical' as const }
    const counts = { dialogs: 12, registered: 340, tcp_connections: 3, websockets: 350, at: '2026-11-26T10:00:00.000Z' }
    serve(
      [...ALL, 'pabx.view_trunk'],
      answer({
        mode: 'embedded',
        kamailio: engine('running'),
        rtpengine: engine('running'),
        install_hint: null,
        evapi: { connected: true },
        kamailio_load: { ...load, ...counts },
      }),
    )
    await openApp('/settings')
    const memory = await screen.findByTestId('telephony-memory')
    expect(memory.dataset.level).toBe('critical')
    expect(memory.textContent).toContain('92% de 128 MB')
    expect(memory.textContent).toContain('350 webphones conectados')
    expect(memory.textContent).toContain('SIP_SHM_MB')
  })

  it('says how to install the engines when they are missing', async () => {
    const hint = 'apt-get install kamailio kamailio-websocket-modules kamailio-extra-modules kamailio-utils-modules rtpengine-daemon'
    serve(
      [...ALL, 'pabx.view_trunk'],
      answer({
        mode: 'embedded',
        kamailio: engine('missing'),
        rtpengine: engine('missing'),
        install_hint: hint,
        evapi: { connected: false },
        kamailio_load: null,
      }),
    )
    await openApp('/settings')
    const card = await screen.findByTestId('telephony-status')
    expect(within(card).getAllByText('Não instalado')).toHaveLength(2)
    expect(within(card).getByTestId('telephony-install-hint').textContent).toContain(hint)
  })

  it('is not shown, nor asked for, without the trunk permission', async () => {
    serve([...ALL, 'pabx.view_device'])
    await openApp('/settings')
    await screen.findByTestId('settings-section-pabx')
    expect(screen.queryByTestId('telephony-status')).toBeNull()
    expect(calls.some((c) => c.path === STATUS_PATH)).toBe(false)
  })
})
