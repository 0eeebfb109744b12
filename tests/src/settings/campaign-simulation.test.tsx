import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { simulatePath } from '../../../contract/api/dialer.ts'
import type { SimulateResponse } from '../../../contract/api/dialer.ts'
import { calls, openApp, serve, setupDom } from './harness.tsx'

// The voice campaign's form (/settings/service/shipments/campaign/{id}/edit) has a "Simular" card beside its run card
// (issue 18 item 5): agents, hours, data source and modes in, one row per mode out (server/dialer/simulate.ts).

beforeAll(setupDom)
afterEach(cleanup)

const campaign = { id: 7, description: 'Preditiva', is_active: true, mailings: [1], mode: 'predictive', queue: 5 }
const progress = { campaign: 7, status: 'idle', leads_total: 0, leads_dialled: 0, leads_answered: 0, leads_remaining: 0, lines_in_use: 0, abandoned: 0 }
const result = (mode: 'progressive' | 'power' | 'predictive', ratio: number | null, occupancy: number, abandon: number, perHour: number) => ({
  mode,
  ratio,
  occupancy,
  wrap_share: 0.05,
  idle_share: 1 - occupancy - 0.05,
  abandon_rate: abandon,
  worst_window_rate: abandon,
  answered_per_agent_hour: perHour,
  dials_per_second: 0.2,
  dials: 700,
  answered: 210,
  abandoned: 3,
})

function serveCampaign(answer: (body: Record<string, unknown>) => { status?: number; body: unknown }) {
  serve([PERMISSIONS.viewSettings, 'service.view_campaign', 'service.change_campaign'], (c) => {
    if (c.path === '/api/v1/service/shipments-campaigns/7/' && c.method === 'GET') return { body: campaign }
    if (c.path === '/api/v1/service/shipments-campaigns/7/progress/') return { body: progress }
    if (c.path === simulatePath && c.method === 'POST') return answer(c.body as Record<string, unknown>)
    return undefined
  })
}

const change = (card: HTMLElement, label: string, value: string) => fireEvent.change(within(card).getByLabelText(label), { target: { value } })

describe('the campaign simulation card', () => {
  it('simulates from given rates and shows one row per mode', async () => {
    const answer: SimulateResponse = {
      source: 'rates',
      history_attempts: null,
      agents: 20,
      hours: 2,
      seed: 1,
      abandon_cap: 3,
      results: [result('progressive', null, 0.612, 0, 21.4), result('power', 3, 0.78, 0.021, 27.3), result('predictive', null, 0.804, 0.015, 28.1)],
    }
    serveCampaign(() => ({ body: answer }))
    await openApp('/settings/service/shipments/campaign/7/edit')
    const card = await screen.findByTestId('campaign-simulation')
    change(card, 'Agentes', '20')
    change(card, 'Horas', '2')
    await act(async () => void fireEvent.click(within(card).getByLabelText('Taxas informadas')))
    change(card, 'Atendidas (%)', '30')
    change(card, 'Razão do power (chamadas por agente)', '3')
    await act(async () => void fireEvent.click(within(card).getByRole('button', { name: 'Simular' })))
    const table = await within(card).findByTestId('simulation-results')
    const sent = calls.find((c) => c.path === simulatePath)!.body
    expect(sent).toEqual({
      agents: 20,
      hours: 2,
      rates: { answer: 30, busy: 10, no_answer: 50 },
      talk: { min: 60, max: 180 },
      modes: [{ mode: 'progressive' }, { mode: 'power', ratio: 3 }, { mode: 'predictive' }],
    })
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent?.replace(/\s/g, ' ')))
    expect(rows.slice(1)).toEqual([
      ['Progressivo', '61,2%', '0,0%', '21,4'],
      ['Power 3', '78,0%', '2,1%', '27,3'],
      ['Preditivo', '80,4%', '1,5%', '28,1'],
    ])
    expect(within(card).getByTestId('simulation-source').textContent).toBe('Simulado com as taxas informadas.')
  })

  it("replays the campaign's history, and checks the input before sending", async () => {
    serveCampaign((body) => ({
      body: {
        source: 'history',
        history_attempts: 120,
        agents: body.agents,
        hours: body.hours,
        seed: 1,
        abandon_cap: 3,
        results: [result('predictive', null, 0.81, 0.02, 28)],
      },
    }))
    await openApp('/settings/service/shipments/campaign/7/edit')
    const card = await screen.findByTestId('campaign-simulation')
    // Too many agents, no mode: refused on the spot, nothing sent.
    change(card, 'Agentes', '900')
    await act(async () => void fireEvent.click(within(card).getByLabelText('Progressivo')))
    await act(async () => void fireEvent.click(within(card).getByLabelText('Power')))
    await act(async () => void fireEvent.click(within(card).getByLabelText('Preditivo')))
    await act(async () => void fireEvent.click(within(card).getByRole('button', { name: 'Simular' })))
    await vi.waitFor(() => expect(within(card).getByLabelText('Agentes').getAttribute('aria-invalid')).toBe('true'))
    expect(within(card).getByTestId('simulation-modes-error').textContent).not.toBe('')
    expect(calls.some((c) => c.path === simulatePath)).toBe(false)
    change(card, 'Agentes', '15')
    await act(async () => void fireEvent.click(within(card).getByLabelText('Preditivo')))
    await act(async () => void fireEvent.click(within(card).getByRole('button', { name: 'Simular' })))
    await within(card).findByTestId('simulation-results')
    expect(calls.find((c) => c.path === simulatePath)!.body).toEqual({ campaign: 7, agents: 15, hours: 1, modes: [{ mode: 'predictive' }] })
    expect(within(card).getByTestId('simulation-source').textContent).toBe('Histórico da campanha: 120 tentativas.')
  })
})
