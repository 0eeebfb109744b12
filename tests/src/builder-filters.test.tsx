import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { BuilderFilterChoices, BuilderPage, ViewerFilter } from '../../contract/api/builder.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { calls, openApp, serve, setupDom } from './settings/harness.tsx'

// A builder page's viewer filter bar (src/features/builder/BuilderPageView.tsx), in jsdom against a faked API: the
// campaign, classification and chat queue selects show only when one of the page's queries takes them, and each
// change asks the server for the page again with the filter.

const PAGE = '/api/v1/builder/pages/dashboards/5/'
const CHOICES: BuilderFilterChoices = {
  team: [],
  agent: [],
  queue: [{ id: 1, description: 'Suporte' }],
  chat_queue: [{ id: 3, description: 'Chat Vendas' }],
  campaign: [{ id: 7, description: 'Campanha Março' }],
  classification: [{ id: 9, description: 'Venda' }],
}

function page(fields: ViewerFilter[], total: number): BuilderPage {
  return {
    id: 5,
    kind: 'dashboards',
    title: 'Operação',
    refresh: 0,
    live: false,
    inside: [],
    filters: { period: true, fields },
    widgets: [
      {
        id: 1,
        title: 'Chamadas',
        type: 'number',
        width: 4,
        height: 1,
        error: null,
        result: {
          dataset: 'calls',
          measure: { key: 'count', label: 'Quantidade', kind: 'number' },
          group: { key: 'none', label: 'Sem agrupamento' },
          total,
          groups: [],
          from: '2025-03-03T00:00:00.000Z',
          to: '2025-03-04T00:00:00.000Z',
        },
      },
    ],
  }
}

const pageCalls = () => calls.filter((c) => c.method === 'GET' && c.path === PAGE)
const lastParams = () => Object.fromEntries(pageCalls().at(-1)!.url.searchParams)
// The shared 2-core machine answers slowly under load: conditions get 10 s, the longer test 2 minutes.
const SLOW = { timeout: 10_000 }
const settled = () => vi.waitFor(() => expect(screen.getByTestId('builder-page').dataset.fetching).toBe('false'), SLOW)

beforeAll(setupDom)
afterEach(cleanup)

describe('a builder page’s filter bar', () => {
  it('shows campaign, classification and chat queue when the page’s queries take them; each change asks again', async () => {
    serve([PERMISSIONS.viewDashboard], (c) => {
      if (c.path === '/api/v1/builder/filters/') return { body: CHOICES }
      if (c.path === PAGE) {
        const campaign = c.url.searchParams.get('campaign')
        return { body: page(['team', 'agent', 'queue', 'chat_queue', 'campaign', 'classification'], campaign ? 1 : 3) }
      }
      return undefined
    })
    await openApp('/dashboards/5')
    expect((await screen.findByTestId('builder-number')).textContent).toBe('3')
    for (const id of ['chat_queue', 'campaign', 'classification']) expect(screen.getByTestId(`builder-filter-${id}`)).toBeTruthy()

    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Campanha' })))
    await act(async () => fireEvent.click(await screen.findByRole('option', { name: 'Campanha Março' })))
    await vi.waitFor(() => expect(lastParams()).toMatchObject({ campaign: '7' }), SLOW)
    await vi.waitFor(() => expect(screen.getByTestId('builder-number').textContent).toBe('1'), SLOW)

    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Classificação' })))
    await act(async () => fireEvent.click(await screen.findByRole('option', { name: 'Venda' })))
    await vi.waitFor(() => expect(lastParams()).toMatchObject({ campaign: '7', classification: '9' }), SLOW)

    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Fila de chat' })))
    await act(async () => fireEvent.click(await screen.findByRole('option', { name: 'Chat Vendas' })))
    await vi.waitFor(() => expect(lastParams()).toMatchObject({ campaign: '7', classification: '9', chat_queue: '3' }), SLOW)

    // Clearing drops them all: each query keeps its own again (the unfiltered page, from the cache or asked again).
    await settled()
    await act(async () => fireEvent.click(screen.getByTestId('builder-filters-clear')))
    await vi.waitFor(() => expect(screen.getByTestId('builder-number').textContent).toBe('3'), SLOW)
    expect(screen.getByRole('combobox', { name: 'Campanha' }).textContent).toBe('Todas')
  }, 120_000)

  it('leaves them out when no query of the page takes them', async () => {
    serve([PERMISSIONS.viewDashboard], (c) => {
      if (c.path === '/api/v1/builder/filters/') return { body: CHOICES }
      if (c.path === PAGE) return { body: page(['team', 'agent'], 2) }
      return undefined
    })
    await openApp('/dashboards/5')
    await screen.findByTestId('builder-number')
    expect(screen.getByTestId('builder-filter-agent')).toBeTruthy()
    for (const id of ['queue', 'chat_queue', 'campaign', 'classification']) expect(screen.queryByTestId(`builder-filter-${id}`)).toBeNull()
  })
})
