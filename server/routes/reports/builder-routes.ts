import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { BuilderMenu, BuilderMenuEntry, BuilderPage, BuilderWidgetData, BuilderWidgetType } from '../../../contract/api/builder.ts'
import { BUILDER_PATHS, BuilderPageParams, BuilderPageQuery, BuilderQuery, BuilderRunBody, QUERY_WIDGETS } from '../../../contract/api/builder.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { detailError, HttpError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { runQuery } from '../../reports/builder.ts'

// The builder's pages (contract/api/builder.ts): the menu of the pages a user may open, one page with its widgets'
// numbers, and a query run whole (the query form's preview). Pages and queries are read from the settings tables the
// registry generates (contract/entities/builder.ts), always within the signed-in user's site.

type Raw = Record<string, unknown>
type Kind = 'dashboards' | 'reports'
const TABLES = {
  dashboards: { pages: 'builder_dashboard_pages', widgets: 'builder_dashboard_pages_widgets', owner: 'dashboardpage_id', menus: 'builder_dashboard_menus', categories: 'builder_dashboard_categories' },
  reports: { pages: 'builder_report_pages', widgets: 'builder_report_pages_widgets', owner: 'reportpage_id', menus: 'builder_report_menus', categories: 'builder_report_categories' },
} as const

/** Any of the page permissions lets a user ask; each page then needs its own. */
const VIEWERS = [PERMISSIONS.viewDashboard, PERMISSIONS.viewDashboardSupervisor, PERMISSIONS.viewReports] as const

export async function builderRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const rows = async (query: ReturnType<typeof sql>): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows

  app.get(BUILDER_PATHS.menu, { config: { permission: VIEWERS } }, async (request): Promise<BuilderMenu> => {
    const { siteId } = request.auth!.user
    const roles = request.auth!.roles
    const menus: BuilderMenuEntry[] = []
    for (const kind of ['dashboards', 'reports'] as const) {
      const tb = TABLES[kind]
      const pages = await rows(sql`select p.id, p.description, p.menu_id, p.category_id, c.menu_id as category_menu_id, p.permission
        from ${sql.identifier(tb.pages)} p left join ${sql.identifier(tb.categories)} c on c.id = p.category_id and c.site_id = p.site_id and c.is_active
        where p.site_id = ${siteId} and p.is_active order by p.position, lower(p.description), p.id`)
      const visible = pages.filter((p) => roles.includes(String(p.permission)))
      if (!visible.length) continue
      const menuRows = await rows(
        sql`select id, description from ${sql.identifier(tb.menus)} where site_id = ${siteId} and is_active order by position, lower(description), id`,
      )
      const categoryRows = await rows(
        sql`select id, description, menu_id from ${sql.identifier(tb.categories)} where site_id = ${siteId} and is_active order by position, lower(description), id`,
      )
      for (const menu of menuRows) {
        const page = (p: Raw) => ({ id: Number(p.id), kind, title: String(p.description) })
        const direct = visible.filter((p) => p.category_id === null && p.menu_id === menu.id).map(page)
        const categories = categoryRows
          .filter((c) => c.menu_id === menu.id)
          .map((c) => ({ id: Number(c.id), title: String(c.description), pages: visible.filter((p) => p.category_id === c.id && p.category_menu_id === menu.id).map(page) }))
          .filter((c) => c.pages.length)
        if (direct.length || categories.length) menus.push({ id: Number(menu.id), kind, title: String(menu.description), pages: direct, categories })
      }
    }
    return { menus }
  })

  app.get(BUILDER_PATHS.page, { config: { permission: VIEWERS } }, async (request): Promise<BuilderPage> => {
    const { kind, id } = parseInput(BuilderPageParams, request.params, request.lang)
    const { tz } = parseInput(BuilderPageQuery, request.query, request.lang)
    const { siteId } = request.auth!.user
    const tb = TABLES[kind as Kind]
    const [page] = await rows(
      sql`select id, description, permission, refresh from ${sql.identifier(tb.pages)} where id = ${id} and site_id = ${siteId} and is_active`,
    )
    if (!page) throw detailError(404, 'notFound', request.lang)
    if (!request.auth!.roles.includes(String(page.permission))) throw detailError(403, 'permissionDenied', request.lang)
    const placed = await rows(sql`select pw.widget_id, pw.width, pw.height, w.description, w.type,
        q.dataset, q.period, q.measure, q.measure_field, q.group_by, q.max_groups, q.team_id, q.agent_id, q.queue_id, q.campaign_id, q.classification_id
      from ${sql.identifier(tb.widgets)} pw
        join builder_widgets w on w.id = pw.widget_id and w.site_id = pw.site_id
        left join builder_queries q on q.id = w.query_id and q.site_id = w.site_id
      where pw.site_id = ${siteId} and pw.${sql.identifier(tb.owner)} = ${id}
      order by pw.position, pw.id`)
    const widgets: BuilderWidgetData[] = []
    for (const w of placed) {
      const type = String(w.type) as BuilderWidgetType
      const base = { id: Number(w.widget_id), title: String(w.description), type, width: Number(w.width), height: Number(w.height) }
      if (!QUERY_WIDGETS.includes(type)) {
        widgets.push({ ...base, result: null, error: null })
        continue
      }
      // A stored query read back through the same schema as a preview's, so both are checked alike.
      const stored = v.safeParse(BuilderQuery, {
        dataset: w.dataset,
        period: w.period,
        measure: w.measure,
        measure_field: w.measure_field || null,
        group_by: w.group_by,
        limit: w.max_groups,
        team: w.team_id,
        agent: w.agent_id,
        queue: w.queue_id,
        campaign: w.campaign_id,
        classification: w.classification_id,
      })
      if (!stored.success) {
        widgets.push({ ...base, result: null, error: 'invalid' })
        continue
      }
      try {
        widgets.push({ ...base, result: await runQuery(db, siteId, stored.output, tz, request.lang), error: null })
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        widgets.push({ ...base, result: null, error: Object.values(error.body as Record<string, unknown>).flat().map(String)[0] ?? 'invalid' })
      }
    }
    return { id: Number(page.id), kind: kind as Kind, title: String(page.description), refresh: Number(page.refresh), widgets }
  })

  // The query form's preview: whoever may read the builder's queries may run one.
  app.post(BUILDER_PATHS.run, { config: { permission: 'builder.view_query' as never } }, async (request) => {
    const body = parseInput(BuilderRunBody, request.body, request.lang)
    return runQuery(db, request.auth!.user.siteId, body.query, body.tz, request.lang)
  })
}
