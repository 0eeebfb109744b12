import { eq } from 'drizzle-orm'
import { sites } from '../../db/schema/index.ts'
import type { CallRecordRow } from '../../db/schema/index.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { callGroupAfterFailure } from './destinations/call-group.ts'
import { queueAfterFailure } from './destinations/queue.ts'
import { trunkAfterFailure } from './outbound.ts'
import { reject } from './protocol.ts'

// After a failed branch (Kamailio's `failure`, when the decision asked on_failure): the kind of the call's last step
// decides what comes next — the queue's next member, the call group's next member or timeout destination, the route's
// next trunk. Anything else passes the failure back to the caller.

type AfterFailure = (env: Env, steps: CallRecordRow[], base: CallBase, failed: { code: number; reason: string }, hops: number) => Promise<Plan | null>

/** By the kind of the failed step (call_records.kind); null passes the failure on. */
const AFTER_FAILURE: Readonly<Record<string, AfterFailure>> = {
  queue: (env, steps, base, _failed, hops) => queueAfterFailure(env, steps, base, hops),
  callgroup: (env, steps, base, _failed, hops) => callGroupAfterFailure(env, steps, base, hops),
  trunk: (env, steps, base, failed) => trunkAfterFailure(env, steps, base, failed),
}

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
  const next = Object.hasOwn(AFTER_FAILURE, last.kind) ? await AFTER_FAILURE[last.kind]!(env, steps, base, failed, hops) : null
  return next ?? passThrough()
}
