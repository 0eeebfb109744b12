import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { AgentStatusListResponse, ChannelResponse, PauseCheckResponse, PauseResponse, PendenciesResponse } from '../../../contract/api/agent.ts'
import {
  AGENT_PATHS,
  ChannelLoginQuery,
  ChannelLogoutQuery,
  Id,
  PauseStartBody,
  PauseStartQuery,
  PauseStopBody,
  SupervisorPauseBody,
  SupervisorUnpauseBody,
} from '../../../contract/api/agent.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import type { AgentChannel } from '../../../contract/api/agent.ts'
import type { FastifyRequest } from 'fastify'
import { setChannelLogin } from '../../agent/channel-service.ts'
import { currentPause, startOwnPause, stopOwnPause, supervisorPause, supervisorUnpause } from '../../agent/pause-service.ts'
import { listStatuses } from '../../agent/status-service.ts'
import { detailError } from '../../http/errors.ts'
import type { TransferCancelResponse } from '../../../contract/api/service-actions.ts'
import { SERVICE_ACTION_PATHS, TransferCancelBody } from '../../../contract/api/service-actions.ts'
import { cancelTransfer, pendencies } from '../../telephony/control/call-service.ts'
import { parseInput } from '../../http/validate.ts'

// Spec 000 §7 "Agent channel and pause" (paths exactly as the spec), plus the supervisor's pause/unpause of §6 and the
// supervisors' status list (our paths). Pause answers are 200 with success/code (failures included: the pause
// machine reads them); invalid input is 400 with field errors; ids of other sites are 404.

const StatusQuery = v.object({ team: v.optional(Id) })

/** A channel login needs the permission that shows the channel's widget (spec 000 §6). */
const CHANNEL_PERMISSION: Record<AgentChannel, string> = {
  telephony: PERMISSIONS.viewSoftphone,
  chat: PERMISSIONS.viewChat,
}

function requireChannel(request: FastifyRequest, channel: AgentChannel): void {
  if (!request.auth!.roles.includes(CHANNEL_PERMISSION[channel])) throw detailError(403, 'permissionDenied', request.lang)
}

export async function agentRoutes(app: FastifyInstance): Promise<void> {
  const caller = (request: FastifyRequest) => ({ user: request.auth!.user, lang: request.lang })

  app.post(AGENT_PATHS.channelLogin, { config: { permission: 'authenticated' } }, async (request): Promise<ChannelResponse> => {
    const query = parseInput(ChannelLoginQuery, request.query, request.lang)
    requireChannel(request, query.channel)
    return setChannelLogin(app.deps, request.auth!.user, query.channel, true, query.logged_in_by)
  })

  app.post(AGENT_PATHS.channelLogout, { config: { permission: 'authenticated' } }, async (request): Promise<ChannelResponse> => {
    const query = parseInput(ChannelLogoutQuery, request.query, request.lang)
    requireChannel(request, query.channel)
    return setChannelLogin(app.deps, request.auth!.user, query.channel, false, null)
  })

  app.post(AGENT_PATHS.pauseStart, { config: { permission: PERMISSIONS.viewTakeBreak } }, async (request): Promise<PauseResponse> => {
    const query = parseInput(PauseStartQuery, request.query, request.lang)
    const body = parseInput(PauseStartBody, request.body, request.lang)
    return startOwnPause(app.deps, caller(request), { ...body, report_pause_id: query.report_pause_id })
  })

  app.post(AGENT_PATHS.pauseStop, { config: { permission: PERMISSIONS.viewTakeBreak } }, async (request): Promise<PauseResponse> => {
    const body = parseInput(PauseStopBody, request.body, request.lang)
    return stopOwnPause(app.deps, caller(request), body)
  })

  app.get(AGENT_PATHS.pauseCheck, { config: { permission: PERMISSIONS.viewTakeBreak } }, async (request): Promise<PauseCheckResponse> => {
    const user = request.auth!.user
    return currentPause(app.deps.db, user.siteId, user.id)
  })

  // The agent's answered calls still to classify or whose after-service did not end (call-service.ts).
  app.get(AGENT_PATHS.pendencies, { config: { permission: 'authenticated' } }, async (request): Promise<PendenciesResponse> => ({
    calls: await pendencies(app.deps.db, request.auth!.user),
  }))

  app.post(SERVICE_ACTION_PATHS.transferCancel, { config: { permission: PERMISSIONS.viewSoftphone } }, async (request): Promise<TransferCancelResponse> => {
    const body = parseInput(TransferCancelBody, request.body, request.lang)
    return cancelTransfer(app.deps.db, request.auth!.user, body, request.lang)
  })

  app.post(AGENT_PATHS.supervisorPause, { config: { permission: PERMISSIONS.pauseAgent } }, async (request): Promise<PauseResponse> => {
    const body = parseInput(SupervisorPauseBody, request.body, request.lang)
    return supervisorPause(app.deps, caller(request), body)
  })

  app.post(AGENT_PATHS.supervisorUnpause, { config: { permission: PERMISSIONS.pauseAgent } }, async (request): Promise<PauseResponse> => {
    const body = parseInput(SupervisorUnpauseBody, request.body, request.lang)
    return supervisorUnpause(app.deps, caller(request), body)
  })

  app.get(AGENT_PATHS.status, { config: { permission: PERMISSIONS.viewDashboardSupervisor } }, async (request): Promise<AgentStatusListResponse> => {
    const query = parseInput(StatusQuery, request.query, request.lang)
    const results = await listStatuses(app.deps, request.auth!.user.siteId, query)
    return { count: results.length, results }
  })
}
