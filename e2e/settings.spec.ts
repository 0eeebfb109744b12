import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// The settings catalogue as an admin uses it: list, create, edit, duplicate, delete, import; and the 403 an agent gets.
const rows = (page: import('@playwright/test').Page) => page.getByTestId('list-row')

test('an admin creates, edits, duplicates and deletes a pause type', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/settings/service/pauses')
  await expect(rows(page).first()).toBeVisible()
  await page.getByTestId('list-new').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/create/)
  await page.getByTestId('form-save').click()
  await expect(page.getByText('Este campo é obrigatório').first()).toBeVisible()
  await page.getByLabel('Descrição').fill('Pausa E2E')
  await page.getByLabel('Duração máxima (segundos)').fill('600')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
  await rows(page).first().getByTestId('row-edit').click()
  await expect(page.getByLabel('Descrição')).toHaveValue('Pausa E2E')
  await page.getByLabel('Descrição').fill('Pausa E2E editada')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page).first()).toContainText('Pausa E2E editada')
  await rows(page).first().getByTestId('row-duplicate').click()
  await expect(page).toHaveURL(/create\?duplicate_id=\d+/)
  await expect(page.getByLabel('Descrição')).toHaveValue('Pausa E2E editada')
  await expect(page.getByLabel('Duração máxima (segundos)')).toHaveValue('600')
  await page.getByLabel('Descrição').fill('Pausa E2E cópia')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/service\/pauses\/?$/)

  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(2)
  await rows(page).filter({ hasText: 'cópia' }).getByTestId('row-delete').click()
  await expect(page.getByText('Você realmente quer deletar?')).toBeVisible()
  await shot(page, 'settings-delete-confirm')
  await page.getByTestId('delete-confirm').click()
  await page.getByLabel('Filtrar').fill('Pausa E2E')
  await expect(rows(page)).toHaveCount(1)
})

test('a CSV import with a bad row shows the row errors and writes nothing', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/settings/service/blacklists')
  const before = await rows(page).count()
  await page.getByTestId('list-import').click()
  const csv = 'description,phones,direction\nBloqueio bom,5511999998888,both\nBloqueio ruim,123,both\n'
  await page.getByTestId('import-file').setInputFiles({ name: 'bloqueios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(page.getByTestId('import-start')).toBeEnabled()
  await page.getByTestId('import-start').click()
  await expect(page.getByTestId('import-error-row').first()).toBeVisible()
  await expect(page.getByTestId('import-errors')).toContainText('3')
  await shot(page, 'settings-import-errors')
  await page.keyboard.press('Escape')
  await page.reload()
  await expect(rows(page)).toHaveCount(before)
})

test('an agent without the permission gets the no-permission page on settings', async ({ page }) => {
  await signIn(page, DEMO.agent1)
  await page.goto('/settings/pabx/devices')
  await expect(page.getByText('Sem permissão')).toBeVisible()
})

for (const [prefix, lang] of [['', 'pt-BR'], ['/en-us', 'en-US'], ['/es-es', 'es-ES']] as const) {
  test(`the queue list and form render in ${lang}`, async ({ page }) => {
    await signIn(page, DEMO.admin, prefix)
    await page.goto(`${prefix}/settings/service/queues/telephony`)
    await expect(rows(page).first()).toBeVisible()
    await shot(page, `settings-queues-${lang}`)
    await rows(page).first().getByTestId('row-edit').click()
    await expect(page.getByTestId('form-save')).toBeVisible()
    await shot(page, `settings-queue-form-${lang}`)
  })
}
