import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import { callRecords, pabxDevices } from '../../db/schema/index.ts'
import { parseJoinAddress } from '../../../contract/codes/transfer.ts'
import type { RouteRequest } from '../types.ts'
import { rejectWith } from './protocol.ts'
import { DEVICE_RING_SECONDS } from './call-plan.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { toDevice } from './destinations/device.ts'

// The transferee of an attended transfer joins the consultation (contract/codes/transfer.ts): the agent REFERred it
// to `*9<call-id>.<to-tag>.<from-tag>` of the consultation call, and its INVITE to that number lands here — from the
// trunk when it is the customer, from a device when it is a colleague's phone. It is relayed to the consulted device
// with `Replaces`, so that phone swaps it in for the agent, only when:
//   - that consultation is an answered call going on, to a device of this site, and
//   - the transferee is itself on an answered call going on with the agent who placed the consultation.
// Anything else is a 404, as for `*8`: the prefix is no way in to the extensions, and knowing a Call-ID and both
// tags is not enough without being on the agent's call.

/**
 * Plans the joining call. `party` narrows call_records to the transferee's own leg (the trunk and the customer's
 * number, or the transferee's device); `base` is the call as its source would route it.
 */
export async function joinConsultation(env: Env, request: RouteRequest, base: CallBase, party: SQL): Promise<Plan> {
  const notFound: Plan = [{ ...base, kind: 'reject', decision: rejectWith(404) }]
  const dialog = parseJoinAddress(request.ruri_user)
  if (!dialog) return notFound
  const [consultation] = await env.db
    .select()
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, base.siteId),
        eq(callRecords.callId, dialog.callId),
        isNull(callRecords.endedAt),
        isNotNull(callRecords.answeredAt),
        isNotNull(callRecords.deviceId),
      ),
    )
    .orderBy(desc(callRecords.step))
    .limit(1)
  if (!consultation?.callerDeviceId || !consultation.deviceId) return notFound
  const agentDevice = consultation.callerDeviceId
  const origin = (await env.db.execute(
    sql`select uid from call_records where site_id = ${base.siteId} and ended_at is null and answered_at is not null
        and call_id <> ${request.call_id} and call_id <> ${consultation.callId} and ${party}
        and (device_id = ${agentDevice} or caller_device_id = ${agentDevice})
        order by answered_at desc, id desc limit 1`,
  )) as unknown as { rows: { uid: string }[] }
  const originUid = origin.rows[0]?.uid
  if (!originUid) return notFound
  const [device] = await env.db
    .select()
    .from(pabxDevices)
    .where(and(eq(pabxDevices.siteId, base.siteId), eq(pabxDevices.id, consultation.deviceId), eq(pabxDevices.isActive, true)))
  if (!device) return notFound
  const joined: CallBase = {
    ...base,
    callee: device.username,
    did: '',
    transferOfUid: originUid,
    transferType: consultation.transferType === 'pendulum' ? 'pendulum' : 'attend',
    record: base.record || device.recording === 'always' || device.recording === 'inbound',
  }
  return toDevice(env, joined, device, DEVICE_RING_SECONDS, dialog)
}

/** The customer's leg over `trunkId`: the caller's number is the call's phone, caller or callee. */
export const trunkParty = (trunkId: number, number: string) => sql`trunk_id = ${trunkId} and (phone = ${number} or caller = ${number} or callee = ${number})`

/** A device's leg: it placed the call or was offered it. */
export const deviceParty = (deviceId: number) => sql`(caller_device_id = ${deviceId} or device_id = ${deviceId})`
