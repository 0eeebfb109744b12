import { and, eq, sql } from 'drizzle-orm'
import { CALL_TYPE } from '../../../../contract/codes/call-types.ts'
import { replacesHeader } from '../../../../contract/codes/transfer.ts'
import type { JoinedDialog } from '../../../../contract/codes/transfer.ts'
import { pabxDevices, sipRegistrations, users } from '../../../db/schema/index.ts'
import { appId, DEVICE_RING_SECONDS, unavailable, uri } from '../call-plan.ts'
import type { CallBase, Destination, Env, Plan } from '../call-plan.ts'
import { headerLines, rejectWith } from '../protocol.ts'
import type { ControlRelay } from '../protocol.ts'

// `pjsip`: one extension (a device) rings, for DEVICE_RING_SECONDS; refused when it is unregistered (480) or busy (486).

export type DeviceRow = typeof pabxDevices.$inferSelect

export const deviceDestination: Destination = async (env, base, appdata) => {
  const id = appId(appdata)
  const [device] = id
    ? await env.db
        .select()
        .from(pabxDevices)
        .where(and(eq(pabxDevices.siteId, base.siteId), eq(pabxDevices.id, id), eq(pabxDevices.isActive, true)))
    : []
  if (!device) return unavailable(base)
  const record = base.record || device.recording === 'always' || device.recording === 'inbound'
  return toDevice(env, { ...base, record }, device, DEVICE_RING_SECONDS)
}

/** Is the device taking calls: registered (when Kamailio said so) and below its busy threshold. */
export async function deviceState(env: Env, siteId: number, device: DeviceRow): Promise<'ok' | 'unregistered' | 'busy'> {
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
