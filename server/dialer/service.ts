import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { CampaignParams, DIALER_MESSAGES, MakeCallQuery, SIMULATION_MESSAGES, SimulateBody, dialerPaths, simulatePath } from '../../contract/api/dialer.ts'
import type { CampaignCommand, CampaignProgress, MakeCallResponse, PreviewLead, SimulateResponse } from '../../contract/api/dialer.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { pushToSupervisors } from '../bus/channels.ts'
import { crmLeads, dialerCampaignRuns, dialerLeadStates, serviceShipmentsCampaigns } from '../db/schema/index.ts'
import { detailError, fieldErrors } from '../errors/http-error.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'
import { mediaOriginator } from './originate.ts'
import type { Originator } from './runner.ts'
import { startCampaignRunner } from './runner.ts'
import type { CampaignRunner } from './runner.ts'
import { leadTimeZone } from './lead-zone.ts'
import { blacklistMatcher, mayDial } from './rules.ts'
import { runSimulation } from './simulate.ts'
import {
  abandonWindow,
  blockLead,
  campaignHistory,
  campaignProgress,
  loadBlacklist,
  loadCalendar,
  loadCampaign,
  releaseLead,
  reserveLeads,
  splitPhones,
} from './store.ts'
import type { Campaign } from './store.ts'

// The dialer as a part of the server (registered by app.ts after the media app): the campaign runner and the routes
// of contract/api/dialer.ts. Progress goes to the site's supervisors on the service socket as `dialerProgress`.

export type DialerOptions = {
  /** Who places the calls (tests: a fake carrier); the media app's brain by default. */
  originator?: Originator
  /** false: this instance runs no campaign (another does). */
  runner?: boolean
  tickMs?: number
  staleMs?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    dialer: CampaignRunner | null
  }
}

/** A preview lead is held for the agent this long (they dial, skip, or it goes back to the list). */
const PREVIEW_HOLD_MS = 5 * 60 * 1000
/** make-call-to-mailing-client holds the lead while the agent's call rings and talks. */
const AGENT_CALL_HOLD_MS = 60 * 60 * 1000

const NOT_READY: Originator = {
  ready: () => false,
  originate: () => Promise.reject(new Error('no media app')),
  queueAgents: () => Promise.resolve({ members: 0, idle: 0 }),
}

export async function dialerService(app: FastifyInstance, options: DialerOptions): Promise<void> {
  const { db, bus } = app.deps
  const campaigns = entityByKey('service.shipments-campaigns')
  const originator = options.originator ?? (app.media ? mediaOriginator(app.media) : NOT_READY)
  const runner =
    options.runner === false
      ? null
      : startCampaignRunner(db, originator, app.log.child({ part: 'dialer' }), {
          tickMs: options.tickMs,
          staleMs: options.staleMs,
          onProgress: (siteId, progress) => void pushToSupervisors(bus, siteId, { action: 'dialerProgress', ...progress }).catch(() => {}),
        })
  app.decorate('dialer', runner)
  app.addHook('onClose', async () => runner?.stop())

  const siteOf = (request: FastifyRequest) => request.auth!.user.siteId
  const campaignOf = async (request: FastifyRequest): Promise<Campaign> => {
    const { id } = parseInput(CampaignParams, request.params, request.lang)
    const campaign = await loadCampaign(db, siteOf(request), id)
    if (!campaign) throw detailError(404, 'notFound', request.lang)
    return campaign
  }
  const progressOf = (campaign: Campaign) => campaignProgress(db, campaign, new Date())

  const command = async (request: FastifyRequest, kind: CampaignCommand): Promise<CampaignProgress> => {
    const campaign = await campaignOf(request)
    const status = kind === 'start' ? 'running' : kind === 'pause' ? 'paused' : 'stopped'
    await db
      .insert(dialerCampaignRuns)
      .values({ campaignId: campaign.id, siteId: campaign.siteId, status, startedBy: request.auth!.user.id })
      .onConflictDoUpdate({
        target: dialerCampaignRuns.campaignId,
        set: { status, updatedAt: new Date(), ...(kind === 'start' ? { startedBy: request.auth!.user.id } : {}) },
      })
    if (kind === 'stop') {
      // Stopped: the previews agents hold go back to the list (calls in flight end on their own).
      await db
        .update(dialerLeadStates)
        .set({ reservedBy: null, reservedUntil: null })
        .where(and(eq(dialerLeadStates.campaignId, campaign.id), sql`${dialerLeadStates.callId} IS NULL`))
    }
    if (kind === 'start') void runner?.tick()
    const progress = await progressOf(campaign)
    await pushToSupervisors(bus, campaign.siteId, { action: 'dialerProgress', ...progress }).catch(() => {})
    return progress
  }
  const change = { config: { permission: campaigns.permissions.change as RoutePermission } }
  for (const kind of ['start', 'pause', 'stop'] as const) {
    app.post(dialerPaths.command(':id', kind), change, (request) => command(request, kind))
  }
  app.get(dialerPaths.progress(':id'), { config: { permission: campaigns.permissions.view as RoutePermission } }, async (request) =>
    progressOf(await campaignOf(request)),
  )

  // The simulator (issue 18 item 5, README "Simulator"): whoever may start a campaign may see how it would pace.
  // Another site's campaign is a 404; a campaign with too little history and no rates a 400 on `campaign`.
  app.post(simulatePath, change, async (request): Promise<SimulateResponse> => {
    const body = parseInput(SimulateBody, request.body ?? {}, request.lang)
    let campaign: Parameters<typeof runSimulation>[0]['campaign']
    if (body.campaign !== undefined) {
      const found = await loadCampaign(db, siteOf(request), body.campaign)
      if (!found) throw detailError(404, 'notFound', request.lang)
      const now = new Date()
      campaign = {
        history: await campaignHistory(db, found, now),
        abandonCapPercent: found.maxAbandonRate,
        ratio: found.ratio,
        window: await abandonWindow(db, found, now),
      }
    }
    const answer = await runSimulation({ body, campaign })
    if (answer === 'tooLittleHistory') throw fieldErrors({ campaign: [SIMULATION_MESSAGES.tooLittleHistory[request.lang]] })
    return answer
  })

  const agent = { config: { permission: PERMISSIONS.viewSoftphone } }

  /** The running preview campaigns the agent serves (a member of their queue). */
  const previewCampaigns = async (siteId: number, userId: number) => {
    const result = await db.execute(sql`
      SELECT c.id FROM service_shipments_campaigns c
      JOIN dialer_campaign_runs r ON r.campaign_id = c.id AND r.status = 'running'
      JOIN pabx_queues_members m ON m.queue_id = c.queue_id AND m.user_id = ${userId}
      WHERE c.site_id = ${siteId} AND c.is_active AND c.mode = 'preview' ORDER BY c.id`)
    return (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id))
  }

  // The agent's next preview lead: the one they hold already, else a due lead reserved for them now.
  app.get(dialerPaths.preview, agent, async (request): Promise<PreviewLead> => {
    const siteId = siteOf(request)
    const userId = request.auth!.user.id
    const now = new Date()
    for (const id of await previewCampaigns(siteId, userId)) {
      const campaign = (await loadCampaign(db, siteId, id))!
      const [held] = await db
        .select({ id: dialerLeadStates.leadId })
        .from(dialerLeadStates)
        // A lead whose call is still on (its end not yet recorded) is not offered again.
        .where(
          and(
            eq(dialerLeadStates.campaignId, id),
            eq(dialerLeadStates.reservedBy, userId),
            sql`${dialerLeadStates.reservedUntil} > now()`,
            isNull(dialerLeadStates.callId),
          ),
        )
      const lead = held ? await leadRow(siteId, held.id) : await reserveNext(campaign, userId, now)
      if (lead) return previewOf(campaign, lead)
    }
    return null
  })

  async function reserveNext(campaign: Campaign, userId: number, now: Date) {
    const blacklist = blacklistMatcher(await loadBlacklist(db, campaign.siteId, now))
    // Blacklisted leads met on the way are closed with 609; at most a handful per request.
    for (let i = 0; i < 5; i++) {
      const [lead] = await reserveLeads(db, { campaign, limit: 1, holdMs: PREVIEW_HOLD_MS, userId, now })
      if (!lead) return null
      const phone = lead.phones[lead.phoneIndex] ?? lead.phones[0] ?? ''
      if (!blacklist.blocked(phone)) return leadRow(campaign.siteId, lead.id)
      await blockLead(db, campaign.siteId, lead.id, now)
    }
    return null
  }

  const leadRow = async (siteId: number, id: number) => {
    const [row] = await db
      .select({ lead: crmLeads, phoneIndex: dialerLeadStates.phoneIndex })
      .from(crmLeads)
      .leftJoin(dialerLeadStates, eq(dialerLeadStates.leadId, crmLeads.id))
      .where(and(eq(crmLeads.siteId, siteId), eq(crmLeads.id, id)))
    return row ? { ...row.lead, phoneIndex: row.phoneIndex ?? 0 } : null
  }

  const previewOf = (campaign: Campaign, lead: NonNullable<Awaited<ReturnType<typeof leadRow>>>): PreviewLead => {
    const phones = splitPhones(lead.phones)
    return {
      campaign: campaign.id,
      campaign_name: campaign.description,
      countdown: campaign.previewCountdown,
      mailing_client: lead.id,
      mailing: lead.mailingId,
      client: lead.clientId,
      name: [lead.name, lead.surname].filter(Boolean).join(' '),
      phone: phones[lead.phoneIndex] ?? phones[0] ?? '',
      attempts: lead.attempts,
    }
  }

  // Spec 000 §7: reserves the lead for the agent's call (the webphone then dials `phone`); `remove_reserved=true`
  // releases it when the call failed to start. Refusals answer success false with the reason (the webphone toasts it).
  app.put(dialerPaths.makeCall, agent, async (request): Promise<MakeCallResponse> => {
    const query = parseInput(MakeCallQuery, request.query, request.lang)
    const siteId = siteOf(request)
    const userId = request.auth!.user.id
    const lang = request.lang
    const lead = await leadRow(siteId, query.mailing_client)
    if (!lead) throw detailError(404, 'notFound', lang)
    const [campaignRow] = await db
      .select({ id: serviceShipmentsCampaigns.id })
      .from(serviceShipmentsCampaigns)
      .innerJoin(dialerCampaignRuns, eq(dialerCampaignRuns.campaignId, serviceShipmentsCampaigns.id))
      .where(
        and(
          eq(serviceShipmentsCampaigns.siteId, siteId),
          sql`${serviceShipmentsCampaigns.id} IN (SELECT campaign_id FROM service_shipments_campaigns_mailings WHERE mailing_id = ${lead.mailingId})`,
        ),
      )
      .orderBy(sql`${dialerCampaignRuns.status} = 'running' DESC`, serviceShipmentsCampaigns.id)
      .limit(1)
    const campaign = campaignRow ? await loadCampaign(db, siteId, campaignRow.id) : null
    const answer = (success: boolean, reason: string, owner: number | null): MakeCallResponse => {
      const phones = splitPhones(lead.phones)
      return {
        success,
        reason,
        owner,
        dialer: campaign?.id ?? null,
        campaign: campaign?.id ?? null,
        mailing: lead.mailingId,
        client: lead.clientId,
        client_name: [lead.name, lead.surname].filter(Boolean).join(' '),
        mailing_client_attempts: lead.attempts,
        phone: phones[lead.phoneIndex] ?? phones[0] ?? '',
      }
    }
    if (query.remove_reserved === 'true') {
      // Ours: `&skip=true` (the preview card's 'Pular') puts the lead back due after the campaign's minimum interval,
      // so the agent's next preview-lead brings another lead, not this one again.
      const dueAt = query.skip === 'true' ? new Date(Date.now() + Math.max(1, campaign?.minInterval ?? 0) * 60_000) : undefined
      await releaseLead(db, siteId, lead.id, userId, dueAt)
      return answer(true, DIALER_MESSAGES.released[lang], null)
    }
    if (!campaign) return answer(false, DIALER_MESSAGES.noCampaign[lang], null)
    const now = new Date()
    const [state] = await db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, lead.id))
    // The agent's own preview hold becomes the call's hold; anyone else's refuses.
    if (state?.reservedUntil && state.reservedUntil > now && state.reservedBy !== userId) {
      return answer(false, DIALER_MESSAGES.leadReserved[lang], state.reservedBy)
    }
    if (state?.reservedBy === userId && state.reservedUntil && state.reservedUntil > now) await releaseLead(db, siteId, lead.id, userId)
    const [held] = await reserveLeads(db, { campaign, limit: 1, holdMs: AGENT_CALL_HOLD_MS, userId, now, leadId: lead.id })
    if (!held) {
      const [again] = await db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, lead.id))
      if (again?.reservedUntil && again.reservedUntil > now && again.reservedBy !== userId)
        return answer(false, DIALER_MESSAGES.leadReserved[lang], again.reservedBy)
      return answer(false, DIALER_MESSAGES.leadNotDue[lang], null)
    }
    const phone = held.phones[held.phoneIndex] ?? held.phones[0] ?? ''
    const calendar = await loadCalendar(db, siteId, campaign.calendarId)
    const verdict = mayDial({
      phone,
      leadTimeZone: leadTimeZone({ phone, data: held.data, fallback: calendar?.timezone }).zone,
      calendar,
      blacklist: blacklistMatcher(await loadBlacklist(db, siteId, now)),
      now,
    })
    if (!verdict.ok) {
      if (verdict.status === 609) await blockLead(db, siteId, lead.id, now)
      else await releaseLead(db, siteId, lead.id, userId)
      return answer(false, verdict.status === 609 ? DIALER_MESSAGES.blacklisted[lang] : DIALER_MESSAGES.leadNotDue[lang], null)
    }
    return { ...answer(true, '', userId), phone }
  })
}
;(dialerService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
