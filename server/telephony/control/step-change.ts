import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Bus } from '../../bus/bus.ts'
import { pushToUser } from '../../bus/channels.ts'
import type { Db } from '../../db/client.ts'
import { callRecords } from '../../db/schema/index.ts'
import { latestStep } from './records.ts'

// changeCallStep (spec 000 §7 names it among the status feed's actions; its fields are ours): the agent's live call
// became another call step without the webphone dialling or being offered a new call. That happens when the customer
// of an attended (or pendulum) transfer joins the consultation: the joining call (attended-transfer.ts) is relayed to
// the consulted device with Replaces, and once that phone answered it, the consulted agent talks to the customer on a
// new step (transfer_of_uid the origin). The form, classification and after-service of that conversation belong to
// the new step, so the agent's webphone must send them there: it hears the new uid here even if the joining INVITE
// reached it without X-Atende-Uid (the SIP road tells it too, PHONE_REPLACED; the first to arrive wins, the second
// changes nothing).

/** Who hears it and what: the consulted agent, the consultation's step uid and the joining step's. */
export type StepChange = { siteId: number; userId: number; uid: string; stepUid: string; callId: string }

const REPLACES = /(?:^|\r\n)Replaces: ([^;\r\n]+);/

/**
 * After `callId` was answered: when it is the joining call of an attended transfer, the change of step of the
 * consulted agent (null otherwise: any other call, a consultation already gone, a device without an agent).
 */
export async function replacedStep(db: Db, callId: string): Promise<StepChange | null> {
  const joined = await latestStep(db, callId)
  if (!joined || (joined.transferType !== 'attend' && joined.transferType !== 'pendulum') || joined.deviceId === null) return null
  const consultationId = REPLACES.exec((joined.decision as { headers?: string }).headers ?? '')?.[1]
  if (!consultationId) return null
  const [consultation] = await db
    .select({ uid: callRecords.uid, userId: callRecords.userId })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.siteId, joined.siteId),
        eq(callRecords.callId, consultationId),
        eq(callRecords.deviceId, joined.deviceId),
        isNotNull(callRecords.answeredAt),
      ),
    )
    .orderBy(desc(callRecords.step))
    .limit(1)
  if (!consultation || consultation.userId === null || consultation.uid === joined.uid) return null
  return { siteId: joined.siteId, userId: consultation.userId, uid: consultation.uid, stepUid: joined.uid, callId: joined.callId }
}

/** The agent's service sockets hear the change (wherever they are connected). */
export function announceStepChange(bus: Bus): (change: StepChange) => Promise<void> {
  return (change) =>
    pushToUser(bus, { siteId: change.siteId, userId: change.userId }, { action: 'changeCallStep', uid: change.uid, step_uid: change.stepUid, call_id: change.callId })
}
