import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { callRecords, crmLeads, dialerLeadStates, pabxOutboundRoutes, sites } from '../../db/schema/index.ts'
import { CALL_TYPE } from '../../../contract/codes/call-types.ts'
import { finishAttempt, loadCampaign } from '../../dialer/store.ts'
import type { CallRecordRow } from '../../db/schema/index.ts'
import type { RouteRequest } from '../types.ts'
import type { CallBase, Env, Plan } from './call-plan.ts'
import { matchesAny } from './dial-patterns.ts'
import { siteRoutes, toTrunk } from './outbound.ts'
import { headerLines, rejectWith } from './protocol.ts'
import type { Decision } from './protocol.ts'
import { latestStep } from './records.ts'

// The dialer's customer leg (issue 18, server/dialer/README.md): the media app calls the lead's phone with the Call-ID
// the campaign runner recorded as the call's first step (server/dialer/store.ts startAttempt: kind `trunk`, the
// campaign's outbound route, decision `{dialer, campaign, mailing}`). Call control answers that INVITE with the route's
// first trunk — the same relay an agent's outbound call gets — marked `media` (the app anchors the leg in rtpengine
// itself, Kamailio leaves its media alone), and writes the relay on that first step instead of adding one. A trunk that
// fails hands the call to the route's next trunk as for any outbound call (after-failure.ts; `asDialerPlan`).

/** The spec's §7 headers the dialer's runner gives the agent's leg (server/dialer/runner.ts headersFor). */
export const DIALER_HEADERS = [
  'X-Atende-Call-Type',
  'X-Atende-Dialer',
  'X-Atende-Campaign',
  'X-Atende-Mailing',
  'X-Atende-Mailing-Client',
  'X-Atende-Client',
  'X-Atende-Client-Name',
  'X-Atende-Attempts',
  'X-Atende-Queue',
] as const

/** A call the dialer placed: its first step is the runner's. */
export function isDialerCall(first: CallRecordRow | undefined): boolean {
  return first !== undefined && first.step === 1 && (first.decision as { dialer?: unknown }).dialer !== undefined
}

/** The relays of a dialer call's plan carry `media`: its media stays the media app's, on every trunk tried. */
export function asDialerPlan(plan: Plan): Plan {
  return plan.map((draft) => (draft.decision.action === 'relay' ? { ...draft, decision: { ...draft.decision, media: true } } : draft))
}

/** The media app's INVITE for a dialer call (no `X-Atende-Media-Leg`): the campaign's route to the customer. */
export async function routeDialerLeg(env: Env, request: RouteRequest): Promise<Decision> {
  const { db } = env
  const first = await latestStep(db, request.call_id)
  if (!first || !isDialerCall(first)) return rejectWith(404)
  // A repeated question gets the answer already given.
  if ((first.decision as { action?: string }).action) return first.decision as unknown as Decision
  if (first.endedAt) return rejectWith(487)
  const phone = first.phone
  const route = first.outboundRouteId
    ? (
        await db
          .select()
          .from(pabxOutboundRoutes)
          .where(and(eq(pabxOutboundRoutes.siteId, first.siteId), eq(pabxOutboundRoutes.id, first.outboundRouteId), eq(pabxOutboundRoutes.isActive, true)))
      )[0]
    : (await siteRoutes(db, first.siteId)).find((r) => matchesAny(r.dialPatterns, phone))
  if (!route) return rejectWith(404)
  const [site] = await db.select().from(sites).where(eq(sites.id, first.siteId))
  const base: CallBase = {
    siteId: first.siteId,
    domain: site!.domain,
    callId: first.callId,
    direction: first.direction,
    callType: first.callType,
    caller: first.caller,
    callee: phone,
    phone,
    callerDeviceId: null,
    callerUserId: first.callerUserId,
    inboundRouteId: null,
    trunkId: null,
    did: '',
    areaCode: first.areaCode,
    transferOfUid: null,
    transferType: null,
    // The customer's media is the media app's rtpengine session, which Kamailio does not record here: the step keeps
    // the route's `record` (below) and the agent's leg, which carries the customer, is recorded (routing.ts fromMedia).
    record: false,
    clientName: '',
  }
  const [step] = asDialerPlan(await toTrunk(env, base, route, []))
  if (!step || step.decision.action !== 'relay') return step?.decision ?? rejectWith(503)
  const decision = { ...step.decision, uid: first.uid }
  await db
    .update(callRecords)
    .set({
      trunkId: step.trunkId ?? null,
      callee: step.callee ?? phone,
      outboundRouteId: route.id,
      record: route.record,
      decision: { ...(first.decision as Record<string, unknown>), ...decision } as unknown as Record<string, unknown>,
    })
    .where(eq(callRecords.id, first.id))
  return decision
}

/** The agent's leg of an answered dialer call carries the lead's headers (the runner's, relayed by the media app). */
export function withDialerHeaders(decision: Decision, headers: Record<string, string>): Decision {
  if (decision.action !== 'relay') return decision
  const wanted = Object.fromEntries(DIALER_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]!]))
  const names = new Set(Object.keys(wanted).map((n) => n.toLowerCase()))
  const kept = decision.headers
    .split('\r\n')
    .filter((line) => line !== '' && !names.has(line.slice(0, line.indexOf(':')).trim().toLowerCase()))
    .map((line) => `${line}\r\n`)
    .join('')
  return { ...decision, headers: kept + headerLines(wanted) }
}

// ---- preview calls (type 18): the agent's own call to the lead they hold

/**
 * The lead an agent's outbound call names (`X-Atende-Mailing-Client`, the webphone's header after
 * make-call-to-mailing-client) when that agent holds it now and no call of it is in flight; null otherwise (the call
 * is then an ordinary manual one).
 */
export async function heldPreviewLead(
  db: Db,
  siteId: number,
  userId: number | null,
  header: string | undefined,
  now: Date,
): Promise<{ leadId: number; clientId: number | null } | null> {
  if (userId === null || !header || !/^\d{1,9}$/.test(header.trim())) return null
  const [row] = await db
    .select({ leadId: crmLeads.id, clientId: crmLeads.clientId })
    .from(dialerLeadStates)
    .innerJoin(crmLeads, eq(crmLeads.id, dialerLeadStates.leadId))
    .where(
      and(
        eq(dialerLeadStates.leadId, Number(header.trim())),
        eq(dialerLeadStates.siteId, siteId),
        eq(dialerLeadStates.reservedBy, userId),
        gt(dialerLeadStates.reservedUntil, now),
        isNull(dialerLeadStates.callId),
      ),
    )
  return row ?? null
}

/** The preview call went out: the lead's attempt is counted now (as the runner's), and its hold names the call. */
export async function startPreviewAttempt(db: Db, siteId: number, leadId: number, callId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(crmLeads)
      .set({ attempts: sql`${crmLeads.attempts} + 1`, updatedAt: now })
      .where(and(eq(crmLeads.siteId, siteId), eq(crmLeads.id, leadId)))
    await tx
      .update(dialerLeadStates)
      .set({ callId, lastDialAt: now })
      .where(and(eq(dialerLeadStates.leadId, leadId), isNull(dialerLeadStates.callId)))
  })
}

/**
 * A call ended or failed: when it is a preview call still named by its lead's hold, the lead gets its result as a
 * dialer call's (finishAttempt: dial status, the lead's status by the campaign's rules, the hold released). The call's
 * own records are call control's (kept as Kamailio's events wrote them).
 */
export async function finishPreviewCall(db: Db, callId: string, now: Date): Promise<void> {
  const steps = await db.select().from(callRecords).where(eq(callRecords.callId, callId)).orderBy(callRecords.step)
  const first = steps[0]
  if (!first || first.callType !== CALL_TYPE.preview || first.leadId === null || steps.some((s) => s.endedAt === null)) return
  const [state] = await db
    .select()
    .from(dialerLeadStates)
    .where(and(eq(dialerLeadStates.leadId, first.leadId), eq(dialerLeadStates.callId, callId)))
  if (!state?.campaignId) return
  const campaign = await loadCampaign(db, first.siteId, state.campaignId)
  if (!campaign) return
  const answered = steps.find((s) => s.answeredAt !== null)
  const status = answered ? 200 : (steps[steps.length - 1]!.dialStatus ?? 480)
  await finishAttempt(db, {
    campaign,
    leadId: first.leadId,
    siteId: first.siteId,
    callId,
    result: { status, talkSeconds: answered?.answeredDuration ?? 0, answeredAt: answered?.answeredAt ?? null },
    now,
    keepRecord: true,
  })
}
