import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import {
  callRecords,
  crmLeads,
  dialerCampaignRuns,
  dialerLeadStates,
  serviceBlacklists,
  serviceCalendars,
  serviceCalendarsHolidays,
  serviceCalendarsHours,
  serviceShipmentsCampaigns,
  serviceShipmentsCampaignsMailings,
} from '../db/schema/index.ts'
import { CALL_TYPE } from '../../contract/codes/call-types.ts'
import type { CallingCalendar, DialResult, PersistenceRules } from './rules.ts'
import { nextStep, persistenceRulesFromRecord } from './rules.ts'
import type { PastResult } from './simulator.ts'

// The dialer's database side: campaigns as the runner needs them, lead reservations (one holder at a time, safe under
// races), attempts and statuses written from what the carrier did, and a campaign's progress.

export type Campaign = typeof serviceShipmentsCampaigns.$inferSelect & { mailingIds: number[] }

export type ReservedLead = {
  id: number
  siteId: number
  mailingId: number
  clientId: number | null
  name: string
  surname: string
  phones: string[]
  attempts: number
  phoneIndex: number
  /** The lead's extra fields (its own time zone may be there: lead-zone.ts). */
  data: Record<string, unknown>
}

/** Lead statuses the dialer writes on crm_leads (the CRM shows them): pending leads are still dialled. */
export const LEAD_STATUS = { pending: 'pending', done: 'done', failed: 'failed', blocked: 'blocked' } as const

export async function loadCampaign(db: Db, siteId: number, id: number): Promise<Campaign | null> {
  const [row] = await db
    .select()
    .from(serviceShipmentsCampaigns)
    .where(and(eq(serviceShipmentsCampaigns.siteId, siteId), eq(serviceShipmentsCampaigns.id, id)))
  if (!row) return null
  const links = await db
    .select({ id: serviceShipmentsCampaignsMailings.mailingId })
    .from(serviceShipmentsCampaignsMailings)
    .where(eq(serviceShipmentsCampaignsMailings.campaignId, id))
  return { ...row, mailingIds: links.map((l) => l.id) }
}

/** The campaign's persistence fields as the brain's rules (rules.ts; the rest of the rules keep their defaults). */
export function rulesOf(campaign: Campaign): PersistenceRules {
  return persistenceRulesFromRecord({
    attempts_per_lead: campaign.maxAttempts,
    min_interval_minutes: campaign.minInterval,
    inactivate_after_talk_seconds: campaign.inactivateByDuration,
  })
}

export function callTypeOf(mode: string): number {
  if (mode === 'preview') return CALL_TYPE.preview
  return mode === 'predictive' ? CALL_TYPE.dialerAlt : CALL_TYPE.dialer
}

export function splitPhones(phones: string): string[] {
  return phones
    .split(/[;,]/)
    .map((p) => p.trim())
    .filter(Boolean)
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/**
 * Reserves up to `limit` due leads of the campaign for `holdMs`, for `userId` (preview, make-call-to-mailing-client)
 * or for the dialer itself (null). Due: pending, attempts left, its interval passed, not held by anyone. The hold is
 * taken by one conditional upsert on dialer_lead_states (its WHERE runs on the locked, latest row), so two agents or
 * two instances asking at once never hold the same lead; `leadId` asks for one lead by id.
 */
export async function reserveLeads(
  db: Db,
  input: { campaign: Campaign; limit: number; holdMs: number; userId: number | null; now: Date; leadId?: number },
): Promise<ReservedLead[]> {
  const { campaign, now } = input
  if (input.limit <= 0 || (campaign.mailingIds.length === 0 && input.leadId === undefined)) return []
  const until = new Date(now.getTime() + input.holdMs)
  const mailings = `{${campaign.mailingIds.join(',')}}`
  const byId = input.leadId === undefined ? sql`l.mailing_id = ANY(${mailings}::int[])` : sql`l.id = ${input.leadId}`
  const result = await db.execute(sql`
    WITH due AS (
      SELECT l.id FROM crm_leads l
      LEFT JOIN dialer_lead_states s ON s.lead_id = l.id
      WHERE l.site_id = ${campaign.siteId} AND ${byId} AND l.status = 'pending' AND l.attempts < ${campaign.maxAttempts}
        AND (s.lead_id IS NULL OR ((s.reserved_until IS NULL OR s.reserved_until < ${now.toISOString()}::timestamptz)
          AND (s.next_at IS NULL OR s.next_at <= ${now.toISOString()}::timestamptz)))
      ORDER BY s.next_at NULLS FIRST, l.id
      LIMIT ${input.limit}
    )
    INSERT INTO dialer_lead_states AS s (lead_id, site_id, campaign_id, reserved_by, reserved_until)
    SELECT id, ${campaign.siteId}, ${campaign.id}, ${input.userId}, ${until.toISOString()}::timestamptz FROM due
    ON CONFLICT (lead_id) DO UPDATE SET campaign_id = excluded.campaign_id, reserved_by = excluded.reserved_by,
      reserved_until = excluded.reserved_until, call_id = NULL
    WHERE s.reserved_until IS NULL OR s.reserved_until < ${now.toISOString()}::timestamptz
    RETURNING s.lead_id, s.phone_index`)
  const held = rowsOf<{ lead_id: number; phone_index: number }>(result)
  if (held.length === 0) return []
  const index = new Map(held.map((h) => [Number(h.lead_id), Number(h.phone_index)]))
  const leads = await db
    .select()
    .from(crmLeads)
    .where(and(eq(crmLeads.siteId, campaign.siteId), sql`${crmLeads.id} = ANY(${`{${[...index.keys()].join(',')}}`}::int[])`))
  return leads
    .map((l) => ({
      id: l.id,
      siteId: l.siteId,
      mailingId: l.mailingId,
      clientId: l.clientId,
      name: l.name,
      surname: l.surname,
      phones: splitPhones(l.phones),
      attempts: l.attempts,
      phoneIndex: index.get(l.id) ?? 0,
      data: l.data,
    }))
    .sort((a, b) => a.id - b.id)
}

/** Releases a hold without a try (remove_reserved, a skipped preview, an origination that never started). */
export async function releaseLead(db: Db, siteId: number, leadId: number, userId?: number, dueAt?: Date): Promise<boolean> {
  const rows = await db
    .update(dialerLeadStates)
    .set({ reservedBy: null, reservedUntil: null, callId: null, ...(dueAt ? { nextAt: dueAt } : {}) })
    .where(
      and(eq(dialerLeadStates.siteId, siteId), eq(dialerLeadStates.leadId, leadId), userId === undefined ? undefined : eq(dialerLeadStates.reservedBy, userId)),
    )
    .returning({ id: dialerLeadStates.leadId })
  return rows.length > 0
}

/**
 * A try starts: the lead's attempt is counted now (a crash mid-call cannot give it a free try) and its call record
 * (step 1 of a new call: outbound to the customer, the campaign's call type, the lead and its client) is written.
 */
export async function startAttempt(
  db: Db,
  input: { campaign: Campaign; lead: ReservedLead; phone: string; callId: string; userId: number | null; holdMs: number; now: Date },
): Promise<{ uid: string; attempts: number }> {
  const { campaign, lead, now } = input
  const uid = randomUUID()
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(crmLeads)
      .set({ attempts: sql`${crmLeads.attempts} + 1`, updatedAt: now })
      .where(and(eq(crmLeads.siteId, lead.siteId), eq(crmLeads.id, lead.id)))
      .returning({ attempts: crmLeads.attempts })
    await tx
      .update(dialerLeadStates)
      .set({ callId: input.callId, lastDialAt: now, reservedUntil: new Date(now.getTime() + input.holdMs) })
      .where(eq(dialerLeadStates.leadId, lead.id))
    await tx.insert(callRecords).values({
      siteId: lead.siteId,
      callId: input.callId,
      step: 1,
      uid,
      parentUid: null,
      direction: 'outbound',
      callType: callTypeOf(campaign.mode),
      kind: 'trunk',
      callee: input.phone,
      phone: input.phone,
      callerUserId: input.userId,
      queueId: campaign.queueId,
      outboundRouteId: campaign.outboundRouteId,
      clientId: lead.clientId,
      leadId: lead.id,
      startedAt: now,
      decision: { dialer: campaign.id, campaign: campaign.id, mailing: lead.mailingId },
    })
    return { uid, attempts: row?.attempts ?? lead.attempts + 1 }
  })
}

/**
 * What the carrier did with a try: the call record gets its dial status, the lead its status (done, failed, blocked,
 * or pending again after the interval, on its next phone) and the hold is released. Returns the lead's new status.
 */
export async function finishAttempt(
  db: Db,
  input: {
    campaign: Campaign
    leadId: number
    siteId: number
    callId: string | null
    result: DialResult & { answeredAt?: Date | null; abandoned?: boolean }
    now: Date
    /** The call's record is call control's (a preview call, the agent's own): only the lead and its hold change. */
    keepRecord?: boolean
  },
): Promise<string> {
  const { campaign, result, now } = input
  const [lead] = await db
    .select()
    .from(crmLeads)
    .where(and(eq(crmLeads.siteId, input.siteId), eq(crmLeads.id, input.leadId)))
  if (!lead) return 'gone'
  const [state] = await db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, lead.id))
  // The one place the runtime reads the brain's NextStep (rules.ts, dialbrain's): adapt here if its shape changes.
  const phones = splitPhones(lead.phones)
  // startAttempt already counted a call that was placed (callId set): the brain counts it itself, so it gets the count
  // from before the call. A lead with no phone left is done with, whatever the result.
  const attempts = input.callId ? Math.max(0, lead.attempts - 1) : lead.attempts
  const phoneIndex = Math.min(state?.phoneIndex ?? 0, Math.max(0, phones.length - 1))
  const step = phones.length
    ? nextStep({ lead: { attempts, phones }, phoneIndex, result, rules: rulesOf(campaign), now })
    : { leadStatus: 'inactive' as const, dial: undefined }
  const status = step.leadStatus
  await db.transaction(async (tx) => {
    await tx.update(crmLeads).set({ status, updatedAt: now }).where(eq(crmLeads.id, lead.id))
    await tx
      .update(dialerLeadStates)
      .set({
        reservedBy: null,
        reservedUntil: null,
        callId: null,
        lastStatus: result.status,
        nextAt: step.dial?.at ?? null,
        phoneIndex: step.dial?.phoneIndex ?? phoneIndex,
      })
      .where(eq(dialerLeadStates.leadId, lead.id))
    if (input.callId && !input.keepRecord) {
      await tx
        .update(callRecords)
        .set({
          dialStatus: result.status,
          answeredAt: result.answeredAt ?? null,
          endedAt: now,
          totalDuration: sql`greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - ${callRecords.startedAt}))::int)`,
          answeredDuration: result.answeredAt ? result.talkSeconds : null,
          // The pacer's recent abandon rate reads it back (measurePacerStats).
          ...(result.abandoned ? { dialStatusText: ABANDONED_TEXT } : {}),
        })
        .where(and(eq(callRecords.siteId, input.siteId), eq(callRecords.callId, input.callId), eq(callRecords.step, 1)))
    }
    if (result.abandoned) {
      await tx
        .update(dialerCampaignRuns)
        .set({ abandoned: sql`${dialerCampaignRuns.abandoned} + 1` })
        .where(eq(dialerCampaignRuns.campaignId, campaign.id))
    }
  })
  return status
}

/** A lead the blacklist forbids: 609 on the lead (no call placed, no attempt counted), never dialled again. */
export async function blockLead(db: Db, siteId: number, leadId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(crmLeads)
      .set({ status: LEAD_STATUS.blocked, updatedAt: now })
      .where(and(eq(crmLeads.siteId, siteId), eq(crmLeads.id, leadId)))
    await tx
      .update(dialerLeadStates)
      .set({ reservedBy: null, reservedUntil: null, callId: null, lastStatus: 609, lastDialAt: now })
      .where(eq(dialerLeadStates.leadId, leadId))
  })
}

/** Outside the calling window: released, due again at `at`. */
export async function deferLead(db: Db, leadId: number, at: Date): Promise<void> {
  await db.update(dialerLeadStates).set({ reservedBy: null, reservedUntil: null, callId: null, nextAt: at }).where(eq(dialerLeadStates.leadId, leadId))
}

export async function loadBlacklist(db: Db, siteId: number, now: Date) {
  return db
    .select({ phones: serviceBlacklists.phones })
    .from(serviceBlacklists)
    .where(
      and(
        eq(serviceBlacklists.siteId, siteId),
        eq(serviceBlacklists.isActive, true),
        sql`${serviceBlacklists.direction} IN ('both', 'outbound')`,
        sql`(${serviceBlacklists.expiresAt} IS NULL OR ${serviceBlacklists.expiresAt} > ${now.toISOString()}::timestamptz)`,
      ),
    )
}

export async function loadCalendar(db: Db, siteId: number, calendarId: number | null): Promise<CallingCalendar | null> {
  if (calendarId === null) return null
  const [calendar] = await db
    .select()
    .from(serviceCalendars)
    .where(and(eq(serviceCalendars.siteId, siteId), eq(serviceCalendars.id, calendarId), eq(serviceCalendars.isActive, true)))
  if (!calendar) return null
  const hours = await db.select().from(serviceCalendarsHours).where(eq(serviceCalendarsHours.calendarId, calendar.id))
  const holidays = await db.select().from(serviceCalendarsHolidays).where(eq(serviceCalendarsHolidays.calendarId, calendar.id))
  return { timezone: calendar.timezone, hours, holidays }
}

export type CampaignProgress = {
  campaign: number
  status: 'running' | 'paused' | 'stopped' | 'idle'
  leads_total: number
  leads_dialled: number
  leads_answered: number
  leads_remaining: number
  lines_in_use: number
  abandoned: number
}

export async function campaignProgress(db: Db, campaign: Campaign, now: Date): Promise<CampaignProgress> {
  const mailings = `{${campaign.mailingIds.join(',')}}`
  const [counts] = rowsOf<{ total: number; dialled: number; answered: number; remaining: number }>(
    await db.execute(sql`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE attempts > 0)::int AS dialled,
        count(*) FILTER (WHERE status = 'done')::int AS answered,
        count(*) FILTER (WHERE status = 'pending' AND attempts < ${campaign.maxAttempts})::int AS remaining
      FROM crm_leads WHERE site_id = ${campaign.siteId} AND mailing_id = ANY(${mailings}::int[])`),
  )
  const [lines] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM dialer_lead_states
      WHERE campaign_id = ${campaign.id} AND call_id IS NOT NULL AND reserved_until > ${now.toISOString()}::timestamptz`),
  )
  const [run] = await db.select().from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign.id))
  return {
    campaign: campaign.id,
    status: run?.status ?? 'idle',
    leads_total: Number(counts?.total ?? 0),
    leads_dialled: Number(counts?.dialled ?? 0),
    leads_answered: Number(counts?.answered ?? 0),
    leads_remaining: Number(counts?.remaining ?? 0),
    lines_in_use: Number(lines?.n ?? 0),
    abandoned: run?.abandoned ?? 0,
  }
}

/**
 * The abandon window of the pacer's cap (rolling 30 days): the campaign's answered dialer calls, and its abandoned
 * ones (the run's counter, which never forgets: an overcount only makes the pacer more careful).
 */
export async function abandonWindow(db: Db, campaign: Campaign, now: Date): Promise<{ answered: number; abandoned: number }> {
  const mailings = `{${campaign.mailingIds.join(',')}}`
  const since = new Date(now.getTime() - 30 * 86_400_000)
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM call_records r JOIN crm_leads l ON l.id = r.lead_id
      WHERE r.site_id = ${campaign.siteId} AND r.step = 1 AND r.answered_at IS NOT NULL AND r.answered_at > ${since.toISOString()}::timestamptz
        AND l.mailing_id = ANY(${mailings}::int[])`),
  )
  const [run] = await db.select({ abandoned: dialerCampaignRuns.abandoned }).from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign.id))
  return { answered: Number(row?.n ?? 0), abandoned: run?.abandoned ?? 0 }
}

/** The dial status text of an answered dialer call nobody took within 2 s (call_records.dial_status_text). */
export const ABANDONED_TEXT = 'Abandoned'
/** The attempts the pacer's statistics are measured over: the campaign's last hour, at most this many. */
const STATS_WINDOW_MS = 60 * 60 * 1000
const STATS_MAX_SAMPLES = 500
/** The adaptive brake's window (pacer.ts `recent`). */
const RECENT_MS = 15 * 60 * 1000

export type MeasuredStats = {
  stats: {
    samples: number
    answerRate: number
    meanRingSeconds: number
    meanTalkSeconds: number
    meanWrapSeconds: number
    answerRings: number[]
    failRings: number[]
    talkSamples: number[]
    wrapSamples: number[]
  }
  recent: { answered: number; abandoned: number }
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0)
const ascending = (values: number[]) => values.sort((a, b) => a - b)

/**
 * The pacer's statistics (pacer.ts `stats`, `recent`) from the campaign's finished attempts of the last hour (its
 * step-1 call records, written by startAttempt/finishAttempt): the answered share; ring seconds of answered calls
 * (origination → answer) and how long unanswered ones lasted; talk seconds of the calls an agent took; wrap-up
 * seconds of the agents' legs (their after-service duration); and the last 15 minutes' answered and abandoned calls.
 */
export async function measurePacerStats(db: Db, campaign: Campaign, now: Date): Promise<MeasuredStats> {
  const since = new Date(now.getTime() - STATS_WINDOW_MS)
  const rows = rowsOf<{
    started_at: string
    answered_at: string | null
    ended_at: string
    total: number | null
    talk: number | null
    user_id: number | null
    text: string
    wrap: number | null
  }>(
    await db.execute(sql`
      SELECT r.started_at, r.answered_at, r.ended_at, r.total_duration AS total, r.answered_duration AS talk, r.user_id,
        r.dial_status_text AS text,
        (SELECT max(c.after_service_duration) FROM call_records c WHERE c.site_id = r.site_id AND c.parent_uid = r.uid) AS wrap
      FROM call_records r
      WHERE r.site_id = ${campaign.siteId} AND r.step = 1 AND r.decision->>'dialer' = ${String(campaign.id)}
        AND r.ended_at IS NOT NULL AND r.started_at > ${since.toISOString()}::timestamptz
      ORDER BY r.ended_at DESC LIMIT ${STATS_MAX_SAMPLES}`),
  )
  const at = (value: string | null) => (value === null ? null : new Date(value).getTime())
  const answered = rows.filter((r) => r.answered_at !== null)
  const answerRings = ascending(answered.map((r) => Math.max(0, (at(r.answered_at)! - at(r.started_at)!) / 1000)))
  const failRings = ascending(rows.filter((r) => r.answered_at === null).map((r) => Math.max(0, r.total ?? (at(r.ended_at)! - at(r.started_at)!) / 1000)))
  const taken = answered.filter((r) => r.text !== ABANDONED_TEXT && r.talk !== null)
  const talkSamples = ascending(taken.map((r) => Number(r.talk)))
  const wrapSamples = ascending(taken.filter((r) => r.wrap !== null).map((r) => Number(r.wrap)))
  const recentSince = now.getTime() - RECENT_MS
  const recentAnswered = answered.filter((r) => at(r.answered_at)! >= recentSince)
  return {
    stats: {
      samples: rows.length,
      answerRate: rows.length ? answered.length / rows.length : 0,
      meanRingSeconds: mean(answerRings),
      meanTalkSeconds: mean(talkSamples),
      meanWrapSeconds: mean(wrapSamples),
      answerRings,
      failRings,
      talkSamples,
      wrapSamples,
    },
    recent: { answered: recentAnswered.length, abandoned: recentAnswered.filter((r) => r.text === ABANDONED_TEXT).length },
  }
}

/** The attempts a simulation replays: the campaign's finished ones of the last 30 days, newest first, at most this many. */
const HISTORY_MAX_ROWS = 5000

/**
 * A campaign's past results for the simulator (simulator.ts `history`): each finished step-1 attempt of the last 30
 * days with its status (200 when answered), seconds to the outcome, talk seconds of a call an agent took and the
 * agent leg's after-service seconds. An abandoned call keeps its answer but no talk (the simulator draws one).
 */
export async function campaignHistory(db: Db, campaign: Campaign, now: Date): Promise<PastResult[]> {
  const since = new Date(now.getTime() - 30 * 86_400_000)
  const rows = rowsOf<{
    started_at: string
    answered_at: string | null
    ended_at: string
    status: number | null
    total: number | null
    talk: number | null
    text: string | null
    wrap: number | null
  }>(
    await db.execute(sql`
      SELECT r.started_at, r.answered_at, r.ended_at, r.dial_status AS status, r.total_duration AS total, r.answered_duration AS talk,
        r.dial_status_text AS text,
        (SELECT max(c.after_service_duration) FROM call_records c WHERE c.site_id = r.site_id AND c.parent_uid = r.uid) AS wrap
      FROM call_records r
      WHERE r.site_id = ${campaign.siteId} AND r.step = 1 AND r.decision->>'dialer' = ${String(campaign.id)}
        AND r.ended_at IS NOT NULL AND r.started_at > ${since.toISOString()}::timestamptz
      ORDER BY r.ended_at DESC LIMIT ${HISTORY_MAX_ROWS}`),
  )
  const at = (value: string) => new Date(value).getTime()
  return rows.map((r) => {
    if (r.answered_at === null) {
      const ring = r.total ?? (at(r.ended_at) - at(r.started_at)) / 1000
      return { status: r.status && r.status !== 200 ? Number(r.status) : 480, ringSeconds: Math.max(0, Number(ring)) }
    }
    const taken = r.text !== ABANDONED_TEXT && r.talk !== null
    return {
      status: 200,
      ringSeconds: Math.max(0, (at(r.answered_at) - at(r.started_at)) / 1000),
      ...(taken ? { talkSeconds: Number(r.talk) } : {}),
      ...(taken && r.wrap !== null ? { wrapSeconds: Number(r.wrap) } : {}),
    }
  })
}
