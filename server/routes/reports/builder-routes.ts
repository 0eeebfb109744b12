import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type {
  BuilderChoice,
  BuilderDataset,
  BuilderFilterChoices,
  BuilderMenu,
  BuilderMenuCategory,
  BuilderMenuEntry,
  BuilderMenuPage,
  BuilderPage,
  BuilderResult,
  BuilderWidgetData,
  BuilderWidgetType,
  ViewerFilter,
} from '../../../contract/api/builder.ts'
import {
  BUILDER_CATALOGUE,
  BUILDER_PATHS,
  BUILDER_RESULTS_FRESH_MS,
  BuilderPageParams,
  BuilderPageQuery,
  BuilderQuery,
  BuilderRunBody,
  LIVE_DATASETS,
  QUERY_WIDGETS,
  VIEWER_FILTERS,
  VIEWER_QUEUE_DATASETS,
} from '../../../contract/api/builder.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { detailError, fieldErrors, HttpError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { filterIdErrors, runQuery } from '../../reports/builder.ts'
import { sharedResults } from '../../reports/shared-results.ts'

// The builder's pages (contract/api/builder.ts): the menu of the pages a user may open, one page with its widgets'
// numbers, and a query run whole (the query form's preview). Pages and queries are read from the settings tables the
// registry generates (contract/entities/builder.ts), always within the signed-in user's site.

type Raw = Record<string, unknown>
type Kind = 'dashboards' | 'reports'
const TABLES = {
  dashboards: {
    pages: 'builder_dashboard_pages',
    widgets: 'builder_dashboard_pages_widgets',
    inside: 'builder_dashboard_pages_inside_pages',
    owner: 'dashboardpage_id',
    menus: 'builder_dashboard_menus',
    categories: 'builder_dashboard_categories',
  },
  reports: {
    pages: 'builder_report_pages',
    widgets: 'builder_report_pages_widgets',
    inside: 'builder_report_pages_inside_pages',
    owner: 'reportpage_id',
    menus: 'builder_report_menus',
    categories: 'builder_report_categories',
  },
} as const

/** Any of the page permissions lets a user ask; each page then needs its own. */
const VIEWERS = [PERMISSIONS.viewDashboard, PERMISSIONS.viewDashboardSupervisor, PERMISSIONS.viewReports] as const

export async function builderRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const rows = async (query: ReturnType<typeof sql>): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows
  // A page's widgets: one computation per query, time zone and language per window, whoever views (the page checked
  // the viewer's permission and filters first; a query's numbers depend on the site, not the user).
  const pageResults = sharedResults<BuilderResult>(BUILDER_RESULTS_FRESH_MS)

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
        sql`select id, description, menu_id, parent_id from ${sql.identifier(tb.categories)} where site_id = ${siteId} and is_active order by position, lower(description), id`,
      )
      const page = (p: Raw): BuilderMenuPage => ({ id: Number(p.id), kind, title: String(p.description) })
      // A category and its sub-categories (an inactive parent hides its children; a cycle is cut by `seen`).
      const seen = new Set<unknown>()
      const category = (c: Raw): BuilderMenuCategory => {
        seen.add(c.id)
        return {
          id: Number(c.id),
          title: String(c.description),
          pages: visible.filter((p) => p.category_id === c.id && p.category_menu_id === c.menu_id).map(page),
          categories: categoryRows
            .filter((sub) => sub.parent_id === c.id && !seen.has(sub.id))
            .map(category)
            .filter(filled),
        }
      }
      const filled = (c: BuilderMenuCategory) => c.pages.length > 0 || c.categories.length > 0
      for (const menu of menuRows) {
        const direct = visible.filter((p) => p.category_id === null && p.menu_id === menu.id).map(page)
        const categories = categoryRows
          .filter((c) => c.menu_id === menu.id && c.parent_id === null)
          .map(category)
          .filter(filled)
        if (direct.length || categories.length) menus.push({ id: Number(menu.id), kind, title: String(menu.description), pages: direct, categories })
      }
    }
    // The user's home page: the user's own, else the team's, else everyone's; active and with its permission.
    const { id: userId, teamId } = request.auth!.user
    const homes = await rows(sql`select h.page_id, p.description, p.permission from builder_homepages h
        join builder_dashboard_pages p on p.id = h.page_id and p.site_id = h.site_id and p.is_active
      where h.site_id = ${siteId} and h.is_active
        and (h.user_id = ${userId} or (h.user_id is null and (h.team_id is null or h.team_id = ${teamId ?? 0})))
      order by (h.user_id is null), (h.team_id is null), h.position, h.id`)
    const home = homes.find((h) => roles.includes(String(h.permission)))
    return { menus, home: home ? { id: Number(home.page_id), kind: 'dashboards', title: String(home.description) } : null }
  })

  app.get(BUILDER_PATHS.page, { config: { permission: VIEWERS } }, async (request): Promise<BuilderPage> => {
    const { kind, id } = parseInput(BuilderPageParams, request.params, request.lang)
    const viewer = parseInput(BuilderPageQuery, request.query, request.lang)
    const { tz } = viewer
    const { siteId } = request.auth!.user
    const tb = TABLES[kind as Kind]
    const [page] = await rows(
      sql`select id, description, permission, refresh from ${sql.identifier(tb.pages)} where id = ${id} and site_id = ${siteId} and is_active`,
    )
    if (!page) throw detailError(404, 'notFound', request.lang)
    if (!request.auth!.roles.includes(String(page.permission))) throw detailError(403, 'permissionDenied', request.lang)
    // The viewer's ids must be the site's (another site's campaign or an unknown id: 400, never numbers).
    const unknown = await filterIdErrors(db, siteId, viewer, request.lang)
    if (Object.keys(unknown).length) throw fieldErrors(unknown)
    const placed = await rows(sql`select pw.widget_id, pw.width, pw.height, w.description, w.type,
        q.dataset, q.period, q.measure, q.measure_field, q.group_by, q.max_groups, q.team_id, q.agent_id, q.queue_id, q.chat_queue_id, q.campaign_id, q.classification_id
      from ${sql.identifier(tb.widgets)} pw
        join builder_widgets w on w.id = pw.widget_id and w.site_id = pw.site_id
        left join builder_queries q on q.id = w.query_id and q.site_id = w.site_id
      where pw.site_id = ${siteId} and pw.${sql.identifier(tb.owner)} = ${id}
      order by pw.position, pw.id`)
    const widgets: BuilderWidgetData[] = []
    const offered = new Set<ViewerFilter>()
    let hasQuery = false
    let live = false
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
        chat_queue: w.chat_queue_id,
        campaign: w.campaign_id,
        classification: w.classification_id,
      })
      if (!stored.success) {
        widgets.push({ ...base, result: null, error: 'invalid' })
        continue
      }
      // The viewer's filter bar replaces the stored period and, where the dataset takes them, its team, agent, queue
      // (a telephony queue: not NPS's), chat queue, campaign and classification.
      const query = { ...stored.output }
      const takes = BUILDER_CATALOGUE[query.dataset].filters
      hasQuery = true
      if (LIVE_DATASETS.includes(query.dataset as BuilderDataset)) live = true
      if (viewer.period) query.period = viewer.period
      for (const key of VIEWER_FILTERS) {
        if (!takes.includes(key) || (key === 'queue' && !VIEWER_QUEUE_DATASETS.includes(query.dataset))) continue
        offered.add(key)
        if (viewer[key] != null) query[key] = viewer[key]
      }
      try {
        const key = JSON.stringify([siteId, tz, request.lang, query])
        widgets.push({ ...base, result: await pageResults.get(key, () => runQuery(db, siteId, query, tz, request.lang)), error: null })
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        widgets.push({
          ...base,
          result: null,
          error:
            Object.values(error.body as Record<string, unknown>)
              .flat()
              .map(String)[0] ?? 'invalid',
        })
      }
    }
    // The live grids follow the socket themselves; a page of them alone needs no refresh of its queries.
    const inside = await rows(sql`select p.id, p.description, p.permission from ${sql.identifier(tb.inside)} l
        join ${sql.identifier(tb.pages)} p on p.id = l.target_id and p.site_id = l.site_id and p.is_active
      where l.site_id = ${siteId} and l.${sql.identifier(tb.owner)} = ${id} and p.id <> ${id}
      order by p.position, lower(p.description), p.id`)
    return {
      id: Number(page.id),
      kind: kind as Kind,
      title: String(page.description),
      refresh: Number(page.refresh),
      widgets,
      filters: { period: hasQuery, fields: VIEWER_FILTERS.filter((key) => offered.has(key)) },
      live,
      inside: inside
        .filter((p) => request.auth!.roles.includes(String(p.permission)))
        .map((p) => ({ id: Number(p.id), kind: kind as Kind, title: String(p.description) })),
    }
  })

  // The filter bar's choices, for whoever may open a builder page.
  app.get(BUILDER_PATHS.filters, { config: { permission: VIEWERS } }, async (request): Promise<BuilderFilterChoices> => {
    const { siteId } = request.auth!.user
    const list = async (query: ReturnType<typeof sql>): Promise<BuilderChoice[]> =>
      (await rows(query)).map((r) => ({ id: Number(r.id), description: String(r.description ?? '') }))
    return {
      team: await list(sql`select id, name as description from teams where site_id = ${siteId} order by lower(name), id`),
      agent: await list(
        sql`select id, coalesce(nullif(trim(first_name || ' ' || last_name), ''), username) as description from users where site_id = ${siteId} and is_active order by 2, id`,
      ),
      queue: await list(sql`select id, description from pabx_queues where site_id = ${siteId} order by lower(description), id`),
      chat_queue: await list(sql`select id, description from chat_queues where site_id = ${siteId} order by lower(description), id`),
      campaign: await list(sql`select id, description from service_shipments_campaigns where site_id = ${siteId} order by lower(description), id`),
      classification: await list(sql`select id, description from service_classifications where site_id = ${siteId} order by lower(description), id`),
    }
  })

  // The query form's preview: whoever may read the builder's queries may run one.
  app.post(BUILDER_PATHS.run, { config: { permission: 'builder.view_query' as never } }, async (request) => {
    const body = parseInput(BuilderRunBody, request.body, request.lang)
    return runQuery(db, request.auth!.user.siteId, body.query, body.tz, request.lang)
  })
}
