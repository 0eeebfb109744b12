import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { Activity } from '../../contract/api/activities.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { activityBody } from '../../src/features/activities/NewActivityDialog.tsx'
import { calls, openApp, serve, setupDom } from './settings/harness.tsx'

// The activities page /activities (spec 000 §2 "Activity": start, end, subject, type, call to, mark as done, automatic
// execution) and the supervisor's 'Nova atividade' dialog, in jsdom against a faked API.

const LIST = '/api/v1/agent/activities/'
const USERS = '/api/v1/service/apps/business/users/'
const AGENT = [PERMISSIONS.viewActivities, PERMISSIONS.viewSoftphone]
const SUPERVISOR = [PERMISSIONS.viewActivities, PERMISSIONS.addActivity]

function activity(patch: Partial<Activity>): Activity {
  return {
    id: 1,
    user: 1,
    destination: '11987654321',
    client: null,
    mailing: null,
    mailing_client: null,
    campaign: null,
    dialer: null,
    count: 3,
    done: false,
    start: '2025-03-03T13:00:00.000Z',
    end: '2025-03-03T15:30:00.000Z',
    subject: 'Retornar orçamento',
    type: 'call',
    target: '',
    active: true,
    automatic_execution: true,
    created_by: 2,
    created: '2025-03-01T10:00:00.000Z',
    updated: '2025-03-01T10:00:00.000Z',
    ...patch,
  }
}

let pending: Activity[] = []
const answer = (c: { method: string; path: string; body: unknown }) => {
  if (c.method === 'GET' && c.path === LIST) return { body: { count: pending.length, results: pending } }
  if (c.method === 'POST' && c.path === `${LIST}1/done/`) {
    pending = pending.filter((a) => a.id !== 1)
    return { body: activity({ done: true }) }
  }
  if (c.method === 'POST' && c.path === LIST) {
    const body = c.body as { destination: string }
    if (body.destination === '999') return { status: 400, body: { destination: ['Destino recusado pelo servidor'] } }
    return { status: 201, body: activity({ id: 9, ...(c.body as object) }) }
  }
  if (c.path === USERS)
    return {
      body: {
        count: 2,
        results: [
          { id: 4, description: 'Ana Agente' },
          { id: 5, description: 'Beto Agente' },
        ],
      },
    }
  return undefined
}

const rows = () => screen.getAllByTestId('activity-row')
const lists = () => calls.filter((c) => c.method === 'GET' && c.path === LIST)

beforeAll(setupDom)
beforeEach(() => {
  toasts.set([])
  pending = [
    activity({}),
    activity({
      id: 2,
      destination: '1133334444',
      subject: 'Confirmar visita',
      type: 'callback',
      automatic_execution: false,
      end: null,
      count: 0,
      start: '2099-01-01T12:00:00.000Z',
    }),
  ]
})
afterEach(cleanup)

describe('/activities', () => {
  it("lists the agent's pending activities, due and upcoming, with start, end, subject, type, call to, automatic execution and attempts", async () => {
    serve(AGENT, answer)
    await openApp('/activities')
    await screen.findByText('Retornar orçamento')
    expect(Object.fromEntries(lists().at(-1)!.url.searchParams)).toEqual({ upcoming: 'true' })
    const cells = (i: number) =>
      within(rows()[i]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(cells(0).slice(0, 7)).toEqual([
      expect.stringMatching(/^03\/03\/2025 \d\d:00:00$/),
      expect.stringMatching(/^03\/03\/2025 \d\d:30:00$/),
      'Retornar orçamento',
      'Ligação',
      '11987654321',
      'Sim',
      '3/50',
    ])
    expect(cells(1).slice(0, 7)).toEqual([
      expect.stringMatching(/^01\/01\/2099 \d\d:00:00Agendada$/),
      '—',
      'Confirmar visita',
      'Retorno',
      '1133334444',
      'Não',
      '0/50',
    ])
    // The webphone is off (no voip): 'Ligar' shows but cannot dial.
    expect((within(rows()[0]!).getByTestId('activity-call') as HTMLButtonElement).disabled).toBe(true)
    // An agent cannot schedule.
    expect(screen.queryByTestId('activity-new')).toBeNull()
  })

  it("'Marcar como feita' posts done and the list is fetched again without it", async () => {
    serve(AGENT, answer)
    await openApp('/activities')
    await screen.findByText('Retornar orçamento')
    const before = lists().length
    await act(async () => fireEvent.click(within(rows()[0]!).getByTestId('activity-done')))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${LIST}1/done/`])
    expect(lists().length).toBeGreaterThan(before)
    expect(toasts.get().map((t) => t.message)).toContain('Atividade marcada como feita.')
  })

  it("without the softphone permission there is no 'Ligar'; an empty list says so", async () => {
    pending = []
    serve([PERMISSIONS.viewActivities], answer)
    await openApp('/activities')
    await screen.findByText('Nenhuma atividade pendente')
    pending = [activity({})]
    serve([PERMISSIONS.viewActivities], answer)
    cleanup()
    await openApp('/activities')
    await screen.findByText('Retornar orçamento')
    expect(screen.queryByTestId('activity-call')).toBeNull()
  })

  it("a supervisor schedules one in 'Nova atividade': validated before sending, server field errors shown, ISO dates sent", async () => {
    serve(SUPERVISOR, answer)
    await openApp('/activities')
    await act(async () => fireEvent.click(await screen.findByTestId('activity-new')))
    const dialog = within(await screen.findByTestId('activity-dialog'))
    await act(async () => fireEvent.click(dialog.getByTestId('activity-save')))
    // Destination and start are required; no agent chosen is an error of its own.
    await waitFor(() => expect(dialog.getAllByText('Este campo é obrigatório')).toHaveLength(2))
    expect(document.getElementById('activity-user-helper-text')?.textContent).toBeTruthy()
    expect(document.getElementById('activity-destination-helper-text')?.textContent).toBe('Este campo é obrigatório')
    expect(document.getElementById('activity-start-helper-text')?.textContent).toBe('Este campo é obrigatório')
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])

    await act(async () => fireEvent.click(dialog.getByRole('combobox', { name: 'Agente' })))
    await act(async () => fireEvent.click(await screen.findByRole('option', { name: 'Beto Agente' })))
    const input = (name: string) => document.querySelector(`[data-testid="activity-dialog"] input[name="${name}"]`) as HTMLInputElement
    await act(async () => fireEvent.change(input('destination'), { target: { value: '11955554444' } }))
    await act(async () => fireEvent.change(input('start'), { target: { value: '2025-04-23T10:00' } }))
    await act(async () => fireEvent.change(input('end'), { target: { value: '2025-04-23T09:00' } }))
    await act(async () => fireEvent.change(input('subject'), { target: { value: 'Cobrança' } }))
    await act(async () => fireEvent.click(dialog.getByTestId('activity-save')))
    // The end before the start is the contract's rule, shown on the end.
    await waitFor(() => expect(dialog.getByText('O fim deve ser posterior ao início.')).toBeTruthy())
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])

    await act(async () => fireEvent.change(input('end'), { target: { value: '2025-04-23T11:00' } }))
    await act(async () => fireEvent.change(input('destination'), { target: { value: '999' } }))
    await act(async () => fireEvent.click(dialog.getByTestId('activity-save')))
    await waitFor(() => expect(dialog.getByText('Destino recusado pelo servidor')).toBeTruthy())

    await act(async () => fireEvent.change(input('destination'), { target: { value: '11955554444' } }))
    await act(async () => fireEvent.click(dialog.getByTestId('activity-save')))
    await waitFor(() => expect(screen.queryByTestId('activity-dialog')).toBeNull())
    const posts = calls.filter((c) => c.method === 'POST' && c.path === LIST)
    expect(posts.at(-1)!.body).toEqual({
      user: 5,
      destination: '11955554444',
      start: new Date('2025-04-23T10:00').toISOString(),
      end: new Date('2025-04-23T11:00').toISOString(),
      subject: 'Cobrança',
      type: 'call',
      automatic_execution: true,
    })
    expect(toasts.get().map((t) => t.message)).toContain('Atividade agendada.')
  })

  it('activityBody turns local date-times into instants and an empty end into null', () => {
    const body = activityBody({ user: '3', destination: '100', start: '2025-04-23T10:00:30', end: '', subject: '', type: 'call', automatic_execution: false })
    expect(body).toEqual({
      user: 3,
      destination: '100',
      start: new Date('2025-04-23T10:00:30').toISOString(),
      end: null,
      subject: '',
      type: 'call',
      automatic_execution: false,
    })
    expect(activityBody({ user: '', destination: '', start: '', end: '', subject: '', type: 'call', automatic_execution: true }).start).toBe('')
  })
})
