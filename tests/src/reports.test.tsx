import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import type { ReportJob, ReportPage, ReportSummary } from '../../contract/api/reports.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { toasts } from '../../src/components/toast/toastStore.ts'
import { calls, openApp, serve, setupDom } from './settings/harness.tsx'

// The report pages (/reports/pages/:id?) and the processing queue, in jsdom against a faked API: the list, a report's
// filters sent with the browser's time zone, totals and rows formatted by kind, the CSV link, a large export queued.

// Chart.js needs a real canvas; the chart is proven in e2e/reports.spec.ts. Here it is its accessible label.
vi.mock('../../src/components/charts/Chart.tsx', () => ({ Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }))

const SUPERVISOR = [PERMISSIONS.viewReports, PERMISSIONS.viewDashboard]
const SUMMARIES: ReportSummary[] = [
  { id: 'calls', title: 'Chamadas', description: 'Uma linha por chamada.', filters: ['team', 'agent', 'queue', 'campaign', 'classification'] },
  { id: 'pauses', title: 'Pausas', description: 'Cada pausa.', filters: ['team', 'agent'] },
]

function page(count: number): ReportPage {
  return {
    ...SUMMARIES[0]!,
    date_from: '2025-03-03',
    date_to: '2025-03-03',
    tz: 'UTC',
    from: '2025-03-03T00:00:00.000Z',
    to: '2025-03-04T00:00:00.000Z',
    columns: [
      { key: 'phone', label: 'Telefone', kind: 'text' },
      { key: 'answered', label: 'Atendida', kind: 'boolean' },
      { key: 'talk', label: 'Conversação', kind: 'duration' },
    ],
    totals: [
      { key: 'calls', label: 'Chamadas', kind: 'number', value: count },
      { key: 'average_talk', label: 'Conversação média', kind: 'duration', value: 3725 },
    ],
    chart: { type: 'bar', by: 'day', labels: ['2025-03-03'], series: [{ key: 'calls_answered', label: 'Chamadas atendidas', kind: 'number', values: [1] }] },
    count,
    results: [{ phone: '11987654321', answered: true, talk: 3725 }],
  }
}

const JOB: ReportJob = {
  id: 9,
  report: 'calls',
  title: 'Chamadas',
  filters: { date_from: '2025-03-01', date_to: '2025-03-03' },
  status: 'running',
  total_rows: 80_000,
  rows_written: 20_000,
  progress: 0.25,
  error: null,
  file_name: 'calls_2025-03-01_2025-03-03.csv',
  size: 0,
  created_at: '2025-03-03T13:00:00.000Z',
  finished_at: null,
  user: 1,
}

const PAGE = '/api/v1/report/pages/calls/'
const pageCalls = () => calls.filter((c) => c.method === 'GET' && c.path === PAGE)

beforeAll(setupDom)
beforeEach(() => toasts.set([]))
afterEach(cleanup)

describe('/reports/pages', () => {
  it('lists the reports and opens one', async () => {
    serve(SUPERVISOR, (c) => (c.path === '/api/v1/report/pages/' ? { body: { count: 2, results: SUMMARIES } } : undefined))
    await openApp('/reports/pages')
    const card = await screen.findByTestId('report-card-pauses')
    expect(card.textContent).toBe('PausasCada pausa.')
    expect(card.getAttribute('href')).toBe('/reports/pages/pauses')
  })

  it('sends the filters with the time zone, formats by kind and links the CSV', async () => {
    serve(SUPERVISOR, (c) => {
      if (c.path === '/api/v1/report/pages/') return { body: { count: 2, results: SUMMARIES } }
      if (c.path === '/api/v1/report/filters/')
        return { body: { team: [], agent: [{ id: 4, description: 'Bruno Agente' }], queue: [], chat_queue: [], campaign: [], classification: [] } }
      if (c.path === PAGE) return { body: page(1) }
      return undefined
    })
    await openApp('/reports/pages/calls')
    const row = await screen.findByTestId('report-row')
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['11987654321', 'Sim', '01:02:05'])
    expect(screen.getByTestId('report-total-average_talk').textContent).toBe('Conversação média01:02:05')
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone
    expect(Object.fromEntries(pageCalls().at(-1)!.url.searchParams)).toMatchObject({ tz, offset: '0', limit: '25' })

    await act(async () => fireEvent.change(screen.getByLabelText('De'), { target: { value: '2025-03-01' } }))
    await act(async () => fireEvent.click(screen.getByRole('combobox', { name: 'Agente' })))
    await act(async () => fireEvent.click(await screen.findByRole('option', { name: 'Bruno Agente' })))
    await act(async () => fireEvent.click(screen.getByTestId('report-apply')))
    await vi.waitFor(() => expect(Object.fromEntries(pageCalls().at(-1)!.url.searchParams)).toMatchObject({ date_from: '2025-03-01', agent: '4', tz }))
    const csv = screen.getByTestId('report-csv')
    const href = new URL(csv.getAttribute('href')!, 'http://localhost')
    expect(href.pathname).toBe('/api/v1/report/pages/calls/csv/')
    expect(Object.fromEntries(href.searchParams)).toMatchObject({ date_from: '2025-03-01', agent: '4', tz, lang: 'pt-BR' })
    expect(screen.getByRole('img', { name: 'Chamadas — Chamadas atendidas: 1' })).toBeTruthy()
  })

  it('queues an export too large to stream and opens the processing queue', async () => {
    serve(SUPERVISOR, (c) => {
      if (c.path === '/api/v1/report/pages/') return { body: { count: 2, results: SUMMARIES } }
      if (c.path === PAGE) return { body: page(80_000) }
      if (c.path === '/api/v1/report/processing-queue/' && c.method === 'POST') return { status: 201, body: JOB }
      if (c.path === '/api/v1/report/processing-queue/') return { body: { count: 1, results: [JOB] } }
      return undefined
    })
    const router = await openApp('/reports/pages/calls')
    await screen.findByTestId('report-row')
    await act(async () => fireEvent.click(screen.getByTestId('report-csv')))
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/reports/processing-queue'))
    const posted = calls.find((c) => c.method === 'POST' && c.path === '/api/v1/report/processing-queue/')!
    expect(posted.body).toMatchObject({ report: 'calls', filters: { tz: Intl.DateTimeFormat().resolvedOptions().timeZone } })
    const job = await screen.findByTestId('job-row')
    expect(within(job).getByTestId('job-status').textContent).toBe('Gerando')
    expect(job.textContent).toContain('20.000 de 80.000 linhas')
    expect(within(job).getByRole('progressbar', { name: 'Progresso' }).getAttribute('aria-valuenow')).toBe('25')
  })
})
