import { and, eq } from 'drizzle-orm'
import { pabxDevices, sites, users } from '../../db/schema/index.ts'
import type { RouteRequest } from '../types.ts'
import type { Env } from './call-plan.ts'
import { headerLines, rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'

// The media app's calls for a supervisor who monitors an agent (issue 19 item 1; server/media/app/spy.ts), on the
// site's domain, only from the media app (Kamailio knows it by its address):
// - `spy.<user id>`: the supervisor's leg, relayed to that user's active device;
// - `whisper.<user id>`: a second leg to the AGENT while the supervisor whispers or barges in on a call the agent took
//   directly (the agent's browser webphone answers it silently and plays or mixes the supervisor; README "Monitoring").
// Both are relayed to the registered device (looked up), anchored by Kamailio's rtpengine like any leg, with the
// session's headers passed on, never refused because the user is busy (no busy check, no queue), and with no call
// record: they are no call of the site's (agent status, presence and reports never see them), and the audit log keeps
// who listened to what. Kamailio removes every X-Atende-* header a request arrives with and only reads X-Atende-Monitor*
// from the media app, so no outside caller can make a phone take a call as a supervisor's.

export const SPY_TARGET = /^spy\.(\d{1,10})$/
export const WHISPER_TARGET = /^whisper\.(\d{1,10})$/

const MONITOR_HEADERS = ['X-Atende-Monitor', 'X-Atende-Monitor-Agent', 'X-Atende-Monitor-Session', 'X-Atende-Monitor-Supervisor']

export function isSpyTarget(request: RouteRequest): boolean {
  return request.source === 'media' && (SPY_TARGET.test(request.ruri_user) || WHISPER_TARGET.test(request.ruri_user))
}

export async function routeSpyLeg(env: Env, request: RouteRequest): Promise<Decision> {
  const userId = Number((SPY_TARGET.exec(request.ruri_user) ?? WHISPER_TARGET.exec(request.ruri_user))![1])
  const [row] = await env.db
    .select({ username: pabxDevices.username, domain: sites.domain })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .innerJoin(pabxDevices, and(eq(pabxDevices.id, users.deviceId), eq(pabxDevices.siteId, users.siteId), eq(pabxDevices.isActive, true)))
    .where(and(eq(users.id, userId), eq(sites.domain, request.ruri_domain.toLowerCase()), eq(users.isActive, true)))
  if (!row) return rejectWith(404)
  const headers = Object.fromEntries(Object.entries(request.x_headers).filter(([name]) => MONITOR_HEADERS.includes(name)))
  return {
    action: 'relay',
    ruri: `sip:${row.username}@${row.domain}`,
    lookup: true,
    dst: null,
    headers: headerLines(headers),
    timeout: 30,
    on_failure: false,
    record: false,
    auth: null,
  }
}
