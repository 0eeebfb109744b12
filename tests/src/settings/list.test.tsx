import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { toasts } from '../../../src/components/toast/toastStore.ts'
import { calls, openApp, serve, setupDom } from './harness.tsx'

const QUEUES = '/api/v1/pabx/queues/'
const VIEW = [PERMISSIONS.viewSettings, 'pabx.view_queue']
const ALL_QUEUE = [...VIEW, 'pabx.add_queue', 'pabx.change_queue', 'pabx.delete_queue']
const rows = [
  { id: 1, is_active: true, description: 'Suporte', strategy: 'ringall', queue_type: 'inbound' },
  { id: 2, is_active: false, description: 'Vendas '.repeat(30).trim(), strategy: 'rrmemory', queue_type: 'outbound' },
]

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.path === QUEUES)
const lastList = () => Object.fromEntries(listCalls().at(-1)!.url.searchParams)

beforeAll(setupDom)
beforeEach(() => toasts.set([]))
afterEach(cleanup)

describe('generic list screen', () => {
  it('asks for the first page in the default order and shows the registry columns', async () => {
    serve(ALL_QUEUE, (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    expect(lastList()).toEqual({ offset: '0', limit: '10', ordering: '-is_active,id' })
    expect(screen.getByRole('columnheader', { name: /Estratégia de distribuição/ })).toBeTruthy()
    expect(screen.getAllByTestId('active-chip').map((c) => c.textContent)).toEqual(['Ativo', 'Inativo'])
    expect(screen.getByText('Tocar todos')).toBeTruthy()
    // Long texts are cut at 100 characters with the whole text as a tooltip.
    const long = screen.getByTitle('Vendas '.repeat(30).trim())
    expect(long.textContent!.length).toBe(100)
    expect(screen.getByTestId('page-range').textContent).toBe('1–2 de 2')
  })

  it('sorts by a header: ascending, descending, then back to the default order', async () => {
    serve(ALL_QUEUE, (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    const header = () => within(screen.getByRole('columnheader', { name: /Descrição/ })).getByRole('button')
    await act(async () => fireEvent.click(header()))
    await expect.poll(() => lastList().ordering).toBe('description')
    expect(screen.getByRole('columnheader', { name: /Descrição/ }).getAttribute('aria-sort')).toBe('ascending')
    await act(async () => fireEvent.click(header()))
    await expect.poll(() => lastList().ordering).toBe('-description')
    await act(async () => fireEvent.click(header()))
    // Back to the default order, which the first page already fetched (served from the cache).
    await expect.poll(() => screen.getByRole('columnheader', { name: /Descrição/ }).getAttribute('aria-sort')).toBeNull()
    expect(listCalls().map((c) => c.url.searchParams.get('ordering'))).toEqual(['-is_active,id', 'description', '-description'])
  })

  it('changes the page size (5–25) and pages with offset', async () => {
    serve(ALL_QUEUE, (c) => (c.path === QUEUES ? { body: { count: 42, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Próxima página' })))
    await expect.poll(() => lastList().offset).toBe('10')
    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Itens por página' })))
    const sizes = screen.getAllByRole('option').map((o) => o.textContent)
    expect(sizes).toEqual(['5', '10', '15', '20', '25', 'Todos'])
    await act(async () => fireEvent.click(screen.getByRole('option', { name: '25' })))
    await expect.poll(() => lastList()).toMatchObject({ limit: '25', offset: '0' })
    expect(screen.getByTestId('page-range').textContent).toBe('1–25 de 42')
  })

  it('searches 500 ms after the last keystroke, from the first page', async () => {
    serve(ALL_QUEUE, (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    const box = screen.getByRole('searchbox', { name: 'Filtrar' })
    const before = listCalls().length
    await act(async () => fireEvent.change(box, { target: { value: 'sup' } }))
    await act(async () => fireEvent.change(box, { target: { value: 'suporte' } }))
    await new Promise((r) => setTimeout(r, 300))
    expect(listCalls().length).toBe(before)
    await expect.poll(() => lastList().search).toBe('suporte')
    expect(listCalls().filter((c) => c.url.searchParams.get('search') === 'sup')).toHaveLength(0)
  })

  it('shows New, Edit, Duplicate and Delete only with their permissions', async () => {
    serve(VIEW, (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    expect(screen.queryByTestId('list-new')).toBeNull()
    expect(screen.queryAllByTestId('row-edit')).toHaveLength(0)
    expect(screen.queryAllByTestId('row-delete')).toHaveLength(0)
    cleanup()
    serve([...VIEW, 'pabx.change_queue'], (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    expect(screen.queryByTestId('list-new')).toBeNull()
    expect(screen.getAllByTestId('row-edit')[0]!.getAttribute('href')).toBe('/settings/service/queues/telephony/1/edit')
    expect(screen.queryAllByTestId('row-duplicate')).toHaveLength(0)
    cleanup()
    // Duplicate follows edit (spec 001 §6) and, since it creates, add.
    serve([...VIEW, 'pabx.add_queue'], (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    expect(screen.getByTestId('list-new')).toBeTruthy()
    expect(screen.queryAllByTestId('row-duplicate')).toHaveLength(0)
    cleanup()
    serve(ALL_QUEUE, (c) => (c.path === QUEUES ? { body: { count: 2, results: rows } } : undefined))
    await openApp('/en-us/settings/service/queues/telephony')
    await screen.findByText('Suporte')
    expect(screen.getByTestId('list-new').getAttribute('href')).toBe('/en-us/settings/service/queues/telephony/create')
    expect(screen.getAllByTestId('row-duplicate')[1]!.getAttribute('href')).toBe('/en-us/settings/service/queues/telephony/create?duplicate_id=2')
    expect(screen.getAllByTestId('row-delete')[0]!.getAttribute('href')).toBe('/en-us/settings/service/queues/telephony/1/delete')
  })

  it("says 'Sem resultados' when empty and 'Erro: {detail}' when the list fails", async () => {
    serve(VIEW)
    await openApp('/settings/service/queues/telephony')
    expect(await screen.findByTestId('list-empty')).toBeTruthy()
    expect(screen.getByText('Sem resultados')).toBeTruthy()
    cleanup()
    serve(VIEW, (c) => (c.path === QUEUES ? { status: 400, body: { detail: 'Filtro inválido' } } : undefined))
    await openApp('/settings/service/queues/telephony')
    await expect.poll(() => toasts.get().map((t) => t.message)).toContain('Erro: Filtro inválido')
  })

  it('answers 403 without the view permission and 404 for an unknown entity', async () => {
    serve([PERMISSIONS.viewSettings])
    const router = await openApp('/settings/service/queues/telephony')
    expect(router.state.location.pathname).toBe('/403')
    cleanup()
    serve(VIEW)
    const edit = await openApp('/settings/service/queues/telephony/3/edit')
    expect(edit.state.location.pathname).toBe('/403')
    cleanup()
    serve(VIEW)
    await openApp('/en-us/settings/nothing/here')
    expect(await screen.findByText('This page could not be found')).toBeTruthy()
  })

  it('lists a sub-route under its parent id, with Back to the parent', async () => {
    serve([PERMISSIONS.viewSettings, 'pabx.view_outboundroute', 'pabx.view_outboundroutetrunk'], (c) =>
      c.path === '/api/v1/pabx/outbound-routes/7/' ? { body: { id: 7, description: 'Rota SP' } } : undefined,
    )
    await openApp('/settings/pabx/routes/outbound/7/channels')
    await screen.findByText('Rota de saída: Rota SP', undefined, { timeout: 3000 }).catch(() => undefined)
    const list = calls.find((c) => c.path === '/api/v1/pabx/outbound-route-trunks/')
    expect(Object.fromEntries(list!.url.searchParams)).toMatchObject({ outbound_route: '7', ordering: 'order,id' })
    expect(screen.getByTestId('list-back').getAttribute('href')).toBe('/settings/pabx/routes/outbound')
  })

  it('asks before deleting and shows the server detail of a protected row', async () => {
    serve(ALL_QUEUE, (c) => {
      if (c.path === QUEUES) return { body: { count: 2, results: rows } }
      if (c.path === `${QUEUES}1/` && c.method === 'GET') return { body: rows[0] }
      if (c.path === `${QUEUES}1/` && c.method === 'DELETE') return { status: 409, body: { detail: 'Usada pela rota de entrada Central' } }
      return undefined
    })
    await openApp('/settings/service/queues/telephony/1/delete')
    const dialog = await screen.findByTestId('delete-dialog')
    expect(within(dialog).getByText('Você realmente quer deletar?')).toBeTruthy()
    await act(async () => fireEvent.click(within(dialog).getByTestId('delete-confirm')))
    expect((await screen.findByTestId('delete-error')).textContent).toBe('Usada pela rota de entrada Central')
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `${QUEUES}1/`)).toBe(true)
  })
})
