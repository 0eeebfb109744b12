import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pabxDevicesOutboundRoutes, pabxOutboundRoutes, pabxOutboundRoutesTeams, pabxOutboundRouteTrunks, pabxTrunks } from '../../db/schema/index.ts'
import type { CallRecordRow } from '../../db/schema/index.ts'
import { callKey } from './call-key.ts'
import { DEVICE_RING_SECONDS, uri } from './call-plan.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { rewriteNumber } from './dial-patterns.ts'
import { headerLines, reject, rejectWith } from './protocol.ts'
import type { ControlRelay } from './protocol.ts'

// Outbound routes and their trunks: a device's dial of an outside number, the `number` destination
// (destinations/number.ts) and the dialer's customer legs (dialer-leg.ts). A trunk that fails hands the call to the
// route's next one. A trunk with `max_channels` (> 0) whose open calls fill them is passed over like a tried one:
// every open step on it counts — agents' calls out, the dialer's legs (relayed here too), calls in from it.

export type RouteRow = typeof pabxOutboundRoutes.$inferSelect
type TrunkRow = typeof pabxTrunks.$inferSelect

/** The site's active outbound routes, lowest priority first. */
export async function siteRoutes(db: Db, siteId: number): Promise<RouteRow[]> {
  return db
    .select()
    .from(pabxOutboundRoutes)
    .where(and(eq(pabxOutboundRoutes.siteId, siteId), eq(pabxOutboundRoutes.isActive, true)))
    .orderBy(asc(pabxOutboundRoutes.priority), asc(pabxOutboundRoutes.id))
}

/**
 * The routes a device may use, lowest priority first: the device's own list when it has one, else the routes that
 * name the user's team. A route naming no team is usable by nobody through a team (fail closed against toll fraud).
 */
export async function allowedRoutes(db: Db, siteId: number, deviceId: number | null, teamId: number | null): Promise<RouteRow[]> {
  const routes = await siteRoutes(db, siteId)
  if (deviceId !== null) {
    const own = await db
      .select({ id: pabxDevicesOutboundRoutes.outboundrouteId })
      .from(pabxDevicesOutboundRoutes)
      .where(eq(pabxDevicesOutboundRoutes.deviceId, deviceId))
    if (own.length > 0) {
      const ids = new Set(own.map((r) => r.id))
      return routes.filter((r) => ids.has(r.id))
    }
  }
  if (teamId === null) return []
  const linked = await db
    .select({ id: pabxOutboundRoutesTeams.outboundrouteId })
    .from(pabxOutboundRoutesTeams)
    .where(and(eq(pabxOutboundRoutesTeams.siteId, siteId), eq(pabxOutboundRoutesTeams.teamId, teamId)))
  const ids = new Set(linked.map((r) => r.id))
  return routes.filter((r) => ids.has(r.id))
}

/** `sip:host:port;transport=x` for a trunk (its outbound proxy when it has one). */
export function trunkDestination(trunk: TrunkRow): string {
  const proxy = trunk.outboundProxy.trim()
  const host = proxy || trunk.host
  const hasPort = /:\d+$/.test(host)
  return `sip:${host}${hasPort || proxy ? '' : `:${trunk.port}`};transport=${trunk.transport}`
}

/** The reason of a call refused because every trunk of its route is at its `max_channels` (Kamailio says the same). */
export const TRUNK_BUSY = 'Trunk Busy'

/**
 * Of these trunks, those whose open calls already fill their `max_channels`: distinct calls with an open step on the
 * trunk, other than this one. A media app leg (the agent's side of a held or dialer call) carries its caller's trunk
 * but is the same channel: it counts under its caller's Call-ID (call-key.ts).
 */
async function fullTrunks(db: Db, base: CallBase, trunks: readonly TrunkRow[]): Promise<Set<number>> {
  const capped = trunks.filter((trunk) => trunk.maxChannels > 0)
  if (capped.length === 0) return new Set()
  const ids = sql.join(
    capped.map((trunk) => sql`${trunk.id}`),
    sql`, `,
  )
  const result = await db.execute(sql`
    SELECT r.trunk_id AS trunk_id, count(DISTINCT ${callKey('r')}) AS calls
    FROM call_records r
    WHERE r.site_id = ${base.siteId} AND r.ended_at IS NULL AND r.trunk_id IN (${ids}) AND ${callKey('r')} <> ${base.callId}
    GROUP BY r.trunk_id
  `)
  const rows = (result as unknown as { rows: { trunk_id: number | string; calls: number | string }[] }).rows
  const used = new Map(rows.map((row) => [Number(row.trunk_id), Number(row.calls)]))
  return new Set(capped.filter((trunk) => (used.get(trunk.id) ?? 0) >= trunk.maxChannels).map((trunk) => trunk.id))
}

/** Relays to the route's next active trunk not tried yet, or rejects with `lastCode` (404 when the route has none). */
export async function toTrunk(env: Env, base: CallBase, route: RouteRow, tried: readonly number[], last?: { code: number; reason: string }): Promise<Plan> {
  const rows = await env.db
    .select({ link: pabxOutboundRouteTrunks, trunk: pabxTrunks })
    .from(pabxOutboundRouteTrunks)
    .innerJoin(pabxTrunks, eq(pabxTrunks.id, pabxOutboundRouteTrunks.trunkId))
    .where(
      and(
        eq(pabxOutboundRouteTrunks.siteId, base.siteId),
        eq(pabxOutboundRouteTrunks.outboundRouteId, route.id),
        eq(pabxOutboundRouteTrunks.isActive, true),
        eq(pabxTrunks.isActive, true),
      ),
    )
    .orderBy(asc(pabxOutboundRouteTrunks.order), asc(pabxOutboundRouteTrunks.id))
  const untried = rows.filter((r) => !tried.includes(r.trunk.id))
  const busy = await fullTrunks(
    env.db,
    base,
    untried.map((r) => r.trunk),
  )
  const next = untried.find((r) => !busy.has(r.trunk.id))
  const step = { ...base, kind: 'trunk', outboundRouteId: route.id }
  if (!next)
    return [
      {
        ...step,
        decision: last ? reject(last.code, last.reason) : busy.size > 0 ? reject(503, TRUNK_BUSY) : rejectWith(503),
      },
    ]
  const { link, trunk } = next
  const number = rewriteNumber(base.phone, link.strip ?? route.strip, link.prefix || route.prefix)
  const decision: ControlRelay = {
    action: 'relay',
    ruri: uri(number, trunk.fromDomain || trunk.host),
    lookup: false,
    dst: trunkDestination(trunk),
    headers: headerLines({ 'X-Atende-Route': route.id }),
    timeout: DEVICE_RING_SECONDS,
    on_failure: true,
    record: base.record,
    auth: trunk.authUsername && trunk.authSecret ? { user: trunk.authUsername, password: trunk.authSecret } : null,
  }
  return [{ ...step, trunkId: trunk.id, callee: number, decision }]
}

/** A trunk failed: the route's next trunk, or the last trunk's own code; null passes the failure on. */
export async function trunkAfterFailure(env: Env, steps: CallRecordRow[], base: CallBase, failed: { code: number; reason: string }): Promise<Plan | null> {
  const last = steps[steps.length - 1]!
  const [route] = last.outboundRouteId
    ? await env.db
        .select()
        .from(pabxOutboundRoutes)
        .where(and(eq(pabxOutboundRoutes.siteId, last.siteId), eq(pabxOutboundRoutes.id, last.outboundRouteId)))
    : []
  if (!route) return null
  const tried = steps.filter((s) => s.kind === 'trunk' && s.outboundRouteId === route.id && s.trunkId !== null).map((s) => s.trunkId!)
  return toTrunk(env, { ...base, phone: steps[0]!.phone }, route, tried, failed)
}
