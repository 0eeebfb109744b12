import { and, eq, inArray, isNull, or } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { pabxCallGroups, pabxDevices, pabxInboundRoutes, pabxNumbers, pabxTrunks, sites, users } from '../../db/schema/index.ts'
import { CALL_TYPE } from '../../../contract/codes/call-types.ts'
import { ATTENDED_TRANSFER_PREFIX, BLIND_TRANSFER_PREFIX, parseAppTarget } from '../../../contract/codes/transfer.ts'
import type { RouteRequest } from '../types.ts'
import { deviceParty, joinConsultation, trunkParty } from './attended-transfer.ts'
import { calendarOpen } from '../../acd/calendar-open.ts'
import { appId, DEVICE_RING_SECONDS, toMediaApp, unavailable } from './call-plan.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { toCallGroup } from './destinations/call-group.ts'
import { toDevice } from './destinations/device.ts'
import { toDestination } from './destinations/index.ts'
import { toQueue } from './destinations/queue.ts'
import { loadQueue } from './acd.ts'
import { latestStep, stepsOf } from './records.ts'
import { matchesAny } from './dial-patterns.ts'
import { allowedRoutes, toTrunk } from './outbound.ts'
import { areaCodeOf, contextAllows } from './phone.ts'
import { rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'
import { heldPreviewLead, isDialerCall, withDialerHeaders } from './dialer-leg.ts'
import { activityOf, toPermittedApp, transferOf, trunkBlindTransfer } from './transfers.ts'

// The first question of a call (README.md "Routing"): a device dials another device, a call group number, a
// destination of the lists (`<app>.<id>`) or an outbound route's pattern; a trunk's DID leads through a number and an
// inbound route to a destination (destinations/). Each function answers the steps to record, the last one carrying
// the decision Kamailio gets. After a failed branch: after-failure.ts.

/** Destinations an inbound route's NPS survey follows through the media app: those where an agent answers. */
const SURVEYED_APPS: ReadonlySet<string> = new Set(['queue', 'pjsip', 'callgroup'])

export async function routeNew(
  env: Env,
  request: RouteRequest,
): Promise<{ siteId: number; plan: Plan; parentUid?: string | null } | { siteId: null; decision: Decision }> {
  if (request.source === 'media') return fromMedia(env, request)
  return request.source === 'trunk' ? fromTrunk(env, request) : fromDevice(env, request)
}

/**
 * The media app bridges a caller it holds (`X-Atende-Media-Leg`: the caller's Call-ID) on to `<app>.<id>`: a queue's
 * next free member (the ACD; the caller's wait so far counts), or any other destination. The new leg's steps are its
 * own call, child of the caller's first step, and carry the caller's side (phone, DID, inbound route...).
 */
async function fromMedia(env: Env, request: RouteRequest) {
  const { db } = env
  const callerCallId = request.x_headers['X-Atende-Media-Leg'] ?? ''
  const target = parseAppTarget(request.ruri_user)
  const held = callerCallId ? await latestStep(db, callerCallId) : null
  if (!held || !target) return { siteId: null, decision: rejectWith(404) } as const
  const steps = await stepsOf(db, held.siteId, callerCallId)
  const first = steps[0]!
  const [site] = await db.select().from(sites).where(eq(sites.id, held.siteId))
  const base: CallBase = {
    siteId: held.siteId,
    domain: site!.domain,
    callId: request.call_id,
    direction: first.direction,
    callType: first.callType,
    caller: first.caller,
    callee: first.callee,
    phone: first.phone,
    callerDeviceId: first.callerDeviceId,
    callerUserId: first.callerUserId,
    inboundRouteId: first.inboundRouteId,
    trunkId: first.trunkId,
    did: first.did,
    areaCode: first.areaCode,
    record: first.record,
    clientName: first.phone || first.caller,
    transferOfUid: first.transferOfUid,
    transferType: first.transferType,
    activityId: first.activityId,
  }
  const legEnv: Env = { ...env, mediaLeg: true }
  // An answered dialer call (server/dialer): the agent's leg gets the lead's headers the media app relays.
  const dialer = isDialerCall(first)
  const plan = (planned: Plan) => ({
    siteId: held.siteId,
    plan: dialer
      ? planned.map((step, i) => (i === planned.length - 1 ? { ...step, decision: withDialerHeaders(step.decision, request.x_headers) } : step))
      : planned,
    parentUid: first.uid,
  })
  if (target.app === 'queue') {
    const queue = await loadQueue(db, held.siteId, Number(target.appdata))
    if (!queue) return plan(unavailable(base))
    const waiting = steps.find((s) => s.kind === 'queue' && s.queueId === queue.id)
    return plan(await toQueue(legEnv, base, queue, [], waiting?.queueStartedAt ?? env.now, 0))
  }
  return plan(await toDestination(legEnv, base, target.app, target.appdata, 1))
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

  // A preview call (type 18): the agent calls the lead they hold (make-call-to-mailing-client); its result goes back
  // on the lead when the call ends (dialer-leg.ts finishPreviewCall).
  const preview = await heldPreviewLead(db, site.id, caller.userId, request.x_headers['X-Atende-Mailing-Client'], env.now)
  const outbound = {
    ...base,
    direction: 'outbound',
    callType: preview ? CALL_TYPE.preview : CALL_TYPE.activeManual,
    phone: dialled,
    areaCode: areaCodeOf(dialled),
    ...(preview ? { leadId: preview.leadId, clientId: preview.clientId } : {}),
  }
  const routes = await allowedRoutes(db, site.id, caller.device.id, caller.teamId)
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
  // A route naming a telephony NPS survey sends its callers through the media app (when it runs) to their destination,
  // so the app stays in the signalling path and keeps the caller for the survey when the agent hangs up (nps.ts). A
  // destination that is not an id-addressed one (a number, hang up) goes on as usual.
  if (route.npsId !== null && env.mediaApp && !env.mediaLeg && SURVEYED_APPS.has(app) && appId(appdata) !== null)
    return plan([{ ...routed, kind: 'media', decision: toMediaApp(env.mediaApp, routed, `${app}.${appId(appdata)}`) }])
  return plan(await toDestination(env, routed, app, appdata, 0))
}
