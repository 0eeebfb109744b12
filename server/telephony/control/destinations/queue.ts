import type { CallRecordRow } from '../../../db/schema/index.ts'
import { claimedByHeavierQueues, loadMembers, loadQueue, queueMemory, waitingCalls } from '../acd.ts'
import type { Member, QueueRow } from '../acd.ts'
import { appId, toMediaApp, unavailable, uri } from '../call-plan.ts'
import type { CallBase, Destination, Env, Plan } from '../call-plan.ts'
import { headerLines, reject, rejectWith } from '../protocol.ts'
import type { ControlRelay } from '../protocol.ts'
import { chooseMembers } from '../../../acd/strategies.ts'

// `queue`: the ACD (README "Queues"). The members and their availability are acd.ts, the choice strategies.ts.

export const queueDestination: Destination = async (env, base, appdata, hops) => {
  const id = appId(appdata)
  const queue = id ? await loadQueue(env.db, base.siteId, id) : null
  return queue ? toQueue(env, base, queue, [], null, hops) : unavailable(base)
}

/**
 * Offers the call to the queue's next member, or follows the overflow. `tried` are the members already offered this
 * call in this queue; `queueStartedAt` when the call entered it (null: now).
 */
export async function toQueue(env: Env, base: CallBase, queue: QueueRow, tried: readonly number[], queueStartedAt: Date | null, hops: number): Promise<Plan> {
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
    const next = await env.destination(env, base, queue.overflowApp, queue.overflowAppdata, hops + 1)
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
  if (queueStartedAt === null && queue.maxCallers > 0 && (await waitingCalls(env.db, base.siteId, queue.id, env.now)) >= queue.maxCallers) return overflow()

  const members = await loadMembers(env.db, base.siteId, queue.id, env.now)
  const available = members.filter((m) => m.available)
  let fresh = available.filter((m) => !tried.includes(m.userId))
  // Everyone available was offered the call already: another round while the queue's wait lasts (a limit must be set).
  if (fresh.length === 0 && queue.maxWaitTime > 0) fresh = available
  // Queue weight: agents a heavier queue with callers waiting counts on are offered this call only when nobody else is.
  const claimed = await claimedByHeavierQueues(
    env.db,
    base.siteId,
    queue,
    fresh.map((m) => m.userId),
    env.now,
  )
  if (claimed.size > 0 && fresh.some((m) => !claimed.has(m.userId))) fresh = fresh.filter((m) => !claimed.has(m.userId))
  const memory = await queueMemory(env.db, base.siteId, queue.id)
  const chosen = chooseMembers(queue.strategy, fresh, memory, env.random, members) as Member[]
  // A queue with a telephony NPS survey sends its callers through the media app even when an agent is free, so the
  // app (in the signalling path) can keep the caller for the survey when the agent hangs up (server/media/app/nps.ts).
  if (queue.npsId !== null && queueStartedAt === null && env.mediaApp && !env.mediaLeg) return [{ ...queueStep, decision: toMediaApp(env.mediaApp, base, `queue.${queue.id}`) }]
  if (chosen.length === 0) {
    // Nobody free as the caller arrives: the caller waits in the media app (music, announcements) until the server
    // bridges them to the next free member (server/media/app/brain.ts), or the queue's wait runs out.
    if (queueStartedAt === null && env.mediaApp && !env.mediaLeg) return [{ ...queueStep, decision: toMediaApp(env.mediaApp, base, `queue.${queue.id}`) }]
    return overflow()
  }

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
      // How long the caller waited before this agent was offered the call (the media app held them).
      'X-Atende-Queue-Wait': queueStartedAt ? Math.max(0, Math.round(waited)) : null,
    }),
    timeout: Math.max(1, Math.min(queue.ringTime, Math.ceil(remaining))),
    // The media app's bridge to a member: a failure goes back to the app, which plays music again and asks later.
    on_failure: !env.mediaLeg,
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

/** The member offered did not answer: the next one (or another round, or the overflow); null passes the failure on. */
export async function queueAfterFailure(env: Env, steps: CallRecordRow[], base: CallBase, hops: number): Promise<Plan | null> {
  const last = steps[steps.length - 1]!
  const queue = last.queueId ? await loadQueue(env.db, last.siteId, last.queueId) : null
  if (!queue) return null
  const inQueue = steps.filter((s) => s.queueId === queue.id && s.kind === 'queue')
  const tried = inQueue.flatMap((s) => (s.offeredUserIds?.length ? s.offeredUserIds : s.userId ? [s.userId] : []))
  return toQueue(env, { ...base, record: steps[0]!.record }, queue, tried, inQueue[0]?.queueStartedAt ?? env.now, hops)
}
