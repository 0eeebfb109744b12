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
    (
      (await admin.send('GET', '/api/v1/builder/queries/?limit=100')) as { results: { id: number; description: string; dataset: string; period: string }[] }
    ).results.find((q) => q.description === `Chamadas da semana ${stamp}`)
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
  const group = menuItem(
    page,
    `builder-menu-dashboards-${(await admin.send('GET', '/api/v1/builder/dashboard-menus/?limit=100')).results.find((m: { description: string }) => m.description === `Operação ${stamp}`).id}`,
  )
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

test('a report page in a sub-category: its filter bar runs the page again, an inside page is a link away, and a home page replaces /', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36)
  const admin = await apiAs(browser, DEMO.admin)
  const post = async (path: string, body: Record<string, unknown>) => ((await admin.send('POST', path, body)) as { id: number }).id
  const calls = await post('/api/v1/builder/queries/', {
    description: `Chamadas ${stamp}`,
    dataset: 'calls',
    period: 'last_7_days',
    measure: 'count',
    group_by: 'none',
  })
  const byQueue = await post('/api/v1/builder/queries/', {
    description: `Por fila ${stamp}`,
    dataset: 'calls',
    period: 'last_7_days',
    measure: 'count',
    group_by: 'queue',
  })
  const total = await post('/api/v1/builder/widgets/', { description: `Chamadas ${stamp}`, type: 'number', query: calls })
  const table = await post('/api/v1/builder/widgets/', { description: `Chamadas por fila ${stamp}`, type: 'table', query: byQueue })
  const menu = await post('/api/v1/builder/report-menus/', { description: `Gestão ${stamp}`, is_active: true, position: 0 })
  const category = await post('/api/v1/builder/report-categories/', { description: `Atendimento ${stamp}`, is_active: true, menu, position: 0 })
  const sub = await post('/api/v1/builder/report-categories/', { description: `Telefonia ${stamp}`, is_active: true, menu, parent: category, position: 0 })
  const reportPage = (description: string, widgets: { widget: number; width: number; height: number }[], extra: Record<string, unknown> = {}) =>
    post('/api/v1/builder/report-pages/', { description, is_active: true, menu, position: 0, permission: 'sites.view_reports', refresh: 0, widgets, ...extra })
  const inside = await reportPage(`Detalhe ${stamp}`, [{ widget: table, width: 12, height: 2 }])
  const report = await reportPage(
    `Chamadas da semana ${stamp}`,
    [
      { widget: total, width: 4, height: 2 },
      { widget: table, width: 8, height: 2 },
    ],
    { category: sub, inside_pages: [inside] },
  )
  type Choice = { id: number; description: string }
  const choices = (await admin.send('GET', '/api/v1/builder/filters/')) as { agent: Choice[]; classification: Choice[] }
  const agent1 = choices.agent.find((a) => a.description.startsWith('Ana '))!
  // A classification of the demo site (the seed makes some): the bar's classification select narrows the calls.
  const classification = choices.classification[0]!
  const tz = 'America/Sao_Paulo'
  const count = async (query: Record<string, unknown>) =>
    ((await admin.send('POST', '/api/v1/builder/query/', { query: { dataset: 'calls', ...query }, tz })) as { total: number }).total
  const all = await count({ period: 'last_7_days' })
  const ofAgent = await count({ period: 'last_7_days', agent: agent1.id })
  const yesterday = await count({ period: 'yesterday', agent: agent1.id })
  const classified = await count({ period: 'last_7_days', agent: agent1.id, classification: classification.id })

  // The side menu: the menu, its category, the sub-category inside it, the page.
  await signIn(page, DEMO.admin)
  await page.goto('/reports/pages')
  await menuItem(page, `builder-menu-reports-${menu}`).click()
  await menuItem(page, `builder-category-reports-${category}`).click()
  await menuItem(page, `builder-category-reports-${sub}`).click()
  await menuItem(page, `builder-page-reports-${report}`).click()
  await expect(page).toHaveURL(new RegExp(`/reports/pages/${report}$`))
  const number = page.getByTestId('builder-number')
  const format = (n: number) => new Intl.NumberFormat('pt-BR').format(n)
  await expect(number).toHaveText(format(all), LOAD)

  // The filter bar offers what the page's queries take; an agent, then a period, run the page again.
  const bar = page.getByTestId('builder-filters')
  await expect(bar.getByTestId('builder-filter-team')).toBeVisible()
  await expect(bar.getByTestId('builder-filter-queue')).toBeVisible()
  await bar.getByTestId('builder-filter-agent').click()
  await page.getByRole('option', { name: agent1.description, exact: true }).click()
  await expect(number).toHaveText(format(ofAgent), LOAD)
  await bar.getByTestId('builder-filter-period').click()
  await page.getByRole('option', { name: 'Ontem', exact: true }).click()
  await expect(number).toHaveText(format(yesterday), LOAD)
  await bar.getByTestId('builder-filter-period').click()
  await page.getByRole('option', { name: 'Últimos 7 dias', exact: true }).click()
  await expect(number).toHaveText(format(ofAgent), LOAD)
  // Calls take a campaign and a classification too (no chat queue: no query here reads chats).
  await expect(bar.getByTestId('builder-filter-campaign')).toBeVisible()
  await expect(bar.getByTestId('builder-filter-chat_queue')).toHaveCount(0)
  await bar.getByTestId('builder-filter-classification').click()
  await page.getByRole('option', { name: classification.description, exact: true }).click()
  await expect(bar.getByTestId('builder-filter-classification')).toHaveText(classification.description)
  await expect(page.getByTestId('builder-page')).toHaveAttribute('data-fetching', 'false', LOAD)
  await expect(number).toHaveText(format(classified), LOAD)
  await bar.getByTestId('builder-filter-classification').click()
  await page.getByRole('option', { name: 'Todas', exact: true }).click()
  await expect(number).toHaveText(format(ofAgent), LOAD)
  await shot(page, 'builder-report-filter-bar')
  await bar.getByTestId('builder-filters-clear').click()
  await expect(number).toHaveText(format(all), LOAD)

  // The inside page, one link away.
  await page
    .getByTestId('builder-inside')
    .getByRole('link', { name: `Detalhe ${stamp}` })
    .click()
  await expect(page).toHaveURL(new RegExp(`/reports/pages/${inside}$`))
  await expect(page.getByRole('heading', { name: `Detalhe ${stamp}` })).toBeVisible(LOAD)

  // A home page for the admin: / shows it instead of the default home; removed, the default comes back.
  const dashboard = await post('/api/v1/builder/dashboard-pages/', {
    description: `Início ${stamp}`,
    is_active: true,
    position: 0,
    permission: 'sites.view_dashboard',
    refresh: 0,
    widgets: [{ widget: total, width: 6, height: 1 }],
  })
  const me = (await admin.send('GET', '/api/v1/business/profile/')) as { id: number }
  const home = await post('/api/v1/builder/homepages/', { description: `Admin ${stamp}`, is_active: true, page: dashboard, user: me.id, position: 0 })
  await page.goto('/')
  await expect(page.getByRole('heading', { name: `Início ${stamp}` })).toBeVisible(LOAD)
  await expect(page.getByText('Sua página inicial')).toBeVisible()
  await admin.send('PATCH', `/api/v1/builder/homepages/${home}/`, { is_active: false })
  await page.goto('/')
  await expect(page.getByRole('heading', { name: `Início ${stamp}` })).toHaveCount(0, LOAD)
  await admin.close()
})

test('a live dashboard page asks again when the service socket announces a change: agent1’s break counts at once, no reload', async ({ page, browser }) => {
  const stamp = Date.now().toString(36)
  const admin = await apiAs(browser, DEMO.admin)
  const post = async (path: string, body: Record<string, unknown>) => ((await admin.send('POST', path, body)) as { id: number }).id
  const pauses = await post('/api/v1/builder/queries/', {
    description: `Pausas ${stamp}`,
    dataset: 'pauses',
    period: 'today',
    measure: 'count',
    group_by: 'none',
  })
  const widget = await post('/api/v1/builder/widgets/', { description: `Pausas hoje ${stamp}`, type: 'number', query: pauses })
  // Refresh 2: at most one new request every 2 seconds, and only when something changed.
  const live = await post('/api/v1/builder/dashboard-pages/', {
    description: `Ao vivo ${stamp}`,
    is_active: true,
    position: 0,
    permission: 'sites.view_dashboard_supervisor',
    refresh: 2,
    widgets: [{ widget, width: 4, height: 1 }],
  })
  await signIn(page, DEMO.supervisor)
  const requests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes(`/api/v1/builder/pages/dashboards/${live}/`)) requests.push(request.url())
  })
  await page.goto(`/dashboards/${live}`)
  await expect(page.getByText('Ao vivo: atualiza quando algo muda, no máximo a cada 2 segundos.')).toBeVisible(LOAD)
  const number = page.getByTestId('builder-number')
  await expect(number).toHaveText(/^\d+$/, LOAD)
  const before = Number(await number.textContent())

  const agent = await apiAs(browser, DEMO.agent1)
  const profile = (await agent.send('GET', '/api/v1/business/profile/')) as { pauses: { id: number; description: string }[] }
  const coffee = profile.pauses.find((p) => p.description === 'Café')!
  expect((await agent.send('POST', '/api/v1/agent/pause/start/', { pause_id: coffee.id })) as { success: boolean }).toMatchObject({ success: true })
  await expect(number).toHaveText(String(before + 1), { timeout: 15_000 })
  // The same page asked again (no reload: the first answer and at least one more).
  expect(requests.length).toBeGreaterThanOrEqual(2)
  await agent.send('POST', '/api/v1/agent/pause/stop/', {})
  await agent.close()
  await admin.close()
})
