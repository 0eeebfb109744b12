import type { FastifyInstance } from 'fastify'
import type { DashboardToday } from '../../../contract/api/dashboard.ts'
import { DASHBOARD_PATHS, DashboardTodayQuery } from '../../../contract/api/dashboard.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { dashboardToday } from '../../reports/today.ts'

// GET /v1/dashboard/today/ (contract/api/dashboard.ts): the home page's day. Anyone who sees the home page
// (sites.view_dashboard) gets their own; the site's day needs sites.view_dashboard_supervisor (403 otherwise).
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.get(DASHBOARD_PATHS.today, { config: { permission: PERMISSIONS.viewDashboard } }, async (request): Promise<DashboardToday> => {
    const query = parseInput(DashboardTodayQuery, request.query, request.lang)
    const auth = request.auth!
    if (query.scope === 'site' && !auth.roles.includes(PERMISSIONS.viewDashboardSupervisor)) throw detailError(403, 'permissionDenied', request.lang)
    return dashboardToday(app.deps.db, { siteId: auth.user.siteId, userId: auth.user.id }, query)
  })
}
