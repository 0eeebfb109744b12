import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  pabxCallGroupMembers,
  pabxCallGroups,
  pabxDevices,
  pabxDevicesOutboundRoutes,
  pabxInboundRoutes,
  pabxNumbers,
  pabxOutboundRoutes,
  pabxOutboundRoutesTeams,
  pabxOutboundRouteTrunks,
  pabxTrunks,
  serviceCalendars,
  serviceCalendarsHolidays,
  serviceCalendarsHours,
  sipRegistrations,
  sites,
  users,
} from '../../db/schema/index.ts'
import type { CallRecordRow } from '../../db/schema/index.ts'
import { CALL_TYPE } from '../../../contract/codes/call-types.ts'
import { BLIND_TRANSFER_PREFIX } from '../../../machines/transfer.machine.ts'
import { ATTENDED_TRANSFER_PREFIX, parseAppTarget, replacesHeader } from '../../../contract/codes/transfer.ts'
import type { JoinedDialog } from '../../../contract/codes/transfer.ts'
import { deviceParty, joinConsultation, trunkParty } from './attended-transfer.ts'
import { activityOf, toPermittedApp, transferOf, trunkBlindTransfer } from './transfers.ts'
import type { RouteRequest } from '../types.ts'
import { claimedByHeavierQueues, engagedUsers, loadMembers, loadQueue, queueMemory, waitingCalls } from './acd.ts'
import type { Member, QueueRow } from './acd.ts'
import { isOpen } from './calendar.ts'
import { matchesAny, rewriteNumber } from './dial-patterns.ts'
import { areaCodeOf, contextAllows } from './phone.ts'
import { headerLines, reject, rejectWith } from './protocol.ts'
import type { ControlRelay, Decision } from './protocol.ts'
import type { StepDraft } from './records.ts'
import type { Random } from './strategies.ts'
import { chooseMembers } from './strategies.ts'

// Where a call goes (README.md): a device dials another device, a call group number or an outbound route's pattern;
// a trunk's DID leads through a number and an inbound route to a destination. Each function answers the steps to
// record, the last one carrying the decision Kamailio gets.

export type Env = { db: Db; now: Date; random: Random }
type DeviceRow = typeof pabxDevices.$inferSelect
type TrunkRow = typeof pabxTrunks.$inferSelect

/** The ring time of a direct call to a device (internal or an inbound route's pjsip destination). */
export const DEVICE_RING_SECONDS = 60
/** Destinations chained through overflows and timeouts stop after this many hops (a loop in the settings). */
const MAX_HOPS = 5

/** What every step of a call shares: who called, through what, from where. */
export type CallBase = Pick<
  StepDraft,
  | 'direction'
  | 'callType'
  | 'caller'
  | 'callee'
  | 'phone'
  | 'callerDeviceId'
  | 'callerUserId'
  | 'inboundRouteId'
  | 'trunkId'
  | 'did'
  | 'areaCode'
  | 'transferOfUid'
  | 'transferType'
  | 'activityId'
> & {
  siteId: number
  domain: string
  callId: string
  clientName: string
  record: boolean
  phone: string
  caller: string
  callee: string
}

export type Plan = StepDraft[]

const uri = (user: string, domain: string) => `sip:${user}@${domain}`

// ---------------------------------------------------------------------------------------------------------------
// The first question of a call

export async function routeNew(env: Env, request: RouteRequest): Promise<{ siteId: number; plan: Plan } | { siteId: null; decision: Decision }> {
  return request.source === 'trunk' ? fromTrunk(env, request) : fromDevice(env, request)
}

async function fromDevice(env: Env, request: RouteRequest) {
  const { db } = env
  const [site] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.domain, request.from_domain.toLowerCase()), eq(sites.isActive, true)))
  if (!site) return { siteId: null, decision: rejectWith(403) } as const
  const [caller] = await db
    .select({ device: pabxDevices, userId: users.id, teamId: users.teamId })
    .from(pabxDevices)
    .leftJoin(users, and(eq(users.deviceId, pabxDevices.id), eq(users.siteId, site.id)))
    .where(and(eq(pabxDevices.siteId, site.id), eq(pabxDevices.username, request.from_user), eq(pabxDevices.isActive, true)))
  if (!caller) return { siteId: null, decision: rejectWith(403) } as const
  const transfer = await transferOf(env, site.id, caller.device.id, caller.userId, request)
  const dialled = transfer ? transfer.dialled : request.ruri_user
  const activityId = await activityOf(env, site.id, caller.userId, request)
  const base: CallBase = {
    siteId: site.id,
    domain: site.domain,
    callId: request.call_id,
    direction: 'internal',
    callType: CALL_TYPE.internalOutbound,
    caller: request.from_user,
    callee: dialled,
    phone: '',
    callerDeviceId: caller.device.id,
    callerUserId: caller.userId,
    inboundRouteId: null,
    trunkId: null,
    did: '',
    areaCode: '',
    record: false,
    clientName: caller.device.calleridName,
    transferOfUid: transfer?.parentUid ?? null,
    transferType: transfer?.type ?? null,
    activityId,
  }
  const plan = (steps: Plan) => ({ siteId: site.id, plan: steps })
  if (request.ruri_user.startsWith(ATTENDED_TRANSFER_PREFIX)) return plan(await joinConsultation(env, request, base, deviceParty(caller.device.id)))
  const appDial = parseAppTarget(dialled)
  if (appDial) {
    const endpoint = { siteId: site.id, deviceId: caller.device.id, teamId: caller.teamId }
    return plan(await toPermittedApp(env, base, endpoint, appDial, transfer ? 'transfer' : 'call'))
  }

  const [target] = await db
    .select()
    .from(pabxDevices)
    .where(and(eq(pabxDevices.siteId, site.id), eq(pabxDevices.username, dialled), eq(pabxDevices.isActive, true)))
  if (target) {
    // Each side's own rule: the caller's covers what it places, the callee's what it receives.
    const record = ['always', 'outbound'].includes(caller.device.recording) || ['always', 'inbound'].includes(target.recording)
    return plan(await toDevice(env, { ...base, record }, target, DEVICE_RING_SECONDS))
  }
  const [group] = dialled
    ? await db
        .select()
        .from(pabxCallGroups)
        .where(and(eq(pabxCallGroups.siteId, site.id), eq(pabxCallGroups.number, dialled), eq(pabxCallGroups.isActive, true)))
    : []
  if (group) return plan(await toCallGroup(env, base, group, 0))

  const outbound = {
    ...base,
    direction: 'outbound',
    callType: CALL_TYPE.activeManual,
    phone: dialled,
    areaCode: areaCodeOf(dialled),
  }
  const routes = await allowedRoutes(env, site.id, caller.device.id, caller.teamId)
  const chosen = request.x_headers['X-Atende-Route'] ?? request.x_headers['x-atende-route']
  const matching = routes.filter((r) => matchesAny(r.dialPatterns, dialled) && (chosen === undefined || String(r.id) === chosen.trim()))
  if (matching.length === 0) return plan([{ ...outbound, kind: 'reject', decision: rejectWith(404) }])
  if (!contextAllows(caller.device.context, dialled)) return plan([{ ...outbound, kind: 'reject', decision: rejectWith(403) }])
  const route = matching[0]!
  const record = route.record || caller.device.recording === 'always' || caller.device.recording === 'outbound'
  return plan(await toTrunk(env, { ...outbound, record }, route, []))
}

async function fromTrunk(env: Env, request: RouteRequest) {
  const { db } = env
  if (request.trunk_id === null) return { siteId: null, decision: rejectWith(403) } as const
  const [trunk] = await db
    .select()
    .from(pabxTrunks)
    .where(and(eq(pabxTrunks.id, request.trunk_id), eq(pabxTrunks.isActive, true)))
  if (!trunk) return { siteId: null, decision: rejectWith(403) } as const
  const [site] = await db.select().from(sites).where(eq(sites.id, trunk.siteId))
  const did = request.ruri_user
  const base: CallBase = {
    siteId: trunk.siteId,
    domain: site!.domain,
    callId: request.call_id,
    direction: 'inbound',
    callType: CALL_TYPE.inbound,
    caller: request.from_user,
    callee: did,
    phone: request.from_user,
    callerDeviceId: null,
    callerUserId: null,
    inboundRouteId: null,
    trunkId: trunk.id,
    did,
    areaCode: areaCodeOf(request.from_user),
    record: false,
    clientName: '',
    transferOfUid: null,
    transferType: null,
  }
  const plan = (steps: Plan) => ({ siteId: trunk.siteId, plan: steps })
  if (did.startsWith(BLIND_TRANSFER_PREFIX) && did.length > BLIND_TRANSFER_PREFIX.length) return plan(await trunkBlindTransfer(env, request, base))
  if (did.startsWith(ATTENDED_TRANSFER_PREFIX)) return plan(await joinConsultation(env, request, base, trunkParty(trunk.id, request.from_user)))
  const candidates = [...new Set([did, did.replace(/^\+/, ''), `+${did.replace(/^\+/, '')}`])]
  const numbers = await db
    .select({ number: pabxNumbers, route: pabxInboundRoutes })
    .from(pabxNumbers)
    .innerJoin(pabxInboundRoutes, eq(pabxInboundRoutes.id, pabxNumbers.inboundRouteId))
    .where(
      and(
        eq(pabxNumbers.siteId, trunk.siteId),
        inArray(pabxNumbers.number, candidates),
        eq(pabxNumbers.isActive, true),
        or(isNull(pabxNumbers.trunkId), eq(pabxNumbers.trunkId, trunk.id)),
      ),
    )
  // A number bound to this trunk wins over one that takes any trunk.
  const found = numbers.sort((a, b) => Number(b.number.trunkId === trunk.id) - Number(a.number.trunkId === trunk.id))[0]
  if (!found || !found.route.isActive) return plan([{ ...base, kind: 'reject', decision: rejectWith(404) }])
  const route = found.route
  const routed: CallBase = {
    ...base,
    inboundRouteId: route.id,
    record: route.record,
    clientName: route.callerNamePrefix ? `${route.callerNamePrefix} ${request.from_user}` : request.from_user,
  }
  const open = route.calendarId === null ? true : await calendarOpen(db, trunk.siteId, route.calendarId, env.now)
  const app = open ? route.destinationApp : route.closedDestinationApp || route.destinationApp
  const appdata = open ? route.destinationAppdata : route.closedDestinationApp ? route.closedDestinationAppdata : route.destinationAppdata
  return plan(await toDestination(env, routed, app, appdata, 0))
}

/** Whether the calendar is open now; a calendar deleted or switched off keeps the route open. */
async function calendarOpen(db: Db, siteId: number, calendarId: number, at: Date): Promise<boolean> {
  const [calendar] = await db
    .select()
    .from(serviceCalendars)
    .where(and(eq(serviceCalendars.siteId, siteId), eq(serviceCalendars.id, calendarId), eq(serviceCalendars.isActive, true)))
  if (!calendar) return true
  const hours = await db.select().from(serviceCalendarsHours).where(eq(serviceCalendarsHours.calendarId, calendar.id))
  const holidays = await db.select().from(serviceCalendarsHolidays).where(eq(serviceCalendarsHolidays.calendarId, calendar.id))
  return isOpen({ timezone: calendar.timezone, hours, holidays }, at)
}

// ---------------------------------------------------------------------------------------------------------------
// Destinations (contract/entities/apps.ts)

export async function toDestination(env: Env, base: CallBase, app: string, appdata: string, hops: number): Promise<Plan> {
  const reject480 = (): Plan => [{ ...base, kind: 'reject', decision: rejectWith(480) }]
  if (hops > MAX_HOPS) return reject480()
  const id = /^\d+$/.test(appdata) ? Number(appdata) : null
  switch (app) {
    case 'pjsip': {
      const [device] = id
        ? await env.db
            .select()
            .from(pabxDevices)
            .where(and(eq(pabxDevices.siteId, base.siteId), eq(pabxDevices.id, id), eq(pabxDevices.isActive, true)))
        : []
      if (!device) return reject480()
      const record = base.record || device.recording === 'always' || device.recording === 'inbound'
      return toDevice(env, { ...base, record }, device, DEVICE_RING_SECONDS)
    }
    case 'callgroup': {
      const [group] = id
        ? await env.db
            .select()
            .from(pabxCallGroups)
            .where(and(eq(pabxCallGroups.siteId, base.siteId), eq(pabxCallGroups.id, id), eq(pabxCallGroups.isActive, true)))
        : []
      return group ? toCallGroup(env, base, group, hops) : reject480()
    }
    case 'queue': {
      const queue = id ? await loadQueue(env.db, base.siteId, id) : null
      return queue ? toQueue(env, base, queue, [], null, hops) : reject480()
    }
    case 'number': {
      const routes = (await siteRoutes(env.db, base.siteId)).filter((r) => matchesAny(r.dialPatterns, appdata))
      if (!routes[0]) return reject480()
      return toTrunk(env, { ...base, phone: appdata, callee: appdata }, routes[0], [])
    }
    case 'hangup':
      return [{ ...base, kind: 'reject', decision: rejectWith(603) }]
    default:
      // ivrbasic, voicemail, nps and announce need the media app (issue 5, part 3): not yet.
      return reject480()
  }
}

/** Is the device taking calls: registered (when Kamailio said so) and below its busy threshold. */
async function deviceState(env: Env, siteId: number, device: DeviceRow): Promise<'ok' | 'unregistered' | 'busy'> {
  const [registration] = await env.db
    .select()
    .from(sipRegistrations)
    .where(and(eq(sipRegistrations.siteId, siteId), eq(sipRegistrations.username, device.username)))
  if (registration && (!registration.registered || (registration.expiresAt && registration.expiresAt < env.now))) return 'unregistered'
  const rows = await env.db.execute(sql`
    select count(*)::int as n from call_records
    where site_id = ${siteId} and ended_at is null and started_at > ${new Date(env.now.getTime() - 4 * 3600_000)}
      and (device_id = ${device.id} or caller_device_id = ${device.id})`)
  const active = Number((rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0)
  return active >= Math.max(1, device.deviceStateBusyAt) ? 'busy' : 'ok'
}

/**
 * Rings one device. `replaces` (an attended transfer's join, contract/codes/transfer.ts) names the consultation the
 * call takes the place of: the device is in that call, so it is not busy for this one, and the header tells it so.
 */
export async function toDevice(env: Env, base: CallBase, device: DeviceRow, ringSeconds: number, replaces?: JoinedDialog): Promise<Plan> {
  const [owner] = await env.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.siteId, base.siteId), eq(users.deviceId, device.id)))
  const step = {
    ...base,
    kind: 'device',
    deviceId: device.id,
    userId: owner?.id ?? null,
    callee: device.username,
  }
  const state = await deviceState(env, base.siteId, device)
  if (state === 'unregistered') return [{ ...step, decision: rejectWith(480) }]
  if (state === 'busy' && !replaces) return [{ ...step, decision: rejectWith(486) }]
  const internal = base.direction === 'internal'
  const decision: ControlRelay = {
    action: 'relay',
    ruri: uri(device.username, base.domain),
    lookup: true,
    dst: null,
    headers: headerLines({
      'X-Atende-Call-Type': internal ? CALL_TYPE.internalInbound : base.callType,
      'X-Atende-Phone': internal ? base.caller : base.phone,
      'X-Atende-Client-Name': base.clientName,
      Replaces: replaces ? replacesHeader(replaces) : null,
    }),
    timeout: ringSeconds,
    on_failure: false,
    record: base.record,
    auth: null,
  }
  return [{ ...step, decision }]
}

// ---------------------------------------------------------------------------------------------------------------
// Call groups: ring-all (parallel branches) or linear (one member at a time, next on failure)

async function callGroupDevices(env: Env, siteId: number, groupId: number): Promise<DeviceRow[]> {
  const rows = await env.db
    .select({ device: pabxDevices })
    .from(pabxCallGroupMembers)
    .innerJoin(pabxDevices, eq(pabxDevices.id, pabxCallGroupMembers.deviceId))
    .where(
      and(
        eq(pabxCallGroupMembers.siteId, siteId),
        eq(pabxCallGroupMembers.callGroupId, groupId),
        eq(pabxCallGroupMembers.isActive, true),
        eq(pabxDevices.isActive, true),
      ),
    )
    .orderBy(asc(pabxCallGroupMembers.order), asc(pabxCallGroupMembers.id))
  return rows.map((r) => r.device)
}

type GroupRow = typeof pabxCallGroups.$inferSelect

export async function toCallGroup(env: Env, base: CallBase, group: GroupRow, hops: number, tried: readonly number[] = []): Promise<Plan> {
  const devices = []
  for (const device of await callGroupDevices(env, base.siteId, group.id)) {
    if (!tried.includes(device.id) && (await deviceState(env, base.siteId, device)) === 'ok') devices.push(device)
  }
  const targets = group.strategy === 'ringall' ? devices : devices.slice(0, 1)
  if (targets.length === 0) {
    if (group.timeoutDestinationApp) return toDestination(env, base, group.timeoutDestinationApp, group.timeoutDestinationAppdata, hops + 1)
    return [{ ...base, kind: 'reject', decision: rejectWith(480) }]
  }
  const decision: ControlRelay = {
    action: 'relay',
    ruri: uri(targets[0]!.username, base.domain),
    ...(targets.length > 1 ? { branches: targets.slice(1).map((d) => uri(d.username, base.domain)) } : {}),
    lookup: true,
    dst: null,
    headers: headerLines({
      'X-Atende-Call-Type': base.callType,
      'X-Atende-Phone': base.phone || base.caller,
      'X-Atende-Client-Name': base.clientName,
    }),
    timeout: group.ringTime,
    on_failure: true,
    record: base.record,
    auth: null,
  }
  // The group and the devices offered ride in the stored decision (stripped before Kamailio sees it): the failure
  // path reads them to offer the next member.
  const stored = {
    ...decision,
    group: group.id,
    offered_devices: targets.map((d) => d.id),
  }
  return [
    {
      ...base,
      kind: 'callgroup',
      deviceId: targets.length === 1 ? targets[0]!.id : null,
      decision: stored,
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// Queues (ACD)

/**
 * Offers the call to the queue's next member, or follows the overflow. `tried` are the members already offered this
 * call in this queue; `queueStartedAt` when the call entered it (null: now).
 */
export async function toQueue(
  env: Env,
  base: CallBase,
  queue: QueueRow,
  tried: readonly number[],
  queueStartedAt: Date | null,
  hops: number,
): Promise<Plan> {
  const entered = queueStartedAt ?? env.now
  const waited = (env.now.getTime() - entered.getTime()) / 1000
  const remaining = queue.maxWaitTime > 0 ? queue.maxWaitTime - waited : Infinity
  const queueStep = {
    ...base,
    kind: 'queue',
    queueId: queue.id,
    queueStartedAt: entered,
    record: base.record || queue.recordCalls,
  }
  const overflow = async (): Promise<Plan> => {
    if (!queue.overflowApp) return [{ ...queueStep, decision: rejectWith(480) }]
    const next = await toDestination(env, base, queue.overflowApp, queue.overflowAppdata, hops + 1)
    return [
      {
        ...queueStep,
        dialStatusText: 'Overflowed',
        decision: reject(380, 'Overflowed'),
      },
      ...next,
    ]
  }
  if (remaining <= 0) return overflow()
  if (queueStartedAt === null && queue.maxCallers > 0 && (await waitingCalls(env.db, base.siteId, queue.id, env.now)) >= queue.maxCallers)
    return overflow()

  const members = await loadMembers(env.db, base.siteId, queue.id, env.now)
  const available = members.filter((m) => m.available)
  let fresh = available.filter((m) => !tried.includes(m.userId))
  // Everyone available was offered the call already: another round while the queue's wait lasts (a limit must be set).
  if (fresh.length === 0 && queue.maxWaitTime > 0) fresh = available
  // Queue weight: agents a heavier queue with callers waiting counts on are offered this call only when nobody else is.
  const claimed = await claimedByHeavierQueues(env.db, base.siteId, queue, fresh.map((m) => m.userId), env.now)
  if (claimed.size > 0 && fresh.some((m) => !claimed.has(m.userId))) fresh = fresh.filter((m) => !claimed.has(m.userId))
  const memory = await queueMemory(env.db, base.siteId, queue.id)
  const chosen = chooseMembers(queue.strategy, fresh, memory, env.random, members) as Member[]
  if (chosen.length === 0) return overflow()

  const first = chosen[0]!
  const decision: ControlRelay = {
    action: 'relay',
    ruri: uri(first.deviceUsername, base.domain),
    ...(chosen.length > 1
      ? {
          branches: chosen.slice(1).map((m) => uri(m.deviceUsername, base.domain)),
        }
      : {}),
    lookup: true,
    dst: null,
    headers: headerLines({
      'X-Atende-Call-Type': base.callType,
      'X-Atende-Queue': queue.id,
      'X-Atende-Queue-Name': queue.description,
      'X-Atende-Phone': base.phone || base.caller,
      'X-Atende-Client-Name': base.clientName,
    }),
    timeout: Math.max(1, Math.min(queue.ringTime, Math.ceil(remaining))),
    on_failure: true,
    record: queueStep.record,
    auth: null,
  }
  const single = chosen.length === 1
  return [
    {
      ...queueStep,
      userId: single ? first.userId : null,
      deviceId: single ? first.deviceId : null,
      offeredUserIds: chosen.map((m) => m.userId),
      decision,
    },
  ]
}

// ---------------------------------------------------------------------------------------------------------------
// Outbound routes and trunks

type RouteRow = typeof pabxOutboundRoutes.$inferSelect

async function siteRoutes(db: Db, siteId: number): Promise<RouteRow[]> {
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
export async function allowedRoutes(env: Env, siteId: number, deviceId: number | null, teamId: number | null): Promise<RouteRow[]> {
  const routes = await siteRoutes(env.db, siteId)
  if (deviceId !== null) {
    const own = await env.db
      .select({ id: pabxDevicesOutboundRoutes.outboundrouteId })
      .from(pabxDevicesOutboundRoutes)
      .where(eq(pabxDevicesOutboundRoutes.deviceId, deviceId))
    if (own.length > 0) {
      const ids = new Set(own.map((r) => r.id))
      return routes.filter((r) => ids.has(r.id))
    }
  }
  if (teamId === null) return []
  const linked = await env.db
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

/** Relays to the route's next active trunk not tried yet, or rejects with `lastCode` (404 when the route has none). */
export async function toTrunk(
  env: Env,
  base: CallBase,
  route: RouteRow,
  tried: readonly number[],
  last?: { code: number; reason: string },
): Promise<Plan> {
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
  const next = rows.find((r) => !tried.includes(r.trunk.id))
  const step = { ...base, kind: 'trunk', outboundRouteId: route.id }
  if (!next)
    return [
      {
        ...step,
        decision: last ? reject(last.code, last.reason) : rejectWith(503),
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

// ---------------------------------------------------------------------------------------------------------------
// After a failed branch

/** The base of a call rebuilt from its first step, to plan the steps after a failure. */
export function baseOf(first: CallRecordRow, domain: string, clientName: string): CallBase {
  return {
    siteId: first.siteId,
    domain,
    callId: first.callId,
    direction: first.direction,
    callType: first.callType,
    caller: first.caller,
    callee: first.callee,
    phone: first.phone,
    callerDeviceId: first.callerDeviceId,
    callerUserId: first.callerUserId,
    inboundRouteId: first.inboundRouteId,
    trunkId: first.direction === 'inbound' ? first.trunkId : null,
    did: first.did,
    areaCode: first.areaCode,
    record: first.record,
    clientName,
    transferOfUid: first.transferOfUid,
    transferType: first.transferType,
  }
}

export async function routeAfterFailure(env: Env, steps: CallRecordRow[], failed: { code: number; reason: string }): Promise<Plan> {
  const last = steps[steps.length - 1]!
  const [site] = await env.db.select().from(sites).where(eq(sites.id, last.siteId))
  const headers = (last.decision as { headers?: string }).headers ?? ''
  const clientName = /X-Atende-Client-Name: ([^\r\n]*)/.exec(headers)?.[1] ?? ''
  const base = {
    ...baseOf(steps[0]!, site!.domain, clientName),
    record: last.record,
  }
  const hops = steps.filter((s) => s.dialStatus === 380).length
  const passThrough = (): Plan => [
    {
      ...base,
      kind: 'reject',
      decision: reject(failed.code, failed.reason || 'Failed'),
    },
  ]
  switch (last.kind) {
    case 'queue': {
      const queue = last.queueId ? await loadQueue(env.db, last.siteId, last.queueId) : null
      if (!queue) return passThrough()
      const inQueue = steps.filter((s) => s.queueId === queue.id && s.kind === 'queue')
      const tried = inQueue.flatMap((s) => (s.offeredUserIds?.length ? s.offeredUserIds : s.userId ? [s.userId] : []))
      return toQueue(env, { ...base, record: steps[0]!.record }, queue, tried, inQueue[0]?.queueStartedAt ?? env.now, hops)
    }
    case 'callgroup': {
      const groupId = (last.decision as { group?: number }).group
      const [group] = groupId
        ? await env.db
            .select()
            .from(pabxCallGroups)
            .where(and(eq(pabxCallGroups.siteId, last.siteId), eq(pabxCallGroups.id, groupId)))
        : []
      if (!group) return passThrough()
      const tried = steps.flatMap((s) => (s.decision as { offered_devices?: number[] }).offered_devices ?? [])
      if (group.strategy === 'ringall') {
        if (group.timeoutDestinationApp) return toDestination(env, base, group.timeoutDestinationApp, group.timeoutDestinationAppdata, hops + 1)
        return passThrough()
      }
      return toCallGroup(env, base, group, hops, tried)
    }
    case 'trunk': {
      const [route] = last.outboundRouteId
        ? await env.db
            .select()
            .from(pabxOutboundRoutes)
            .where(and(eq(pabxOutboundRoutes.siteId, last.siteId), eq(pabxOutboundRoutes.id, last.outboundRouteId)))
        : []
      if (!route) return passThrough()
      const tried = steps.filter((s) => s.kind === 'trunk' && s.outboundRouteId === route.id && s.trunkId !== null).map((s) => s.trunkId!)
      return toTrunk(env, { ...base, phone: steps[0]!.phone }, route, tried, failed)
    }
    default:
      return passThrough()
  }
}

export { engagedUsers }
