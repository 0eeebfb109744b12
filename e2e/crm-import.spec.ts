import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// Leads come in from a CSV by a saved layout (issue 17): the admin uploads a small file into a mailing, watches the
// import's progress bar reach the end, and downloads the rows that failed.
test('imports a CSV of leads by a layout, with progress and a downloadable error file', async ({ page }) => {
  await signIn(page, DEMO.admin)
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value
  const headers = { 'X-CSRFToken': csrf }
  const mailing = await page.request.post('/api/v1/crm/mailings/', { data: { description: 'Campanha e2e' }, headers })
  expect(mailing.status()).toBe(201)
  const layout = await page.request.post('/api/v1/service/shipments-layouts/', {
    data: { description: 'Layout e2e', name_column: 'Nome', surname_column: 'Sobrenome', phone_columns: 'Celular' },
    headers,
  })
  expect(layout.status()).toBe(201)

  await page.goto('/leads')
  await page.getByTestId('list-import').click()
  const dialog = page.getByTestId('lead-import-dialog')
  await dialog.getByTestId('lead-import-mailing').click()
  await page.getByRole('option', { name: 'Campanha e2e' }).click()
  await dialog.getByTestId('lead-import-layout').click()
  await page.getByRole('option', { name: 'Layout e2e' }).click()
  const csv = 'Nome;Sobrenome;Celular;Cidade\nAna;Souza;(11) 98765-4321;Recife\nBruno;Lima;123;Natal\nCarla;Reis;21 98765-1234;Olinda\n'
  await dialog.getByTestId('lead-import-file').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await dialog.getByTestId('lead-import-start').click()
  await expect(dialog.getByTestId('lead-import-progress')).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  await expect(dialog.getByTestId('lead-import-result')).toContainText('2 leads importados; 1 linhas com erro.')
  await shot(page, 'crm-lead-import-done')

  const download = page.waitForEvent('download')
  await dialog.getByTestId('lead-import-errors').click()
  const file = await (await download).path()
  const text = (await import('node:fs')).readFileSync(file, 'utf8')
  expect(text).toContain('3;phones;Telefone inválido: 123;Bruno;Lima;123;Natal')

  await dialog.getByTestId('lead-import-close').click()
  await expect(page.getByTestId('list-row').filter({ hasText: 'Carla' })).toBeVisible()
  await shot(page, 'crm-leads-list')
})
