import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, screen, within } from '@testing-library/react'
import type { TelephonyStatusAnswer } from '../../../contract/api/telephony.ts'
import { ALL, calls, openApp, serve, setupDom } from './harness.tsx'

// /settings shows the telephone exchange's engines to whoever manages the trunks, and the install command when the
// binaries are missing (the server keeps running without them).

beforeAll(setupDom)
afterEach(cleanup)

const engine = (state: TelephonyStatusAnswer['kamailio']['state'], version: string | null = null) => ({ state, version, pid: null, restarts: 0, last_error: null })
const STATUS_PATH = '/api/v1/pabx/telephony/status/'

function answer(status: TelephonyStatusAnswer) {
  return (call: { path: string }) => (call.path === STATUS_PATH ? { body: status } : undefined)
}

describe('the telephony engines on /settings', () => {
  it('shows both engines running with their versions', async () => {
    serve([...ALL, 'pabx.view_trunk'], answer({ mode: 'embedded', kamailio: engine('running', '5.6.3'), rtpengine: engine('running', '10.5.3.5'), install_hint: null, evapi: { connected: true } }))
    await openApp('/settings')
    const card = await screen.findByTestId('telephony-status')
    expect(within(card).getAllByText('Em execução')).toHaveLength(2)
    expect(within(card).getByText('5.6.3')).toBeTruthy()
    expect(within(card).queryByTestId('telephony-install-hint')).toBeNull()
  })

  it('says how to install the engines when they are missing', async () => {
    const hint = 'apt-get install kamailio kamailio-websocket-modules kamailio-extra-modules kamailio-utils-modules rtpengine-daemon'
    serve([...ALL, 'pabx.view_trunk'], answer({ mode: 'embedded', kamailio: engine('missing'), rtpengine: engine('missing'), install_hint: hint, evapi: { connected: false } }))
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
