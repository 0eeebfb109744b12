import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import type { ReportJob } from '../contract/api/reports.ts'
import { DEMO } from './fixtures/users.ts'
import { E2E_CALLS } from './fixtures/calls.ts'
import { apiAs } from './chat-helpers.ts'
import { menuItem, shot, signIn } from './helpers.ts'

// The report pages (issue 19 item 3): a supervisor opens the calls report from the menu, filters it (since yesterday,
// agent2's calls), reads the totals, chart and rows, downloads the CSV and finds the row in it; the processing queue
// shows an export job until it is ready and downloads it.

test.describe.configure({ timeout: 180_000 })
const LOAD = { timeout: 90_000 }

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

test('a supervisor filters the calls report and downloads its CSV', async ({ page }) => {
  await signIn(page, DEMO.supervisor)
  await menuItem(page, 'reports').click()
  await menuItem(page, 'report-pages').click()
  await expect(page.getByTestId('report-card-calls')).toBeVisible(LOAD)
  await expect(page.getByTestId('report-card-queue-service-level')).toContainText('Nível de serviço das filas')
  await shot(page, 'reports-list')

  await page.getByTestId('report-card-calls').click()
  await expect(page).toHaveURL(/\/reports\/pages\/calls$/)
  await expect(page.getByRole('heading', { name: 'Chamadas' })).toBeVisible(LOAD)
  // The fixtures' calls are a few hours old: from yesterday on covers them whatever the hour of the run.
  await page.locator('#report-filter-from').fill(day(-1))
  await page.getByTestId('report-filter-agent').click()
  await page.getByRole('option', { name: 'Bruno Agente' }).click()
  await page.getByTestId('report-apply').click()
  const missed = page.getByTestId('report-row').filter({ hasText: E2E_CALLS.missed.phone })
  await expect(missed).toBeVisible(LOAD)
  await expect(missed).toContainText('Bruno Agente')
  await expect(missed).toContainText('Não')
  // Only calls agent2 was part of: the recorded one (its first offer rang agent2) and the missed one at least; never
  // agent1's outbound call to a busy number.
  await expect(page.getByTestId('report-row').filter({ hasText: E2E_CALLS.busy.phone })).toHaveCount(0)
  await expect(page.getByTestId('report-total-calls')).toBeVisible()
  await expect(page.getByRole('img', { name: /^Chamadas — / })).toBeVisible(LOAD)
  await shot(page, 'reports-calls')

  const downloading = page.waitForEvent('download')
  await page.getByTestId('report-csv').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(`calls_${day(-1)}_${day(0)}.csv`)
  const csv = (await readFile((await download.path())!)).toString('utf8')
  const lines = csv.replace(/^\uFEFF/, '').split('\r\n')
  expect(lines[0]).toBe('Início;Sentido;Telefone;Agente;Fila;Atendida;Espera;Conversação;Duração;Desligada por;Classificação;ID da chamada')
  const row = lines.find((line) => line.includes(E2E_CALLS.missed.callId))
  expect(row).toBeDefined()
  expect(row!.split(';').slice(1, 6)).toEqual(['Entrada', E2E_CALLS.missed.phone, 'Bruno Agente', '', 'Não'])
  expect(csv).not.toContain(E2E_CALLS.busy.callId)

  // Another report, grouped by agent: the chart names the agents.
  await page.getByRole('link', { name: 'Todos os relatórios' }).click()
  await page.getByTestId('report-card-agent-productivity').click()
  await page.locator('#report-filter-from').fill(day(-1))
  await page.getByTestId('report-apply').click()
  await expect(page.getByTestId('report-row').filter({ hasText: 'Ana Agente' })).toBeVisible(LOAD)
  await expect(page.getByRole('img', { name: /^Produtividade dos agentes — / })).toBeVisible(LOAD)
  await shot(page, 'reports-agent-productivity')
})

test('the processing queue shows an export until it is ready and downloads it', async ({ page, browser }) => {
  const { send, close } = await apiAs(browser, DEMO.supervisor)
  let job: ReportJob
  try {
    job = (await send('POST', '/api/v1/report/processing-queue/', { report: 'call-steps', filters: { date_from: day(-1), date_to: day(0) } })) as ReportJob
  } finally {
    await close()
  }
  await signIn(page, DEMO.supervisor)
  await menuItem(page, 'reports').click()
  await menuItem(page, 'processing-queue').click()
  const row = page.getByTestId('job-row').filter({ hasText: 'Etapas das chamadas' })
  await expect(row.getByTestId('job-status')).toHaveText('Pronto', LOAD)
  await shot(page, 'reports-processing-queue')
  const downloading = page.waitForEvent('download')
  await row.getByTestId('job-download').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(job.file_name)
  const csv = (await readFile((await download.path())!)).toString('utf8')
  expect(csv).toContain(E2E_CALLS.recorded.callId)
  await row.getByRole('button', { name: 'Excluir Etapas das chamadas' }).click()
  await expect(row).toHaveCount(0)
})

test('a supervisor asks for a backup of the reports and downloads the archive', async ({ page }) => {
  await signIn(page, DEMO.supervisor)
  await menuItem(page, 'reports').click()
  await menuItem(page, 'reports-backup').click()
  await expect(page.getByRole('heading', { name: 'Backup dos relatórios' })).toBeVisible(LOAD)
  await page.locator('#backup-from').fill(day(-1))
  await page.locator('#backup-to').fill(day(0))
  await page.getByTestId('backup-create').click()
  const row = page.getByTestId('backup-row').first()
  await expect(row.getByTestId('backup-status')).toHaveText('Pronto', LOAD)
  await expect(row.getByTestId('backup-sha256')).toHaveText(/^[0-9a-f]{64}$/)
  await shot(page, 'reports-backup')
  const sha = await row.getByTestId('backup-sha256').textContent()
  const downloading = page.waitForEvent('download')
  await row.getByTestId('backup-download').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(`backup-reports_${day(-1)}_${day(0)}.tar.gz`)
  const archive = await readFile((await download.path())!)
  expect(createHash('sha256').update(archive).digest('hex')).toBe(sha)
  const tar = gunzipSync(archive).toString('latin1')
  expect(tar).toContain('calls.csv')
  expect(tar).toContain(E2E_CALLS.recorded.callId)
})
