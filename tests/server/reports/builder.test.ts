import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BuilderFilterChoices, BuilderMenu, BuilderPage, BuilderResult } from '../../../contract/api/builder.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { callRecords } from '../../../server/db/schema/index.ts'
import { catalogueMismatches, periodDays } from '../../../server/reports/builder.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import { demo } from '../call-control-helper.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'

// The builder (issue 19 item 4): queries, widgets and pages through the generic settings API, the page endpoint that
// runs each widget's query within the user's site and under the page's permission, and the query preview that refuses
// anything the catalogue does not offer.

const t = useTestApp()
const TZ = 'America/Sao_Paulo'
let admin: TestClient
let ids: { numberWidget: number; barWidget: number; page: number; menu: number; agent1: number; support: number }

const run = (client: TestClient, query: Record<string, unknown>) => client.post('/api/v1/builder/query/', { query, tz: TZ })

async function created(client: TestClient, path: string, body: Record<string, unknown>): Promise<number> {
  const response = await client.post(path, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id as number
}

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  admin = await signedIn(t.app, 'admin')
  // Three calls a minute ago: two to Suporte answered by agent1, one unanswered to Vendas.
  const startedAt = new Date(Date.now() - 60_000)
  const call = (queueId: number, userId: number, answered: boolean) => ({
    siteId: d.site.id,
    callId: `builder-${randomUUID()}`,
    step: 1,
    uid: randomUUID(),
    direction: 'inbound',
    callType: 20,
    kind: 'queue',
    phone: '11987654321',
    decision: { action: 'relay' },
    queueId,
    userId,
    queueStartedAt: startedAt,
    startedAt,
    answeredAt: answered ? new Date(startedAt.getTime() + 5_000) : null,
    endedAt: new Date(startedAt.getTime() + 35_000),
    answeredDuration: answered ? 30 : 0,
    totalDuration: 35,
  })
  await db.insert(callRecords).values([call(d.support.id, d.agent1.id, true), call(d.support.id, d.agent1.id, true), call(d.sales.id, d.agent2.id, false)])
  const count = await created(admin, '/api/v1/builder/queries/', {
    description: 'Chamadas na fila Suporte',
    dataset: 'calls',
    period: 'last_7_days',
    measure: 'count',
    group_by: 'none',
    queue: d.support.id,
  })
  const byQueue = await created(admin, '/api/v1/builder/queries/', {
    description: 'Chamadas por fila',
    dataset: 'calls',
    period: 'last_7_days',
    measure: 'count',
    group_by: 'queue',
    max_groups: 10,
  })
  const numberWidget = await created(admin, '/api/v1/builder/widgets/', { description: 'Suporte', type: 'number', query: count })
  const barWidget = await created(admin, '/api/v1/builder/widgets/', { description: 'Por fila', type: 'bar', query: byQueue })
  const menu = await created(admin, '/api/v1/builder/dashboard-menus/', { description: 'Painéis da operação', is_active: true, position: 1 })
  const page = await created(admin, '/api/v1/builder/dashboard-pages/', {
    description: 'Visão da manhã',
    is_active: true,
    menu,
    position: 0,
    permission: PERMISSIONS.viewDashboardSupervisor,
    refresh: 30,
    widgets: [
      { widget: numberWidget, width: 4, height: 1 },
      { widget: barWidget, width: 8, height: 2 },
    ],
  })
  ids = { numberWidget, barWidget, page, menu, agent1: d.agent1.id, support: d.support.id }
})

describe('the builder', () => {
  it('keeps its catalogue and the datasets in agreement', () => {
    expect(catalogueMismatches()).toEqual([])
    expect(periodDays('last_7_days', 'UTC', new Date('2025-03-10T12:00:00Z'))).toEqual({ from: '2025-03-04', to: '2025-03-10' })
    expect(periodDays('this_month', 'America/Sao_Paulo', new Date('2025-03-01T02:00:00Z'))).toEqual({ from: '2025-02-01', to: '2025-02-28' })
  })

  it('shows the page in the menu of those holding its permission, and its widgets with their numbers', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const menu = (await supervisor.get('/api/v1/builder/menu/')).json() as BuilderMenu
    const entry = menu.menus.find((m) => m.id === ids.menu)
    expect(entry).toMatchObject({ kind: 'dashboards', title: 'Painéis da operação', pages: [{ id: ids.page, kind: 'dashboards', title: 'Visão da manhã' }] })

    const response = await supervisor.get(`/api/v1/builder/pages/dashboards/${ids.page}/?tz=${encodeURIComponent(TZ)}`)
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json() as BuilderPage
    expect(page).toMatchObject({ id: ids.page, title: 'Visão da manhã', refresh: 30 })
    expect(page.widgets.map((w) => [w.type, w.width, w.height, w.error])).toEqual([
      ['number', 4, 1, null],
      ['bar', 8, 2, null],
    ])
    expect(page.widgets[0]!.result!.total).toBe(2)
    const bars = page.widgets[1]!.result!
    expect(bars.total).toBe(3)
    expect(bars.groups).toEqual([
      { label: 'Suporte', value: 2 },
      { label: 'Vendas', value: 1 },
    ])
  })

  it('answers 403 to a user without the page’s permission, and 403 to the preview without builder.view_query', async () => {
    const agent = await signedIn(t.app, 'agent1')
    const page = await agent.get(`/api/v1/builder/pages/dashboards/${ids.page}/`)
    expect(page.statusCode).toBe(403)
    const menu = (await agent.get('/api/v1/builder/menu/')).json() as BuilderMenu
    expect(menu.menus.some((m) => m.id === ids.menu)).toBe(false)
    const supervisor = await signedIn(t.app, 'supervisor')
    expect((await run(supervisor, { dataset: 'calls' })).statusCode).toBe(403)
    expect((await supervisor.get('/api/v1/builder/queries/')).statusCode).toBe(403)
  })

  it('refuses a query the catalogue does not offer with field errors (400), never running it', async () => {
    const bad = async (query: Record<string, unknown>) => {
      const response = await run(admin, query)
      expect(response.statusCode, response.body).toBe(400)
      return Object.keys(response.json())
    }
    expect(await bad({ dataset: 'pauses', group_by: 'queue' })).toEqual(['group_by'])
    expect(await bad({ dataset: 'pauses', queue: 1 })).toEqual(['queue'])
    expect(await bad({ dataset: 'calls', measure: 'sum' })).toEqual(['measure_field'])
    expect(await bad({ dataset: 'calls', measure: 'avg', measure_field: 'score' })).toEqual(['measure_field'])
    expect((await run(admin, { dataset: 'calls; drop table users' })).statusCode).toBe(400)
    expect((await run(admin, { dataset: 'calls', group_by: 'agent) from users --' })).statusCode).toBe(400)
    expect((await admin.post('/api/v1/builder/query/', { query: { dataset: 'calls' }, tz: 'Mars/Olympus' })).statusCode).toBe(400)
    const entity = await admin.post('/api/v1/builder/queries/', { description: 'x', dataset: 'tables', period: 'today', measure: 'count', group_by: 'none' })
    expect(entity.statusCode).toBe(400)
    expect(Object.keys(entity.json())).toEqual(['dataset'])
  })

  it('measures and groups: average talk of answered calls, by agent and by hour', async () => {
    const talk = (
      await run(admin, { dataset: 'calls', period: 'last_7_days', measure: 'sum', measure_field: 'talk', queue: ids.support })
    ).json() as BuilderResult
    expect(talk).toMatchObject({ total: 60, measure: { key: 'talk', kind: 'duration' } })
    const byAgent = (await run(admin, { dataset: 'calls', period: 'last_7_days', group_by: 'agent', agent: ids.agent1 })).json() as BuilderResult
    expect(byAgent.total).toBe(2)
    expect(byAgent.groups).toHaveLength(1)
    const byHour = (await run(admin, { dataset: 'calls', period: 'today', group_by: 'hour' })).json() as BuilderResult
    expect(byHour.groups).toHaveLength(24)
    expect(byHour.groups.reduce((n, g) => n + (g.value ?? 0), 0)).toBe(byHour.total)
    for (const dataset of ['steps', 'chats', 'messages', 'pauses', 'after-service', 'statuses', 'nps', 'leads', 'activities', 'agents', 'queues']) {
      const response = await run(admin, { dataset, period: 'last_30_days' })
      expect(response.statusCode, `${dataset} ${response.body}`).toBe(200)
    }
  })

  it('reads only the user’s own site: another site sees none of these calls and not the page (404)', async () => {
    const db = t.database.db
    const site = await createSite(db, { domain: 'outra-builder.example', name: 'Outra' })
    const group = await createGroup(db, site.id, 'Chefes', [PERMISSIONS.viewDashboardSupervisor, 'builder.view_query'])
    await createUser(db, { siteId: site.id, username: 'chefe', password: 'outra2025x', groupIds: [group] })
    const boss = new TestClient(t.app, { host: 'outra-builder.example' })
    expect((await boss.login('chefe', 'outra2025x')).statusCode).toBe(200)
    expect((await boss.get(`/api/v1/builder/pages/dashboards/${ids.page}/`)).statusCode).toBe(404)
    const result = (await run(boss, { dataset: 'calls', period: 'last_7_days' })).json() as BuilderResult
    expect(result.total).toBe(0)
    expect(((await boss.get('/api/v1/builder/menu/')).json() as BuilderMenu).menus).toEqual([])
  })

  it('refuses to delete a widget a page shows (409) and removes the page’s rows with the page', async () => {
    expect((await admin.delete(`/api/v1/builder/widgets/${ids.numberWidget}/`)).statusCode).toBe(409)
    expect((await admin.delete(`/api/v1/builder/dashboard-pages/${ids.page}/`)).statusCode).toBe(204)
    expect((await admin.delete(`/api/v1/builder/widgets/${ids.numberWidget}/`)).statusCode).toBe(204)
  })
})

describe('the builder’s settings lists', () => {
  it('lists the queries, widgets and menus an admin made (a field named like a paging parameter would hide them)', async () => {
    for (const path of ['/api/v1/builder/queries/', '/api/v1/builder/widgets/', '/api/v1/builder/dashboard-menus/']) {
      const response = await admin.get(`${path}?limit=100`)
      expect(response.statusCode, `${path} ${response.body}`).toBe(200)
      expect(response.json().count, `${path} ${response.body.slice(0, 400)}`).toBeGreaterThan(0)
    }
  })
})

describe('the builder’s filter bar, inside pages, sub-categories and home pages', () => {
  let f: { report: number; inside: number; pauses: number; menu: number; category: number; sub: number; everyone: number; mine: number; agent2: number }

  beforeAll(async () => {
    const d = await demo(t.database.db)
    const calls = await created(admin, '/api/v1/builder/queries/', {
      description: 'Todas as chamadas',
      dataset: 'calls',
      period: 'last_7_days',
      measure: 'count',
      group_by: 'none',
    })
    const pauses = await created(admin, '/api/v1/builder/queries/', {
      description: 'Pausas',
      dataset: 'pauses',
      period: 'last_7_days',
      measure: 'count',
      group_by: 'none',
    })
    const callsWidget = await created(admin, '/api/v1/builder/widgets/', { description: 'Chamadas', type: 'number', query: calls })
    const pausesWidget = await created(admin, '/api/v1/builder/widgets/', { description: 'Pausas', type: 'number', query: pauses })
    const menu = await created(admin, '/api/v1/builder/report-menus/', { description: 'Relatórios da operação', is_active: true, position: 0 })
    const category = await created(admin, '/api/v1/builder/report-categories/', { description: 'Filas', is_active: true, menu, position: 0 })
    const sub = await created(admin, '/api/v1/builder/report-categories/', {
      description: 'Suporte em detalhe',
      is_active: true,
      menu,
      parent: category,
      position: 0,
    })
    const reportPage = (description: string, widget: number, extra: Record<string, unknown> = {}) =>
      created(admin, '/api/v1/builder/report-pages/', {
        description,
        is_active: true,
        menu,
        position: 0,
        permission: PERMISSIONS.viewReports,
        refresh: 0,
        widgets: [{ widget, width: 6, height: 1 }],
        ...extra,
      })
    const inside = await reportPage('Pausas da semana', pausesWidget)
    const report = await reportPage('Chamadas da semana', callsWidget, { category: sub, inside_pages: [inside] })
    const dashboard = (description: string) =>
      created(admin, '/api/v1/builder/dashboard-pages/', {
        description,
        is_active: true,
        position: 0,
        permission: PERMISSIONS.viewDashboard,
        refresh: 0,
        widgets: [],
      })
    const everyone = await dashboard('Início de todos')
    const mine = await dashboard('Início do agent1')
    await created(admin, '/api/v1/builder/homepages/', { description: 'Todos', is_active: true, page: everyone, position: 0 })
    await created(admin, '/api/v1/builder/homepages/', { description: 'agent1', is_active: true, page: mine, user: d.agent1.id, position: 0 })
    f = { report, inside, pauses: pausesWidget, menu, category, sub, everyone, mine, agent2: d.agent2.id }
  })

  it('re-runs a page’s queries with the viewer’s period, agent and queue, offering only the filters its queries take', async () => {
    const get = async (query = '') => {
      const response = await admin.get(`/api/v1/builder/pages/reports/${f.report}/?tz=${encodeURIComponent(TZ)}${query}`)
      expect(response.statusCode, response.body).toBe(200)
      return response.json() as BuilderPage
    }
    const page = await get()
    expect(page.filters).toEqual({ period: true, fields: ['team', 'agent', 'queue', 'campaign', 'classification'] })
    expect(page.live).toBe(true)
    expect(page.widgets[0]!.result!.total).toBe(3)
    expect((await get(`&queue=${ids.support}`)).widgets[0]!.result!.total).toBe(2)
    expect((await get(`&agent=${f.agent2}`)).widgets[0]!.result!.total).toBe(1)
    expect((await get(`&agent=${f.agent2}&queue=${ids.support}`)).widgets[0]!.result!.total).toBe(0)
    const lastMonth = await get('&period=last_30_days')
    expect(lastMonth.widgets[0]!.result!.total).toBe(3)
    expect(Date.parse(lastMonth.widgets[0]!.result!.to) - Date.parse(lastMonth.widgets[0]!.result!.from)).toBeGreaterThan(29 * 86_400_000)

    // A page over pauses takes no queue: the bar offers team and agent, and a queue sent anyway changes nothing.
    const pauses = (await admin.get(`/api/v1/builder/pages/reports/${f.inside}/?queue=${ids.support}`)).json() as BuilderPage
    expect(pauses.filters).toEqual({ period: true, fields: ['team', 'agent'] })
    expect(pauses.widgets[0]!.error).toBeNull()

    // The bar's choices: the site's teams, agents and telephony queues, for anyone who may open a builder page.
    const agent1 = await signedIn(t.app, 'agent1')
    const choices = (await agent1.get('/api/v1/builder/filters/')).json() as BuilderFilterChoices
    expect(choices.queue.map((q) => q.description)).toEqual(expect.arrayContaining(['Suporte', 'Vendas']))
    expect(choices.agent.map((a) => a.id)).toEqual(expect.arrayContaining([ids.agent1, f.agent2]))

    for (const bad of ['period=forever', 'queue=abc', 'agent=0', 'team=-1']) {
      const response = await admin.get(`/api/v1/builder/pages/reports/${f.report}/?${bad}`)
      expect(response.statusCode, bad).toBe(400)
      expect(Object.keys(response.json()), bad).toEqual([bad.split('=')[0]])
    }
  })

  it('lists the page’s inside pages, and nests sub-categories in the menu', async () => {
    const page = (await admin.get(`/api/v1/builder/pages/reports/${f.report}/`)).json() as BuilderPage
    expect(page.inside).toEqual([{ id: f.inside, kind: 'reports', title: 'Pausas da semana' }])
    const menu = (await admin.get('/api/v1/builder/menu/')).json() as BuilderMenu
    const entry = menu.menus.find((m) => m.kind === 'reports' && m.id === f.menu)!
    expect(entry.pages).toEqual([{ id: f.inside, kind: 'reports', title: 'Pausas da semana' }])
    expect(entry.categories).toEqual([
      {
        id: f.category,
        title: 'Filas',
        pages: [],
        categories: [{ id: f.sub, title: 'Suporte em detalhe', pages: [{ id: f.report, kind: 'reports', title: 'Chamadas da semana' }], categories: [] }],
      },
    ])
    // An inactive parent hides its sub-categories.
    expect((await admin.patch(`/api/v1/builder/report-categories/${f.category}/`, { is_active: false })).statusCode).toBe(200)
    const hidden = (await admin.get('/api/v1/builder/menu/')).json() as BuilderMenu
    expect(hidden.menus.find((m) => m.kind === 'reports' && m.id === f.menu)!.categories).toEqual([])
    expect((await admin.patch(`/api/v1/builder/report-categories/${f.category}/`, { is_active: true })).statusCode).toBe(200)
  })

  it('gives each user the most specific home page: agent1 its own, the others everyone’s', async () => {
    const agent1 = await signedIn(t.app, 'agent1')
    const agent2 = await signedIn(t.app, 'agent2')
    expect(((await agent1.get('/api/v1/builder/menu/')).json() as BuilderMenu).home).toEqual({ id: f.mine, kind: 'dashboards', title: 'Início do agent1' })
    expect(((await agent2.get('/api/v1/builder/menu/')).json() as BuilderMenu).home).toEqual({ id: f.everyone, kind: 'dashboards', title: 'Início de todos' })
    // A home page turned off leaves the default home.
    expect((await admin.patch(`/api/v1/builder/dashboard-pages/${f.everyone}/`, { is_active: false })).statusCode).toBe(200)
    expect(((await agent2.get('/api/v1/builder/menu/')).json() as BuilderMenu).home).toBeNull()
  })
})
