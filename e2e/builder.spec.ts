import { expect, test } from '@playwright/test'
import type { Locator, Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { apiAs } from './chat-helpers.ts'
import { menuItem, shot, signIn } from './helpers.ts'

// The builder (issue 19 item 4): an admin writes a query in its form, makes a number widget and a bar chart, a menu
// and a dashboard page holding both; the page appears in the side menu, opens at /dashboards/:id and shows the
// numbers the server computed. The fixtures' calls (e2e/fixtures/calls.ts) are a few hours old: the queries cover the
// last 7 days.

test.describe.configure({ timeout: 180_000 })
const LOAD = { timeout: 90_000 }

async function choose(page: Page, label: string, option: string, scope: Locator | Page = page) {
  await scope.getByRole('combobox', { name: label, exact: true }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

test('an admin builds a dashboard page with two widgets and finds it in the menu', async ({ page, browser }) => {
  const stamp = Date.now().toString(36)
  const admin = await apiAs(browser, DEMO.admin)
  await signIn(page, DEMO.admin)

  // The query form: a dataset, a period and a measure chosen from the catalogue (no SQL anywhere).
  await page.goto('/settings/system/builder/queries/create')
  await page.getByLabel('Descrição').fill(`Chamadas da semana ${stamp}`)
  await choose(page, 'Conjunto de dados', 'Chamadas')
  await choose(page, 'Período', 'Últimos 7 dias')
  await shot(page, 'builder-query-form')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/system\/builder\/queries\/?$/, LOAD)
  const findQuery = async () =>
    ((await admin.send('GET', '/api/v1/builder/queries/?limit=100')) as { results: { id: number; description: string; dataset: string; period: string }[] }).results.find(
      (q) => q.description === `Chamadas da semana ${stamp}`,
    )
  await expect.poll(findQuery, LOAD).toMatchObject({ dataset: 'calls', period: 'last_7_days' })
  const byAgent = (await admin.send('POST', '/api/v1/builder/queries/', {
    description: `Chamadas por agente ${stamp}`,
    dataset: 'calls',
    period: 'last_7_days',
    measure: 'count',
    group_by: 'agent',
    max_groups: 10,
  })) as { id: number }
  const expected = (await admin.send('POST', '/api/v1/builder/query/', { query: { dataset: 'calls', period: 'last_7_days' }, tz: 'America/Sao_Paulo' })) as {
    total: number
  }
  expect(expected.total).toBeGreaterThan(0)

  // The two widgets.
  await page.goto('/settings/system/builder/widgets/create')
  await page.getByLabel('Título').fill(`Total ${stamp}`)
  await choose(page, 'Consulta', `Chamadas da semana ${stamp}`)
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/system\/builder\/widgets\/?$/, LOAD)
  await page.goto('/settings/system/builder/widgets/create')
  await page.getByLabel('Título').fill(`Por agente ${stamp}`)
  await choose(page, 'Tipo', 'Barras')
  await choose(page, 'Consulta', `Chamadas por agente ${stamp}`)
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/system\/builder\/widgets\/?$/, LOAD)
  void byAgent

  // A menu, then the page in it with both widgets.
  await page.goto('/settings/system/builder/dashboards/menus/create')
  await page.getByLabel('Título no menu').fill(`Operação ${stamp}`)
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/system\/builder\/dashboards\/menus\/?$/, LOAD)

  await page.goto('/settings/system/builder/dashboards/pages/create')
  await page.getByLabel('Título').fill(`Visão geral ${stamp}`)
  await choose(page, 'Menu', `Operação ${stamp}`)
  await page.locator('[data-tab="widgets"]').click()
  for (const [title, width] of [
    [`Total ${stamp}`, '1/3 da largura'],
    [`Por agente ${stamp}`, '2/3 da largura'],
  ] as const) {
    await page.getByTestId('datatable-add').click()
    const dialog = page.getByTestId('datatable-dialog')
    await choose(page, 'Widget', title, dialog)
    await choose(page, 'Largura', width, dialog)
    await dialog.getByTestId('row-save').click()
    await expect(dialog).toHaveCount(0)
  }
  await expect(page.getByTestId('datatable-row')).toHaveCount(2)
  await shot(page, 'builder-page-form')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/system\/builder\/dashboards\/pages\/?$/, LOAD)

  // The menu shows it (a fresh load reads the builder's menu again); it opens with the numbers.
  await page.goto('/')
  const pages = (await admin.send('GET', '/api/v1/builder/dashboard-pages/?limit=100')) as { results: { id: number; description: string }[] }
  const built = pages.results.find((p) => p.description === `Visão geral ${stamp}`)!
  const group = menuItem(page, `builder-menu-dashboards-${(await admin.send('GET', '/api/v1/builder/dashboard-menus/?limit=100')).results.find((m: { description: string }) => m.description === `Operação ${stamp}`).id}`)
  await expect(group).toBeVisible(LOAD)
  await expect(group).toContainText(`Operação ${stamp}`)
  await group.click()
  await menuItem(page, `builder-page-dashboards-${built.id}`).click()
  await expect(page).toHaveURL(new RegExp(`/dashboards/${built.id}$`))
  await expect(page.getByRole('heading', { name: `Visão geral ${stamp}` })).toBeVisible(LOAD)
  const widgets = page.getByTestId('builder-widget')
  await expect(widgets).toHaveCount(2)
  await expect(widgets.nth(0)).toContainText(`Total ${stamp}`)
  await expect(page.getByTestId('builder-number')).toHaveText(new Intl.NumberFormat('pt-BR').format(expected.total), LOAD)
  await expect(widgets.nth(1).getByRole('img', { name: new RegExp(`^Por agente ${stamp} — .+: \\d`) })).toBeVisible(LOAD)
  await shot(page, 'builder-dashboard-page')
  await admin.close()
})
