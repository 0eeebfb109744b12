import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { toasts } from '../../../src/components/toast/toastStore.ts'
import { calls, openApp, serve, setupDom } from './harness.tsx'

// The form pages through the real routes: what they read, what they send (payload rules), and where the server's
// answers land.

const S = PERMISSIONS.viewSettings
const click = (el: Element) => act(async () => void fireEvent.click(el))
const sent = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).at(-1)?.body

beforeAll(setupDom)
beforeEach(() => toasts.set([]))
afterEach(cleanup)

const ivr = {
  id: 5,
  description: 'Central',
  is_active: true,
  greeting: 3,
  greeting_description: 'Bem-vindo',
  direct_dial: false,
  options: [
    { digit: '1', audio: null, destination: { app: 'queue', appdata: 7 }, destination_description: 'Fila: Suporte' },
    { digit: '2', audio: null, destination: { app: 'hangup', appdata: '' }, destination_description: 'Desligar' },
  ],
  timeout: 5,
  timeout_audio: null,
  invalid_audio: null,
  repeat_count: 3,
  timeout_destination: { app: 'hangup', appdata: '' },
}

describe('entity form pages', () => {
  it('edits an IVR: PUTs the full record and puts the server messages on the right row and above the form', async () => {
    serve([S, 'pabx.view_ivr', 'pabx.change_ivr'], (c) => {
      if (c.path === '/api/v1/pabx/ivrs/5/' && c.method === 'GET') return { body: ivr }
      if (c.path === '/api/v1/pabx/ivrs/5/' && c.method === 'PUT')
        return { status: 400, body: { 'options.1.digit': ['Tecla já usada nesta URA'], non_field_errors: ['Conflito de versões'] } }
      return undefined
    })
    await openApp('/settings/pabx/ivrs/5/edit')
    expect(((await screen.findByLabelText(/^Descrição/)) as HTMLInputElement).value).toBe('Central')
    await click(screen.getByTestId('form-save'))
    const body = sent('PUT', '/api/v1/pabx/ivrs/5/') as Record<string, unknown>
    expect(body).toMatchObject({
      description: 'Central',
      is_active: true,
      greeting: 3,
      options: [
        { digit: '1', destination: { app: 'queue', appdata: 7 } },
        { digit: '2', destination: { app: 'hangup', appdata: '' } },
      ],
    })
    expect(body).not.toHaveProperty('greeting_description')
    expect((await screen.findByTestId('form-errors')).textContent).toContain('Conflito de versões')
    const optionsTab = screen.getByRole('tab', { name: /Opções/ })
    expect(optionsTab.textContent).toBe('Opções1')
    await click(optionsTab)
    const rows = screen.getAllByTestId('datatable-row')
    expect(rows[1]!.getAttribute('data-invalid')).toBe('true')
    expect(within(rows[1]!).getByText('Tecla já usada nesta URA')).toBeTruthy()
  })

  it('refuses a repeated IVR key before sending, on the repeating row', async () => {
    serve([S, 'pabx.view_ivr', 'pabx.change_ivr'], (c) =>
      c.path === '/api/v1/pabx/ivrs/5/' && c.method === 'GET' ? { body: { ...ivr, options: [ivr.options[0], { ...ivr.options[1], digit: '1' }] } } : undefined,
    )
    await openApp('/settings/pabx/ivrs/5/edit')
    await screen.findByLabelText(/^Descrição/)
    await click(screen.getByTestId('form-save'))
    expect(sent('PUT', '/api/v1/pabx/ivrs/5/')).toBeUndefined()
    expect(screen.getByRole('tab', { name: /Opções/ }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getAllByTestId('datatable-row')[1]!.getAttribute('data-invalid')).toBe('true')
  })

  it('duplicates a queue: create prefilled from the detail, POSTed without its id', async () => {
    const queue = {
      id: 1,
      description: 'Suporte',
      is_active: true,
      queue_type: 'inbound',
      teams: [2],
      teams_description: ['Equipe A'],
      members: [{ user: 4, user_description: 'ana', penalty: 0 }],
      strategy: 'ringall',
      weight: 0,
      ring_time: 15,
      overflow: null,
    }
    serve([S, 'pabx.view_queue', 'pabx.add_queue'], (c) => {
      if (c.path === '/api/v1/pabx/queues/1/') return { body: queue }
      if (c.path === '/api/v1/pabx/queues/' && c.method === 'POST') return { status: 201, body: { ...queue, id: 9 } }
      return undefined
    })
    const router = await openApp('/settings/service/queues/telephony/create?duplicate_id=1')
    expect(((await screen.findByLabelText(/^Descrição/)) as HTMLInputElement).value).toBe('Suporte')
    expect(screen.getByText('Equipe A')).toBeTruthy()
    await click(screen.getByTestId('form-save'))
    const body = sent('POST', '/api/v1/pabx/queues/') as Record<string, unknown>
    expect(body).toMatchObject({ description: 'Suporte', teams: [2], members: [{ user: 4, penalty: 0 }], strategy: 'ringall', ring_time: 15 })
    expect(body).not.toHaveProperty('id')
    await expect.poll(() => router.state.location.pathname).toBe('/settings/service/queues/telephony')
    expect(toasts.get().map((t) => t.message)).toContain('Registro salvo.')
  })

  it('creates a sub-route row with its parent id from the route', async () => {
    serve([S, 'pabx.view_outboundroutetrunk', 'pabx.add_outboundroutetrunk'], (c) =>
      c.path === '/api/v1/pabx/trunks/'
        ? { body: { count: 1, results: [{ id: 3, description: 'Operadora' }] } }
        : c.method === 'POST'
          ? { status: 201, body: { id: 1 } }
          : undefined,
    )
    const router = await openApp('/settings/pabx/routes/outbound/7/channels/create')
    const trunk = (await screen.findAllByLabelText(/^Tronco/)).find((el) => el.tagName === 'INPUT')!
    await act(async () => {
      fireEvent.focus(trunk)
      fireEvent.change(trunk, { target: { value: 'Op' } })
    })
    await click(await screen.findByRole('option', { name: 'Operadora' }))
    await click(screen.getByTestId('form-save'))
    expect(sent('POST', '/api/v1/pabx/outbound-route-trunks/')).toMatchObject({ outbound_route: 7, trunk: 3 })
    await expect.poll(() => router.state.location.pathname).toBe('/settings/pabx/routes/outbound/7/channels')
  })

  it('keeps a SIP secret on update when left blank, and requires it on create', async () => {
    const device = {
      id: 2,
      description: 'Ramal Ana',
      is_active: true,
      username: '10001',
      codecs: ['PCMU'],
      transport: 'wss',
      webrtc: true,
      nat: true,
      dtmf_mode: 'rfc4733',
      max_contacts: 1,
      max_concurrent_calls: 2,
      device_state_busy_at: 1,
      allowed_ips: '10.0.0.1,10.0.0.2',
      context: 'national',
      outbound_routes: [],
      recording: 'never',
      language: 'pt-BR',
    }
    serve([S, 'pabx.view_device', 'pabx.change_device', 'pabx.add_device'], (c) => (c.path === '/api/v1/pabx/devices/2/' ? { body: device } : undefined))
    await openApp('/settings/pabx/devices/2/edit')
    await screen.findByLabelText(/^Descrição/)
    expect(screen.getByText('Deixe em branco para manter a senha atual.')).toBeTruthy()
    await click(screen.getByTestId('form-save'))
    const body = sent('PUT', '/api/v1/pabx/devices/2/') as Record<string, unknown>
    expect(body).not.toHaveProperty('secret')
    // The delimited combobox travels joined on its delimiter, as it came.
    expect(body.allowed_ips).toBe('10.0.0.1,10.0.0.2')
    cleanup()
    serve([S, 'pabx.view_device', 'pabx.add_device'])
    await openApp('/settings/pabx/devices/create')
    await screen.findByLabelText(/^Descrição/)
    await click(screen.getByTestId('form-save'))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    expect(screen.getAllByText('Este campo é obrigatório').length).toBeGreaterThanOrEqual(3)
  })

  it('embeds the outbound route channels list on its edit page (crud-index), filtered by the route', async () => {
    serve([S, 'pabx.view_outboundroute', 'pabx.change_outboundroute', 'pabx.view_outboundroutetrunk', 'pabx.add_outboundroutetrunk'], (c) => {
      if (c.path === '/api/v1/pabx/outbound-routes/7/') return { body: { id: 7, description: 'Rota SP', is_active: true, dial_patterns: '0XX.', priority: 1 } }
      if (c.path === '/api/v1/pabx/outbound-route-trunks/')
        return { body: { count: 1, results: [{ id: 1, is_active: true, trunk: 3, trunk_description: 'Operadora', order: 1 }] } }
      return undefined
    })
    await openApp('/settings/pabx/routes/outbound/7/edit')
    await screen.findByLabelText(/^Descrição/)
    for (const tab of screen.getAllByRole('tab')) await click(tab)
    const list = await screen.findByTestId('entity-list-pabx.outbound-route-trunks')
    expect(await within(list).findByText('Operadora')).toBeTruthy()
    expect(within(list).getByTestId('list-new').getAttribute('href')).toBe('/settings/pabx/routes/outbound/7/channels/create')
    expect(within(list).queryAllByTestId('row-edit')).toHaveLength(0)
  })
})
