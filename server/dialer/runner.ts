import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { dialerLeadStates, dialerPacingLog } from '../db/schema/index.ts'
import type { OriginateOutcome, OriginateRequest, QueueAgents } from '../media/app/originate-types.ts'
import type { CampaignProgress } from '../../contract/api/dialer.ts'
import { pace } from './pacer.ts'
import { abandonWindow, measurePacerStats } from './store.ts'
import type { MeasuredStats } from './store.ts'
import type { PacerMode } from './pacer.ts'
import { leadTimeZone } from './lead-zone.ts'
import { blacklistMatcher, mayDial } from './rules.ts'
import type { Campaign, ReservedLead } from './store.ts'
import { blockLead, campaignProgress, deferLead, finishAttempt, loadBlacklist, loadCalendar, loadCampaign, reserveLeads, startAttempt } from './store.ts'

// The campaign runner (server/dialer/README.md "Runtime"): the durable side of the dialer, built like the lead import's
// runner. Every instance ticks once a second: it claims the running campaigns no live instance drives (one UPDATE on
// dialer_campaign_runs: an owner whose heartbeat is older than STALE_MS lost its process), asks the pacer how many
// calls to place, reserves that many due leads, checks each against the blacklist and the calling window, and asks
// the originator (the media app) to call. What the carrier did is written when the originator answers.

const TICK_MS = 1000
const STALE_MS = 10_000
/** A lead the dialer holds for a call: the dial time plus the longest talk we wait for before taking it back. */
const CALL_HOLD_MS = 4 * 60 * 60 * 1000
/** The pacer's statistics are measured again this often per campaign (pacer.ts: "re-measured each minute"). */
const STATS_EVERY_MS = 60_000

export type { OriginateOutcome, OriginateRequest, QueueAgents } from '../media/app/originate-types.ts'

export type Originator = {
  /** False while the media app is down: the runner places nothing. */
  ready(): boolean
  originate(request: OriginateRequest): Promise<OriginateOutcome>
  /** The campaign queue's members, and those free to take a call now (the ACD's count, through the media app's brain). */
  queueAgents(siteId: number, queueId: number, at: Date): Promise<QueueAgents>
  /**
   * The campaign's calls that may still need an agent (ringing, or answered and not yet with one): the pacer's
   * `inFlight`. Without it the runner counts every call not over, the ones agents are talking on included.
   */
  pending?(campaignId: number): number
}

export type RunnerLog = { info(o: object, m?: string): void; warn(o: object, m?: string): void; error(o: object, m?: string): void }

export type CampaignRunner = {
  /** Runs one tick now (tests; a start command). */
  tick(): Promise<void>
  /** Calls this instance placed that have not ended yet. */
  inFlight(): number
  stop(): Promise<void>
}

type Claimed = { campaign_id: number; site_id: number; taken_over: boolean }

export function headersFor(campaign: Campaign, lead: ReservedLead, attempts: number): Record<string, string> {
  const name = [lead.name, lead.surname].filter(Boolean).join(' ')
  return {
    'X-Atende-Call-Type': String(campaign.mode === 'predictive' ? 14 : campaign.mode === 'preview' ? 18 : 12),
    'X-Atende-Dialer': String(campaign.id),
    'X-Atende-Campaign': String(campaign.id),
    'X-Atende-Mailing': String(lead.mailingId),
    'X-Atende-Mailing-Client': String(lead.id),
    'X-Atende-Client': lead.clientId === null ? '' : String(lead.clientId),
    // Header values are ASCII: the name travels percent-encoded (the webphone decodes it).
    'X-Atende-Client-Name': encodeURIComponent(name),
    'X-Atende-Attempts': String(attempts),
    'X-Atende-Queue': String(campaign.queueId),
  }
}

export function startCampaignRunner(
  db: Db,
  originator: Originator,
  log: RunnerLog,
  options: { staleMs?: number; tickMs?: number; onProgress?: (siteId: number, progress: CampaignProgress) => void; now?: () => Date } = {},
): CampaignRunner {
  const me = randomUUID()
  const staleMs = options.staleMs ?? STALE_MS
  const now = options.now ?? (() => new Date())
  const calls = new Map<string, Promise<void>>()
  const measured = new Map<number, { at: number; value: MeasuredStats }>()
  let stopped = false
  let ticking: Promise<void> | null = null
  const timer = setInterval(() => void tick(), options.tickMs ?? TICK_MS)
  timer.unref()

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute(sql`
      UPDATE dialer_campaign_runs r SET owner = ${me}, heartbeat_at = now()
      FROM (SELECT campaign_id, owner AS previous FROM dialer_campaign_runs
        WHERE status = 'running' AND (owner IS NULL OR owner = ${me} OR heartbeat_at IS NULL
          OR heartbeat_at < now() - make_interval(secs => ${staleMs / 1000}))
        FOR UPDATE SKIP LOCKED) c
      WHERE r.campaign_id = c.campaign_id
      RETURNING r.campaign_id, r.site_id, (c.previous IS DISTINCT FROM ${me}) AS taken_over`)
    return (result as unknown as { rows: Claimed[] }).rows
  }

  /**
   * A campaign taken from another instance (or from this process before a restart): its calls in flight died with
   * that process's view of them. Each counts as tried with an unknown result (559) and is due again after the interval.
   */
  async function recoverOrphans(campaign: Campaign): Promise<void> {
    const orphans = await db
      .select({ leadId: dialerLeadStates.leadId, callId: dialerLeadStates.callId, siteId: dialerLeadStates.siteId })
      .from(dialerLeadStates)
      .where(and(eq(dialerLeadStates.campaignId, campaign.id), sql`${dialerLeadStates.callId} IS NOT NULL`))
    for (const orphan of orphans) {
      if (orphan.callId && calls.has(orphan.callId)) continue
      await finishAttempt(db, {
        campaign,
        leadId: orphan.leadId,
        siteId: orphan.siteId,
        callId: orphan.callId,
        result: { status: 559, talkSeconds: 0 },
        now: now(),
      })
      log.warn({ campaign: campaign.id, lead: orphan.leadId }, 'dialer: a call of a lost runner counted as uncertain')
    }
  }

  async function runCampaign(claimed: Claimed): Promise<void> {
    const campaign = await loadCampaign(db, claimed.site_id, claimed.campaign_id)
    if (!campaign) return
    if (claimed.taken_over) await recoverOrphans(campaign)
    if (campaign.isActive && campaign.mode !== 'preview') await placeCalls(campaign)
    options.onProgress?.(campaign.siteId, await campaignProgress(db, campaign, now()))
  }

  async function placeCalls(campaign: Campaign): Promise<void> {
    const at = now()
    const { members, idle } = await originator.queueAgents(campaign.siteId, campaign.queueId, at)
    // Calls an agent already took are no longer in flight: counting them (an agent talking is not idle either) would
    // hold progressive to idle − talking and starve predictive (bench/dialer.ts: 41 % occupancy before this).
    const inFlight = originator.pending ? originator.pending(campaign.id) : await countInFlight(campaign)
    const abandon = await abandonWindow(db, campaign, at)
    // The brain's pacer (pacer.ts): answer rate, ring, talk and wrap-up times measured over the campaign's last hour
    // of attempts (once a minute); predictive paces as progressive until 30 are measured. The abandon cap holds in
    // every mode from the 30-day counts.
    const { stats, recent } = await statsOf(campaign, at)
    const decision = pace(
      {
        agents: { idle, talking: members - idle, wrapUp: 0 },
        inFlight,
        stats,
        abandon,
        recent,
      },
      { mode: campaign.mode as PacerMode, ratio: campaign.ratio, abandonCap: campaign.maxAbandonRate / 100 },
    )
    if (decision.calls <= 0) return
    const leads = await reserveLeads(db, { campaign, limit: decision.calls, holdMs: CALL_HOLD_MS, userId: null, now: at })
    await db
      .insert(dialerPacingLog)
      .values({ siteId: campaign.siteId, campaignId: campaign.id, at, calls: leads.length, reason: decision.reason, log: decision.log })
    if (leads.length === 0) return
    const blacklist = blacklistMatcher(await loadBlacklist(db, campaign.siteId, at))
    const calendar = await loadCalendar(db, campaign.siteId, campaign.calendarId)
    for (const lead of leads) await dial(campaign, lead, blacklist, calendar, at)
  }

  async function statsOf(campaign: Campaign, at: Date): Promise<MeasuredStats> {
    const cached = measured.get(campaign.id)
    if (cached && at.getTime() - cached.at < STATS_EVERY_MS && at.getTime() >= cached.at) return cached.value
    const value = await measurePacerStats(db, campaign, at)
    measured.set(campaign.id, { at: at.getTime(), value })
    return value
  }

  async function countInFlight(campaign: Campaign): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(dialerLeadStates)
      .where(and(eq(dialerLeadStates.campaignId, campaign.id), sql`${dialerLeadStates.callId} IS NOT NULL`))
    return Number(row?.n ?? 0)
  }

  async function dial(
    campaign: Campaign,
    lead: ReservedLead,
    blacklist: ReturnType<typeof blacklistMatcher>,
    calendar: Awaited<ReturnType<typeof loadCalendar>>,
    at: Date,
  ) {
    const phone = lead.phones[lead.phoneIndex] ?? lead.phones[0]
    if (!phone) {
      await finishAttempt(db, { campaign, leadId: lead.id, siteId: lead.siteId, callId: null, result: { status: 404, talkSeconds: 0 }, now: at })
      return
    }
    // The calendar's hours on the lead's clock: its own zone field, else its number's (lead-zone.ts), else the calendar's.
    const verdict = mayDial({ phone, leadTimeZone: leadTimeZone({ phone, data: lead.data, fallback: calendar?.timezone }).zone, calendar, blacklist, now: at })
    if (!verdict.ok) {
      if (verdict.status === 609) await blockLead(db, lead.siteId, lead.id, at)
      else await deferLead(db, lead.id, verdict.retryAt ?? new Date(at.getTime() + 15 * 60_000))
      return
    }
    const callId = `dialer-${randomUUID()}`
    const { uid, attempts } = await startAttempt(db, { campaign, lead, phone, callId, userId: null, holdMs: CALL_HOLD_MS, now: at })
    const request: OriginateRequest = {
      siteId: lead.siteId,
      campaignId: campaign.id,
      queueId: campaign.queueId,
      callId,
      uid,
      phone,
      callerId: campaign.callerId,
      outboundRouteId: campaign.outboundRouteId,
      dialTimeoutMs: campaign.dialTime * 1000,
      headers: headersFor(campaign, lead, attempts),
      amd: campaign.amd,
    }
    const done = originator
      .originate(request)
      .catch((err: unknown): OriginateOutcome => {
        log.warn({ err, campaign: campaign.id, lead: lead.id }, 'dialer: origination failed')
        return { status: 503, answeredAt: null, talkSeconds: 0, abandoned: false }
      })
      .then((outcome) =>
        finishAttempt(db, {
          campaign,
          leadId: lead.id,
          siteId: lead.siteId,
          callId,
          result: { status: outcome.status, talkSeconds: outcome.talkSeconds, answeredAt: outcome.answeredAt, abandoned: outcome.abandoned },
          now: now(),
        }),
      )
      .then(() => undefined)
      .catch((err: unknown) => {
        if (!stopped) log.error({ err, campaign: campaign.id, lead: lead.id }, 'dialer: recording an outcome failed')
      })
      .finally(() => calls.delete(callId))
    calls.set(callId, done)
  }

  async function tick(): Promise<void> {
    // An instance that cannot place calls (no media app) holds no campaign: another one may.
    if (stopped || !originator.ready()) return
    if (ticking) return ticking
    ticking = (async () => {
      try {
        for (const claimed of await claim()) {
          if (stopped) return
          await runCampaign(claimed).catch((err: unknown) => log.error({ err, campaign: claimed.campaign_id }, 'dialer: campaign tick failed'))
        }
      } catch (err) {
        if (!stopped) log.error({ err }, 'dialer: claiming campaigns failed')
      } finally {
        ticking = null
      }
    })()
    return ticking
  }

  return {
    tick,
    inFlight: () => calls.size,
    async stop() {
      stopped = true
      clearInterval(timer)
      await ticking
    },
  }
}
