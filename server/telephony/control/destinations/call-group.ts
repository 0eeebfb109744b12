import { and, asc, eq } from 'drizzle-orm'
import { pabxCallGroupMembers, pabxCallGroups, pabxDevices } from '../../../db/schema/index.ts'
import type { CallRecordRow } from '../../../db/schema/index.ts'
import { appId, unavailable, uri } from '../call-plan.ts'
import type { CallBase, Destination, Env, Plan } from '../call-plan.ts'
import { headerLines } from '../protocol.ts'
import type { ControlRelay } from '../protocol.ts'
import { deviceState } from './device.ts'
import type { DeviceRow } from './device.ts'

// `callgroup`: ring-all (every free member at once, as parallel branches) or linear (one member at a time, the next on
// failure); nobody left → the group's timeout destination.

export type GroupRow = typeof pabxCallGroups.$inferSelect

export const callGroupDestination: Destination = async (env, base, appdata, hops) => {
  const id = appId(appdata)
  const [group] = id
    ? await env.db
        .select()
        .from(pabxCallGroups)
        .where(and(eq(pabxCallGroups.siteId, base.siteId), eq(pabxCallGroups.id, id), eq(pabxCallGroups.isActive, true)))
    : []
  return group ? toCallGroup(env, base, group, hops) : unavailable(base)
}

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

export async function toCallGroup(env: Env, base: CallBase, group: GroupRow, hops: number, tried: readonly number[] = []): Promise<Plan> {
  const devices = []
  for (const device of await callGroupDevices(env, base.siteId, group.id)) {
    if (!tried.includes(device.id) && (await deviceState(env, base.siteId, device)) === 'ok') devices.push(device)
  }
  const targets = group.strategy === 'ringall' ? devices : devices.slice(0, 1)
  if (targets.length === 0) {
    if (group.timeoutDestinationApp) return env.destination(env, base, group.timeoutDestinationApp, group.timeoutDestinationAppdata, hops + 1)
    return unavailable(base)
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

/** A member did not answer: the next one (linear), or the timeout destination (ring-all); null passes the failure on. */
export async function callGroupAfterFailure(env: Env, steps: CallRecordRow[], base: CallBase, hops: number): Promise<Plan | null> {
  const last = steps[steps.length - 1]!
  const groupId = (last.decision as { group?: number }).group
  const [group] = groupId
    ? await env.db
        .select()
        .from(pabxCallGroups)
        .where(and(eq(pabxCallGroups.siteId, last.siteId), eq(pabxCallGroups.id, groupId)))
    : []
  if (!group) return null
  const tried = steps.flatMap((s) => (s.decision as { offered_devices?: number[] }).offered_devices ?? [])
  if (group.strategy === 'ringall') {
    if (group.timeoutDestinationApp) return env.destination(env, base, group.timeoutDestinationApp, group.timeoutDestinationAppdata, hops + 1)
    return null
  }
  return toCallGroup(env, base, group, hops, tried)
}
