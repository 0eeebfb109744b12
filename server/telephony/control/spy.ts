import { and, eq } from 'drizzle-orm'
import { pabxDevices, sites, users } from '../../db/schema/index.ts'
import type { RouteRequest } from '../types.ts'
import type { Env } from './call-plan.ts'
import { headerLines, rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'

// The media app's call to a supervisor who monitors an agent (issue 19 item 1; server/media/app/spy.ts): Request-URI
// `spy.<user id>` on the site's domain. Relayed to that user's active device (registered: looked up), anchored by
// Kamailio's rtpengine like any leg, with the session's headers (`X-Atende-Monitor`, the agent's name) passed on. No
// call record: it is no call of the site's, and the audit log keeps who listened to what.

export const SPY_TARGET = /^spy\.(\d{1,10})$/

export function isSpyTarget(request: RouteRequest): boolean {
  return request.source === 'media' && SPY_TARGET.test(request.ruri_user)
}

export async function routeSpyLeg(env: Env, request: RouteRequest): Promise<Decision> {
  const userId = Number(SPY_TARGET.exec(request.ruri_user)![1])
  const [row] = await env.db
    .select({ username: pabxDevices.username, domain: sites.domain })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .innerJoin(pabxDevices, and(eq(pabxDevices.id, users.deviceId), eq(pabxDevices.siteId, users.siteId), eq(pabxDevices.isActive, true)))
    .where(and(eq(users.id, userId), eq(sites.domain, request.ruri_domain.toLowerCase()), eq(users.isActive, true)))
  if (!row) return rejectWith(404)
  const headers = Object.fromEntries(Object.entries(request.x_headers).filter(([name]) => name === 'X-Atende-Monitor' || name === 'X-Atende-Monitor-Agent'))
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
