import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import { MONITOR_PATHS, MonitorIdParams, MonitorModeBody, MonitorStartBody } from '../../../contract/api/monitor.ts'
import type { MonitorSession } from '../../../contract/api/monitor.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { detailError } from '../../http/errors.ts'
import { parseInput } from '../../http/validate.ts'
import { monitorDeskOf } from '../../media/app/monitor.ts'
import type { MonitorDesk } from '../../media/app/monitor.ts'

// Listen / whisper / barge (contract/api/monitor.ts; server/media/app/monitor.ts and spy.ts). `sites.monitor_agent`.
// Without the media app running, a start answers 503 `{detail}`; a session's mode or stop 404.

export async function monitorRoutes(app: FastifyInstance): Promise<void> {
  const guard = { config: { permission: PERMISSIONS.monitorAgent } }
  const caller = (request: FastifyRequest) => ({ user: request.auth!.user, lang: request.lang })
  // Without the media app no session can be started (503), nor can one exist (404 for its mode and stop).
  const desk = (request: FastifyRequest, missing: 503 | 404 = 503): MonitorDesk => {
    const brain = (app as FastifyInstance & { media?: import('../../media/app/brain.ts').MediaBrain | null }).media
    if (!brain) throw missing === 503 ? detailError(503, 'telephonyUnavailable', request.lang) : detailError(404, 'notFound', request.lang)
    return monitorDeskOf(app.deps.db, brain)
  }
  const idOf = (request: FastifyRequest): string => {
    const parsed = v.safeParse(MonitorIdParams, request.params)
    if (!parsed.success) throw detailError(404, 'notFound', request.lang)
    return parsed.output.id
  }

  app.post(MONITOR_PATHS.start, guard, async (request): Promise<MonitorSession> => {
    const body = parseInput(MonitorStartBody, request.body, request.lang)
    return desk(request).start(caller(request), body.user_id, body.mode)
  })
  app.post(MONITOR_PATHS.mode, guard, async (request): Promise<MonitorSession> => {
    const id = idOf(request)
    const body = parseInput(MonitorModeBody, request.body, request.lang)
    return desk(request, 404).changeMode(caller(request), id, body.mode)
  })
  app.post(MONITOR_PATHS.stop, guard, async (request): Promise<MonitorSession> => {
    const id = idOf(request)
    return desk(request, 404).stop(caller(request), id)
  })
}
