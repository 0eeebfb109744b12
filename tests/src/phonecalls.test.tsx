import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import type { CallRow, CallStepRow } from '../../contract/api/calls.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { calls, openApp, serve, setupDom } from './settings/harness.tsx'

// The calls page /phonecalls (spec 000 §2), its call-detail dialog (spec 001 §3) and the recording player (spec 001
// §7), in jsdom against a faked API.

const CALLS = '/api/v1/report/calls/'
const QUEUES = '/api/v1/service/apps/pabx/queues/'
const AGENT = [PERMISSIONS.viewSoftphone]
const SUPERVISOR = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewReports, PERMISSIONS.downloadMonitorFile]

function row(patch: Partial<CallRow>): CallRow {
  return {
    id: 1,
    uid: 'u1',
    call_id: 'c1@test',
    datetime: '2025-03-03T13:00:00.000Z',
    total_duration: 3725,
    total_answer_duration: 65,
    endpoint: '10001',
    user: 3,
    user_description: 'Ana Agente',
    queue: 7,
    queue_description: 'Suporte',
    classification: null,
    sub_classification: null,
    comment: '',
    phone: '11987654321',
    phone_type: 'mobile',
    dial_status: 200,
    dial_status_text: 'OK',
    queue_started_datetime: '2025-03-03T13:00:02.000Z',
    queue_answered_datetime: '2025-03-03T13:00:09.000Z',
    call_type: 20,
    direction: 'inbound',
    queue_ended_by: 'caller',
    hung_up_by: 'caller',
    inbound_route_id: 4,
    did: '551160000000',
    country: 'BR',
    area_code: '11',
    outbound_route_id: null,
    trunk: 2,
    trunk_description: 'Operadora',
    recording: true,
    form: null,
    activity: null,
    ...patch,
  }
}

const NOTHING_RECORDED = {
  classification: null,
  sub_classification: null,
  comment: '',
  schedule_date: null,
  form: null,
  activity: null,
  after_service_duration: null,
} as const

const ROWS = [
  row({}),
  row({
    id: 2,
    uid: 'u2',
    call_id: 'c2@test',
    phone: '1133334444',
    call_type: 10,
    direction: 'outbound',
    dial_status: 486,
    total_duration: 12,
    total_answer_duration: null,
    queue: null,
    queue_description: '',
  }),
  row({ id: 3, uid: 'u3', call_id: 'c3@test', phone: '1140040000', call_type: 77, dial_status: 699, dial_status_text: 'Weird' }),
]

const STEPS: CallStepRow[] = [
  {
    id: 10,
    uid: 's1',
    parent_uid: null,
    call_id: 'c1@test',
    step: 1,
    kind: 'queue',
    direction: 'inbound',
    call_type: 20,
    caller: '11987654321',
    callee: '10002',
    phone: '11987654321',
    user: 4,
    user_description: 'Beto Agente',
    endpoint: '10002',
    queue: 7,
    queue_description: 'Suporte',
    trunk: 2,
    dial_status: 486,
    dial_status_text: 'Busy Here',
    started_at: '2025-03-03T13:00:02.000Z',
    ringing_at: null,
    answered_at: null,
    ended_at: '2025-03-03T13:00:05.000Z',
    total_duration: 3,
    answered_duration: null,
    queue_wait: 3,
    hung_up_by: null,
    ...NOTHING_RECORDED,
  },
  {
    id: 11,
    uid: 's2',
    parent_uid: 's1',
    call_id: 'c1@test',
    step: 2,
    kind: 'queue',
    direction: 'inbound',
    call_type: 20,
    caller: '11987654321',
    callee: '10001',
    phone: '11987654321',
    user: 3,
    user_description: 'Ana Agente',
    endpoint: '10001',
    queue: 7,
    queue_description: 'Suporte',
    trunk: 2,
    dial_status: 200,
    dial_status_text: 'OK',
    started_at: '2025-03-03T13:00:05.000Z',
    ringing_at: null,
    answered_at: '2025-03-03T13:00:09.000Z',
    ended_at: '2025-03-03T13:01:14.000Z',
    total_duration: 69,
    answered_duration: 65,
    queue_wait: 7,
    hung_up_by: 'caller',
    ...NOTHING_RECORDED,
  },
]

const answer = (c: { path: string }) => {
  if (c.path === CALLS) return { body: { count: 42, results: ROWS } }
  if (c.path === QUEUES)
    return {
      body: {
        count: 2,
        results: [
          { id: 7, description: 'Suporte' },
          { id: 8, description: 'Vendas' },
        ],
      },
    }
  if (c.path === `/api/v1/report/call-steps/${encodeURIComponent('c1@test')}/`) return { body: { count: 2, results: STEPS } }
  return undefined
}

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.path === CALLS)
const lastList = () => Object.fromEntries(listCalls().at(-1)!.url.searchParams)
const rows = () => screen.getAllByTestId('call-row')

async function pick(label: string, option: string) {
  await act(async () => fireEvent.click(screen.getByRole('combobox', { name: label })))
  await act(async () => fireEvent.click(screen.getByRole('option', { name: option })))
}

async function openDetail(index = 0) {
  await act(async () => fireEvent.click(rows()[index]!))
  return within(await screen.findByTestId('call-detail'))
}

beforeAll(setupDom)
beforeEach(() => toasts.set([]))
afterEach(cleanup)

describe('/phonecalls', () => {
  it('lists the calls with labels, HH:MM:SS durations and raw unknown codes', async () => {
    serve(AGENT, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    expect(lastList()).toEqual({ offset: '0', limit: '10' })
    const cells = (i: number) =>
      within(rows()[i]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(cells(0)).toEqual([
      expect.stringMatching(/^03\/03\/2025 \d\d:00:00$/),
      '11987654321',
      'ReceptivaEntrada',
      'Ana Agente10001',
      'Suporte',
      'Atendida',
      '01:02:05',
      '00:01:05',
    ])
    expect(cells(1)).toEqual([expect.any(String), '1133334444', 'Ativa manualSaída', 'Ana Agente10001', '', 'Destino ocupado', '00:00:12', '00:00:00'])
    // Unknown call type and dial status are shown raw.
    expect(cells(2)[2]).toBe('77Entrada')
    expect(cells(2)[5]).toBe('699')
    expect(screen.getByTestId('page-range').textContent).toBe('1–10 de 42')
  })

  it('shows the columns in English and Spanish', async () => {
    serve(AGENT, answer)
    await openApp('/en-us/phonecalls')
    await screen.findByText('11987654321')
    expect(screen.getByRole('columnheader', { name: 'Answered time' })).toBeTruthy()
    expect(within(rows()[0]!).getByText('Answered')).toBeTruthy()
    expect(within(rows()[1]!).getByText('Destination busy')).toBeTruthy()
    cleanup()
    serve(AGENT, answer)
    await openApp('/es-es/phonecalls')
    await screen.findByText('11987654321')
    expect(screen.getByRole('heading', { name: 'Llamadas' })).toBeTruthy()
    const cells = within(rows()[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent)
    // The direction is not repeated when the type already says it.
    expect(cells.slice(2, 6)).toEqual(['Entrante', 'Ana Agente10001', 'Suporte', 'Contestada'])
  })

  it('sends the filters: dates as local-day bounds, call type group, status, queue, paging', async () => {
    serve(AGENT, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Próxima página' })))
    await expect.poll(() => lastList().offset).toBe('10')
    await act(async () => fireEvent.change(screen.getByLabelText('De'), { target: { value: '2025-03-01' } }))
    await act(async () => fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2025-03-03' } }))
    await pick('Tipo de chamada', 'Receptivas')
    await pick('Status', '486 · Destino ocupado')
    await screen.findByRole('combobox', { name: 'Fila' })
    await pick('Fila', 'Vendas')
    await expect.poll(() => lastList().queue).toBe('8')
    const last = lastList()
    expect(last).toMatchObject({ offset: '0', limit: '10', call_type: '20,21', dial_status: '486', queue: '8' })
    expect(new Date(last.start_date!).getTime()).toBe(new Date(2025, 2, 1, 0, 0, 0, 0).getTime())
    expect(new Date(last.end_date!).getTime()).toBe(new Date(2025, 2, 3, 23, 59, 59, 999).getTime())
    // Page sizes 5–25, no "all" on a report.
    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Itens por página' })))
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['5', '10', '15', '20', '25'])
    await act(async () => fireEvent.click(screen.getByRole('option', { name: '25' })))
    await expect.poll(() => lastList().limit).toBe('25')
  })

  it('searches the phone 500 ms after the last keystroke, from the first page', async () => {
    serve(AGENT, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Próxima página' })))
    await expect.poll(() => lastList().offset).toBe('10')
    const box = screen.getByRole('searchbox', { name: 'Telefone' })
    const before = listCalls().length
    await act(async () => fireEvent.change(box, { target: { value: '119' } }))
    await act(async () => fireEvent.change(box, { target: { value: '1198765' } }))
    await new Promise((r) => setTimeout(r, 300))
    expect(listCalls().length).toBe(before)
    await expect.poll(() => lastList().search).toBe('1198765')
    expect(lastList().offset).toBe('0')
    expect(listCalls().filter((c) => c.url.searchParams.get('search') === '119')).toHaveLength(0)
    // Never the new search at the old page (a reset one render late asked for it first).
    expect(listCalls().filter((c) => c.url.searchParams.get('search') === '1198765' && c.url.searchParams.get('offset') !== '0')).toHaveLength(0)
  })

  it("says 'Sem resultados' when empty and toasts 'Erro: {detail}' when the list fails", async () => {
    serve(AGENT, (c) => (c.path === CALLS ? { body: { count: 0, results: [] } } : undefined))
    await openApp('/phonecalls')
    expect((await screen.findByTestId('list-empty')).textContent).toBe('Sem resultados')
    cleanup()
    serve(AGENT, (c) => (c.path === CALLS ? { status: 400, body: { detail: 'Filtro inválido.' } } : undefined))
    await openApp('/phonecalls')
    await expect.poll(() => toasts.get().map((t) => t.message)).toContain('Erro: Filtro inválido.')
  })

  it('opens the call detail on a row click with the fields and the steps', async () => {
    serve(SUPERVISOR, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    const dialog = await openDetail()
    expect(dialog.getByText('Detalhes da chamada')).toBeTruthy()
    expect(dialog.getByTestId('detail-phone').textContent).toBe('Telefone11987654321')
    expect(dialog.getByTestId('detail-call-type').textContent).toBe('Tipo de chamadaReceptiva')
    expect(dialog.getByTestId('detail-status').textContent).toBe('Status200 · Atendida')
    expect(dialog.getByText('Celular')).toBeTruthy()
    expect(dialog.getByText('551160000000')).toBeTruthy()
    expect(dialog.getByText('Operadora')).toBeTruthy()
    expect(dialog.getByText('01:02:05')).toBeTruthy()
    await expect.poll(() => dialog.queryAllByTestId('call-step').length).toBe(2)
    const step = (i: number) =>
      within(dialog.getAllByTestId('call-step')[i]!)
        .getAllByRole('cell')
        .map((c) => c.textContent)
    expect(step(0)).toEqual([
      '1',
      'Fila',
      '11987654321',
      '10002',
      'Beto Agente · 10002',
      'Suporte',
      'Destino ocupado',
      expect.any(String),
      '00:00:03',
      '00:00:00',
    ])
    expect(step(1)).toEqual(['2', 'Fila', '11987654321', '10001', 'Ana Agente · 10001', 'Suporte', 'Atendida', expect.any(String), '00:00:07', '00:01:05'])
  })

  it('shows each field once, the classification, the form answers and the activity the call created (issue 15 items 6, 7)', async () => {
    const outcome = row({
      classification: 'Retorno',
      sub_classification: 'Ligar amanhã',
      comment: 'Cliente pediu retorno',
      form: { id: 5, description: 'Atendimento', values: { nome: 'Ana Souza', motivo: 'b' }, sent_at: '2025-03-03T13:01:00.000Z' },
      activity: 41,
    })
    serve(SUPERVISOR, (c) => (c.path === CALLS ? { body: { count: 1, results: [outcome] } } : answer(c)))
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    const dialog = await openDetail()
    expect(dialog.getByTestId('detail-classification').textContent).toBe('ClassificaçãoRetorno')
    expect(dialog.getByText('Ligar amanhã')).toBeTruthy()
    expect(dialog.getByText('Cliente pediu retorno')).toBeTruthy()
    expect(dialog.getByTestId('detail-activity').textContent).toBe('Atividade agendada#41')
    const form = within(dialog.getByTestId('detail-form'))
    expect(form.getByText('Ana Souza')).toBeTruthy()
    expect(form.getByText('nome')).toBeTruthy()
    // Every label of the detail once (the steps table has its own headers).
    const details = screen.getByTestId('call-detail')
    for (const label of ['Telefone', 'Tipo de chamada', 'Status', 'Agente', 'Ramal', 'Fila', 'Classificação', 'Atividade agendada', 'DID', 'Tronco']) {
      const seen = [...details.querySelectorAll('*')].filter((node) => node.children.length === 0 && node.textContent === label && !node.closest('table'))
      expect(seen, label).toHaveLength(1)
    }
  })

  it("plays the recording: loading text, then the audio and the mp3 download; the spec's message on error", async () => {
    serve(SUPERVISOR, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    let dialog = await openDetail()
    const player = dialog.getByTestId('recording-player')
    expect(within(player).getByRole('status').textContent).toBe('Carregando o arquivo de áudio, aguarde...')
    const audio = player.querySelector('audio')!
    expect(audio.getAttribute('src')).toBe('/recordings/player/c1%40test?file_response=false')
    await act(async () => fireEvent.canPlay(audio))
    expect(within(player).queryByRole('status')).toBeNull()
    expect(within(player).getByRole('link', { name: 'Baixar gravação' }).getAttribute('href')).toBe('/recordings/player/c1%40test?download=1&extension=mp3')
    await act(async () => fireEvent.keyDown(screen.getByTestId('call-detail'), { key: 'Escape' }))
    await expect.poll(() => screen.queryByTestId('call-detail')).toBeNull()
    dialog = await openDetail(1)
    const failing = dialog.getByTestId('recording-player')
    await act(async () => fireEvent.error(failing.querySelector('audio')!))
    expect(within(failing).getByRole('alert').textContent).toBe('Não foi possível carregar o arquivo de áudio, verifique se a chamada foi atendida.')
    expect(failing.querySelector('audio')).toBeNull()
    expect(within(failing).queryByRole('link')).toBeNull()
  })

  it('shows no player without download_monitor_file', async () => {
    serve(AGENT, answer)
    await openApp('/phonecalls')
    await screen.findByText('11987654321')
    const dialog = await openDetail()
    await expect.poll(() => dialog.queryAllByTestId('call-step').length).toBe(2)
    expect(dialog.queryByTestId('recording-player')).toBeNull()
    expect(dialog.queryByText('Carregando o arquivo de áudio, aguarde...')).toBeNull()
    expect(document.querySelector('audio')).toBeNull()
  })

  it('is refused without sites.view_softphone', async () => {
    serve([PERMISSIONS.viewDashboard], answer)
    const router = await openApp('/phonecalls')
    expect(router.state.location.pathname).toBe('/403')
    expect(listCalls()).toHaveLength(0)
  })
})
