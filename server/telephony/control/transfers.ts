import { and, eq, sql } from 'drizzle-orm'
import { ACTIVITY_CALL_HEADER } from '../../../contract/api/activities.ts'
import { TRANSFER_TYPES } from '../../../contract/api/service-actions.ts'
import { BLIND_TRANSFER_PREFIX, parseAppTarget } from '../../../contract/codes/transfer.ts'
import type { DiallableApp } from '../../../contract/codes/transfer.ts'
import { activities, pabxCallGroups, pabxDevices, users } from '../../db/schema/index.ts'
import type { RouteRequest } from '../types.ts'
import { allowedAppIds } from './app-permissions.ts'
import { trunkParty } from './attended-transfer.ts'
import { rejectWith } from './protocol.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { toCallGroup } from './destinations/call-group.ts'
import { toDestination } from './destinations/index.ts'

// Transfers: a blind transfer is a REFER to `*8<destination>` (contract/codes/transfer.ts), which the transferee's phone
// follows with a new INVITE to `*8<destination>`; attended and pendulum transfers dial the destination with
// X-Atende-Transfer and X-Atende-Parent-Uid. Either way the new call is routed as a dial of the destination and its
// steps name the step it was transferred from.

const header = (request: RouteRequest, name: string) => request.x_headers[name] ?? request.x_headers[name.toLowerCase()]

export async function transferOf(
  env: Env,
  siteId: number,
  deviceId: number,
  userId: number | null,
  request: RouteRequest,
): Promise<{ dialled: string; type: string; parentUid: string | null } | null> {
  const dialled = request.ruri_user
  const blind = dialled.startsWith(BLIND_TRANSFER_PREFIX) && dialled.length > BLIND_TRANSFER_PREFIX.length
  const named = header(request, 'X-Atende-Transfer')?.trim()
  const type = blind ? 'blind' : (TRANSFER_TYPES as readonly string[]).includes(named ?? '') ? named! : null
  if (!type) return null
  const party = sql`(caller_device_id = ${deviceId} or device_id = ${deviceId}${userId === null ? sql`` : sql` or user_id = ${userId} or caller_user_id = ${userId}`})`
  const parentUid = header(request, 'X-Atende-Parent-Uid')?.trim()
  // The parent a device names counts only if that device (or its agent) took part in it.
  const rows = (await env.db.execute(
    parentUid
      ? sql`select uid from call_records where site_id = ${siteId} and uid = ${parentUid} and ${party} limit 1`
      : // The transferee follows the REFER while still talking on the call it was transferred from.
        sql`select uid from call_records where site_id = ${siteId} and ended_at is null and answered_at is not null
            and call_id <> ${request.call_id} and ${party} order by answered_at desc, id desc limit 1`,
  )) as unknown as { rows: { uid: string }[] }
  return { dialled: blind ? dialled.slice(BLIND_TRANSFER_PREFIX.length) : dialled, type, parentUid: rows.rows[0]?.uid ?? null }
}

/**
 * The activity a call works (the webphone's activity dialer names it in X-Atende-Activity): only one of the caller's
 * own activities on this site counts; any other id is ignored, the call goes on without it.
 */
export async function activityOf(env: Env, siteId: number, userId: number | null, request: RouteRequest): Promise<number | null> {
  const named = header(request, ACTIVITY_CALL_HEADER)?.trim() ?? ''
  if (userId === null || !/^\d{1,9}$/.test(named)) return null
  const [row] = await env.db
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.id, Number(named)), eq(activities.siteId, siteId), eq(activities.userId, userId)))
  return row?.id ?? null
}

/**
 * The outside party of a call follows an agent's blind transfer (REFER to `*8<destination>`): its new INVITE comes from
 * the trunk and is routed like a dial of the destination (a device or a call group of the site), with the transfer
 * headers naming the call it came from. Only while that party has an answered call going on over this trunk: the
 * prefix is no way in to the extensions for an outside caller (404 otherwise).
 */
export async function trunkBlindTransfer(env: Env, request: RouteRequest, base: CallBase): Promise<Plan> {
  const destination = request.ruri_user.slice(BLIND_TRANSFER_PREFIX.length)
  const party = request.from_user
  const parent = (await env.db.execute(
    sql`select uid, device_id, caller_device_id from call_records where site_id = ${base.siteId} and ended_at is null
        and answered_at is not null and call_id <> ${request.call_id} and ${trunkParty(base.trunkId!, party)}
        order by answered_at desc, id desc limit 1`,
  )) as unknown as { rows: { uid: string; device_id: number | null; caller_device_id: number | null }[] }
  const parentRow = parent.rows[0]
  if (!parentRow) return [{ ...base, kind: 'reject', decision: rejectWith(404) }]
  const transferred: CallBase = { ...base, callee: destination, did: '', transferOfUid: parentRow.uid, transferType: 'blind' }
  const appDial = parseAppTarget(destination)
  // To a queue, call group, extension … of the lists: the transferring agent's own permission list decides.
  const agentDevice = parentRow.device_id ?? parentRow.caller_device_id
  if (appDial) {
    if (agentDevice === null) return [{ ...transferred, kind: 'reject', decision: rejectWith(403) }]
    return toPermittedApp(env, transferred, await endpointOf(env, base.siteId, agentDevice), appDial, 'transfer')
  }
  const [device] = await env.db
    .select()
    .from(pabxDevices)
    .where(and(eq(pabxDevices.siteId, base.siteId), eq(pabxDevices.username, destination), eq(pabxDevices.isActive, true)))
  if (device) return toDestination(env, transferred, 'pjsip', String(device.id), 0)
  const [group] = await env.db
    .select()
    .from(pabxCallGroups)
    .where(and(eq(pabxCallGroups.siteId, base.siteId), eq(pabxCallGroups.number, destination), eq(pabxCallGroups.isActive, true)))
  if (group) return toCallGroup(env, transferred, group, 0)
  return [{ ...transferred, kind: 'reject', decision: rejectWith(404) }]
}

/**
 * A dial or transfer to one destination of an app (`<app>.<id>`, contract/codes/transfer.ts): routed like an inbound
 * route's destination when the endpoint's permission list for that app names it, else refused (403).
 */
export async function toPermittedApp(
  env: Env,
  base: CallBase,
  endpoint: { siteId: number; deviceId: number; teamId: number | null },
  target: { app: DiallableApp; appdata: string },
  kind: 'transfer' | 'call',
): Promise<Plan> {
  const allowed = await allowedAppIds(env.db, endpoint, target.app, kind)
  if (!allowed.includes(Number(target.appdata))) return [{ ...base, kind: 'reject', decision: rejectWith(403) }]
  return toDestination(env, base, target.app, target.appdata, 0)
}

/** The permission-list owner of a device: its site, itself and its agent's team. */
export async function endpointOf(env: Env, siteId: number, deviceId: number) {
  const [owner] = await env.db
    .select({ teamId: users.teamId })
    .from(users)
    .where(and(eq(users.siteId, siteId), eq(users.deviceId, deviceId)))
  return { siteId, deviceId, teamId: owner?.teamId ?? null }
}
