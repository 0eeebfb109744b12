import { randomUUID } from 'node:crypto'
import { clientByPhone } from '../../crm/keys.ts'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { callRecords, pabxDevices, users } from '../../db/schema/index.ts'
import type { CallRecordRow, NewCallRecord } from '../../db/schema/index.ts'
import { headerLines } from './protocol.ts'
import type { Decision } from './protocol.ts'

// The call records (server/db/schema/calls.ts): one row per decision step, written in the same transaction as the
// decision is made, and completed by Kamailio's call events. Every write is idempotent: a step is unique on (site, call
// id, step) and an event only fills what is still empty.

/** A step to record: what the route decided and why, without the bookkeeping columns. */
export type StepDraft = Omit<NewCallRecord, 'id' | 'siteId' | 'callId' | 'step' | 'uid' | 'parentUid' | 'startedAt' | 'decision'> & {
  decision: Decision
}

/** The steps of a call, in order. */
export async function stepsOf(db: Db, siteId: number, callId: string): Promise<CallRecordRow[]> {
  return db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.siteId, siteId), eq(callRecords.callId, callId)))
    .orderBy(callRecords.step)
}

/** The latest step of a Call-ID on any site (failures and events name no site). */
export async function latestStep(db: Db, callId: string): Promise<CallRecordRow | null> {
  const [row] = await db.select().from(callRecords).where(eq(callRecords.callId, callId)).orderBy(desc(callRecords.startedAt), desc(callRecords.step)).limit(1)
  return row ?? null
}

/**
 * Records `drafts` as the steps after `after` (0 for a new call) and returns the decision of the last one. When another
 * answer for the same step exists already (a repeated question, another server instance), that answer wins.
 */
export async function recordSteps(
  db: Db,
  call: {
    siteId: number
    callId: string
    after: number
    parentUid: string | null
    now: Date
  },
  drafts: readonly StepDraft[],
): Promise<Decision> {
  return db.transaction(async (tx) => {
    let parentUid = call.parentUid
    let decision: Decision | null = null
    // The CRM client the customer's number belongs to, kept on every step (one index probe, server/crm/keys.ts).
    const phone = drafts.find((d) => d.phone)?.phone ?? ''
    const clientId = phone ? await clientByPhone(tx as unknown as Db, call.siteId, phone) : null
    for (const [index, draft] of drafts.entries()) {
      const step = call.after + index + 1
      const uid = randomUUID()
      const rejected = draft.decision.action === 'reject'
      const decided = withStepHeaders(draft, uid)
      const inserted = await tx
        .insert(callRecords)
        .values({
          ...draft,
          clientId: draft.clientId ?? clientId,
          siteId: call.siteId,
          callId: call.callId,
          step,
          uid,
          parentUid,
          startedAt: call.now,
          // A reject (or a step closed on the spot, such as an overflow) ends as it starts.
          ...(rejected
            ? {
                dialStatus: draft.dialStatus ?? (draft.decision as { code: number }).code,
                endedAt: call.now,
                totalDuration: 0,
              }
            : {}),
          dialStatusText: draft.dialStatusText || (rejected ? (draft.decision as { reason: string }).reason : ''),
          decision: decided as unknown as Record<string, unknown>,
        })
        .onConflictDoNothing()
        .returning({ id: callRecords.id })
      if (inserted.length === 0) {
        const [existing] = await tx
          .select({ decision: callRecords.decision })
          .from(callRecords)
          .where(and(eq(callRecords.siteId, call.siteId), eq(callRecords.callId, call.callId)))
          .orderBy(desc(callRecords.step))
          .limit(1)
        return existing!.decision as unknown as Decision
      }
      parentUid ??= uid
      decision = decided
    }
    return decision!
  })
}

/**
 * A relay tells both agents' devices which step this is: `X-Atende-Uid` toward the callee (the webphone's call uid,
 * the key of its metadata requests) and `uid` for Kamailio, which puts it on the replies toward the caller. A transfer's
 * call (blind `*8`, attended, pendulum) also carries `X-Atende-Transfer` and `X-Atende-Parent-Uid`.
 */
function withStepHeaders(draft: StepDraft, uid: string): Decision {
  if (draft.decision.action !== 'relay') return draft.decision
  const transfer = draft.transferOfUid ? { 'X-Atende-Transfer': draft.transferType ?? 'blind', 'X-Atende-Parent-Uid': draft.transferOfUid } : {}
  return { ...draft.decision, uid, headers: draft.decision.headers + headerLines({ 'X-Atende-Uid': uid, ...transfer }) }
}

/** Closes the open step of a call that failed (a failure request): its SIP answer and end. */
export async function closeStep(db: Db, row: CallRecordRow, code: number, reason: string, at: Date): Promise<void> {
  await db
    .update(callRecords)
    .set({
      dialStatus: sql`coalesce(${callRecords.dialStatus}, ${code})`,
      dialStatusText: sql`case when ${callRecords.dialStatus} is null then ${reason} else ${callRecords.dialStatusText} end`,
      endedAt: at,
      totalDuration: sql`greatest(0, round(extract(epoch from (${at}::timestamptz - ${callRecords.startedAt}))))::int`,
    })
    .where(and(eq(callRecords.id, row.id), isNull(callRecords.endedAt)))
}

export type CallProgress = {
  callId: string
  state: 'ringing' | 'answered' | 'ended' | 'failed'
  code: number
  reason: string
  by: string
  at: Date
  /** `answered`: the username of the device that answered (ring-all steps learn their agent from it). */
  callee?: string
}

const seconds = (from: unknown) => sql`greatest(0, round(extract(epoch from (${from}::timestamptz - ${callRecords.startedAt}))))::int`

/** Applies a call event to the call's steps; a repeated or late event changes nothing already set. */
export async function applyProgress(db: Db, event: CallProgress): Promise<void> {
  const latest = await latestStep(db, event.callId)
  if (!latest) return
  const open = and(eq(callRecords.siteId, latest.siteId), eq(callRecords.callId, event.callId), isNull(callRecords.endedAt))
  const at = event.at
  switch (event.state) {
    case 'ringing':
      await db
        .update(callRecords)
        .set({
          ringingAt: sql`coalesce(${callRecords.ringingAt}, ${at}::timestamptz)`,
        })
        .where(and(open, eq(callRecords.step, latest.step)))
      return
    case 'answered':
      await db
        .update(callRecords)
        .set({
          answeredAt: sql`coalesce(${callRecords.answeredAt}, ${at}::timestamptz)`,
          ringingAt: sql`coalesce(${callRecords.ringingAt}, ${at}::timestamptz)`,
          dialStatus: 200,
          dialStatusText: event.reason || 'OK',
          queueWait: sql`case when ${callRecords.queueStartedAt} is null then null else greatest(0, round(extract(epoch from (coalesce(${callRecords.answeredAt}, ${at}::timestamptz) - ${callRecords.queueStartedAt}))))::int end`,
        })
        .where(and(open, eq(callRecords.step, latest.step)))
      if (event.callee) await recordAnsweringDevice(db, latest, event.callee)
      return
    case 'ended':
    case 'failed': {
      // Spec 000 §4 dial status codes: a call the caller gave up on before an answer is 487 (cancelled), whatever the
      // engine's own failure code; a failure without one is 480 (not answered) — never '500 · Erro interno'.
      const cancelled = event.by === 'caller' && latest.answeredAt === null
      const code = cancelled ? 487 : event.code || (event.state === 'ended' ? 487 : 480)
      await db
        .update(callRecords)
        .set({
          endedAt: at,
          totalDuration: seconds(at),
          answeredDuration: sql`case when ${callRecords.answeredAt} is null then null else greatest(0, round(extract(epoch from (${at}::timestamptz - ${callRecords.answeredAt}))))::int end`,
          dialStatus: sql`coalesce(${callRecords.dialStatus}, ${code})`,
          dialStatusText: sql`case when ${callRecords.dialStatus} is null then ${cancelled && event.code !== 487 ? '' : event.reason} else ${callRecords.dialStatusText} end`,
          hungUpBy: sql`case when ${callRecords.answeredAt} is null and ${event.state} = 'failed' then null else ${event.by || null} end`,
          recordingPath: sql`case when ${callRecords.record} and ${callRecords.answeredAt} is not null then ${recordingPrefix(event.callId)} else null end`,
        })
        .where(open)
      return
    }
  }
}

/**
 * A step that offered the call to several devices at once (ring-all queue or call group) has no device or agent until
 * one answers: the answering device (its username, from Kamailio) and its user are written then. A step that already
 * names its device is left alone, and so is a device that was not offered this call.
 */
async function recordAnsweringDevice(db: Db, step: CallRecordRow, username: string): Promise<void> {
  if (step.deviceId !== null) return
  const [device] = await db
    .select({ id: pabxDevices.id, userId: users.id })
    .from(pabxDevices)
    .leftJoin(users, and(eq(users.deviceId, pabxDevices.id), eq(users.siteId, step.siteId)))
    .where(and(eq(pabxDevices.siteId, step.siteId), eq(pabxDevices.username, username)))
  if (!device) return
  const offeredUsers = step.offeredUserIds ?? []
  const offeredDevices = (step.decision as { offered_devices?: number[] }).offered_devices ?? []
  const offered = (device.userId !== null && offeredUsers.includes(device.userId)) || offeredDevices.includes(device.id)
  if (!offered) return
  await db
    .update(callRecords)
    .set({ deviceId: device.id, userId: sql`coalesce(${callRecords.userId}, ${device.userId})` })
    .where(and(eq(callRecords.id, step.id), isNull(callRecords.deviceId)))
}

/** Where rtpengine's pcaps of a call start (relative to the recordings directory): `pcaps/<call id>-`. */
export function recordingPrefix(callId: string): string {
  return `pcaps/${callId}-`
}
