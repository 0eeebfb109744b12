import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import type { Activity, ActivityListResponse, CommandResponse } from '../../../contract/api/activities.ts'
import {
  ACTIVITY_PATHS,
  ActivityCreateBody,
  ActivityListQuery,
  COMMAND_PATHS,
  DndCommandBody,
  OpenUrlCommandBody,
  UserCommandBody,
} from '../../../contract/api/activities.ts'
import { Id } from '../../../contract/api/agent.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { SUPERVISOR_LOGOUT_REASON, sendAgentCommand } from '../../agent/agent-command.ts'
import { createActivity, markActivityDone, pendingActivities, recordAttempt } from '../../agent/activity-service.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { endAfterServicesOf } from '../../telephony/control/after-service.ts'
import { findUser } from '../../users/user-repo.ts'
import { message } from '../../../contract/messages.ts'

// Activities (scheduled callbacks) and a supervisor's remote commands (contract/api/activities.ts; our paths, the
// spec names none). The agent sees and works only their own activities: another user's id is 404, like another
// site's. Scheduling one for an agent needs sites.add_activity; the remote commands sites.command_agent.

const IdParams = v.object({ id: Id })

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  const who = (request: FastifyRequest) => ({ siteId: request.auth!.user.siteId, userId: request.auth!.user.id })
  const caller = (request: FastifyRequest) => ({ user: request.auth!.user, lang: request.lang })
  const found = (request: FastifyRequest, activity: Activity | null): Activity => {
    if (!activity) throw detailError(404, 'notFound', request.lang)
    return activity
  }
  const activityId = (request: FastifyRequest): number => {
    const parsed = v.safeParse(IdParams, request.params)
    if (!parsed.success) throw detailError(404, 'notFound', request.lang)
    return parsed.output.id
  }

  app.get(ACTIVITY_PATHS.list, { config: { permission: PERMISSIONS.viewActivities } }, async (request): Promise<ActivityListResponse> => {
    const query = parseInput(ActivityListQuery, request.query, request.lang)
    const results = await pendingActivities(app.deps.db, who(request), { upcoming: query.upcoming === 'true' })
    return { count: results.length, results }
  })

  app.post(ACTIVITY_PATHS.list, { config: { permission: PERMISSIONS.addActivity } }, async (request, reply): Promise<Activity> => {
    const body = parseInput(ActivityCreateBody, request.body, request.lang)
    reply.code(201)
    return createActivity(app.deps, caller(request), body)
  })

  app.post(ACTIVITY_PATHS.done, { config: { permission: PERMISSIONS.viewActivities } }, async (request): Promise<Activity> => {
    return found(request, await markActivityDone(app.deps, who(request), activityId(request)))
  })

  // The webphone dials activities automatically (spec 000 §4), so an attempt needs the webphone's permission.
  app.post(ACTIVITY_PATHS.attempt, { config: { permission: PERMISSIONS.viewSoftphone } }, async (request): Promise<Activity> => {
    return found(request, await recordAttempt(app.deps, who(request), activityId(request)))
  })

  const command = { config: { permission: PERMISSIONS.commandAgent } }
  app.post(COMMAND_PATHS.dnd, command, async (request): Promise<CommandResponse> => {
    const body = parseInput(DndCommandBody, request.body, request.lang)
    return sendAgentCommand(app.deps, caller(request), body.user_id, { action: 'dnd', dnd: body.dnd })
  })
  app.post(COMMAND_PATHS.refresh, command, async (request): Promise<CommandResponse> => {
    const body = parseInput(UserCommandBody, request.body, request.lang)
    return sendAgentCommand(app.deps, caller(request), body.user_id, { action: 'refresh' })
  })
  app.post(COMMAND_PATHS.openUrl, command, async (request): Promise<CommandResponse> => {
    const body = parseInput(OpenUrlCommandBody, request.body, request.lang)
    return sendAgentCommand(app.deps, caller(request), body.user_id, { action: 'openUrl', url: body.url })
  })
  app.post(COMMAND_PATHS.endAfterService, command, async (request): Promise<CommandResponse> => {
    const body = parseInput(UserCommandBody, request.body, request.lang)
    const siteId = request.auth!.user.siteId
    const agent = await findUser(app.deps.db, siteId, body.user_id)
    if (!agent) throw detailError(404, 'notFound', request.lang)
    await endAfterServicesOf(app.deps.db, app.deps.bus, { siteId, userId: agent.id }, new Date())
    return { success: true, detail: message('commandSent', request.lang) }
  })
  app.post(COMMAND_PATHS.logout, command, async (request): Promise<CommandResponse> => {
    const body = parseInput(UserCommandBody, request.body, request.lang)
    return sendAgentCommand(app.deps, caller(request), body.user_id, { action: 'logout', reason: SUPERVISOR_LOGOUT_REASON })
  })
}
