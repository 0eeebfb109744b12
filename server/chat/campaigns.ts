import type { FastifyInstance, FastifyRequest } from 'fastify'
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import { chatCampaignPaths } from '../../contract/api/chat-campaigns.ts'
import type { ChatCampaignProgress } from '../../contract/api/chat-campaigns.ts'
import { CampaignParams } from '../../contract/api/dialer.ts'
import type { CampaignCommand } from '../../contract/api/dialer.ts'
import { entityByKey } from '../../contract/entities/index.ts'
import {
  chatCampaignRuns,
  chatCampaignSends,
  chatChannels,
  chatOutbox,
  chatRooms,
  crmLeads,
  serviceChatsCampaigns,
  serviceChatsCampaignsMailings,
  serviceChatsCampaignsParams,
} from '../db/schema/index.ts'
import type { AppDeps } from '../deps.ts'
import { blacklistMatcher } from '../dialer/rules.ts'
import type { BlacklistMatcher } from '../dialer/rules.ts'
import { loadBlacklist, splitPhones } from '../dialer/store.ts'
import { detailError } from '../errors/http-error.ts'
import type { RoutePermission } from '../http/permission-guard.ts'
import { parseInput } from '../http/validate.ts'
import { publishChatEvent, roomAudience } from './events.ts'
import { sendCampaignTemplate } from './outbound.ts'
import { serializeRoom } from './serialize.ts'

// WhatsApp template campaigns (issue 18 item 4; README.md "WhatsApp template campaigns"): a `service.chats-campaigns`
// row names mailings, a WhatsApp channel, an approved template with its parameters taken from each lead, and the chat
// queue the replies go to. Started, the sender writes one template per lead with a phone into the outbox (the
// dispatcher and the per-number limiter pace them at the channel's messages_per_second); each lead is claimed once in
// chat_campaign_sends (unique campaign + lead) and its message's uid is the campaign's and lead's, so neither a
// restart nor a second instance sends a lead twice.

export type ChatCampaign = typeof serviceChatsCampaigns.$inferSelect & {
  mailingIds: number[]
  params: { name: string; leadField: string; value: string }[]
}

type Lead = typeof crmLeads.$inferSelect

/** A claim older than this whose template was not recorded is done again (same uid: the same message). */
const STALE_CLAIM_MS = 10_000

export async function loadChatCampaign(deps: AppDeps, siteId: number, id: number): Promise<ChatCampaign | null> {
  const [row] = await deps.db
    .select()
    .from(serviceChatsCampaigns)
    .where(and(eq(serviceChatsCampaigns.siteId, siteId), eq(serviceChatsCampaigns.id, id)))
  if (!row) return null
  const mailings = await deps.db
    .select({ id: serviceChatsCampaignsMailings.mailingId })
    .from(serviceChatsCampaignsMailings)
    .where(eq(serviceChatsCampaignsMailings.chatcampaignId, id))
  const params = await deps.db
    .select({ name: serviceChatsCampaignsParams.name, leadField: serviceChatsCampaignsParams.leadField, value: serviceChatsCampaignsParams.value })
    .from(serviceChatsCampaignsParams)
    .where(eq(serviceChatsCampaignsParams.chatcampaignId, id))
    .orderBy(asc(serviceChatsCampaignsParams.position), asc(serviceChatsCampaignsParams.id))
  return { ...row, mailingIds: mailings.map((m) => m.id), params }
}

/** A lead's value for a template parameter: name, surname, full_name, phone, or a column of its import (`data`). */
export function leadValue(lead: Pick<Lead, 'name' | 'surname' | 'phones' | 'data'>, field: string): string {
  const key = field.trim()
  if (key === '') return ''
  if (key === 'name') return lead.name
  if (key === 'surname') return lead.surname
  if (key === 'full_name') return [lead.name, lead.surname].filter(Boolean).join(' ')
  if (key === 'phone') return splitPhones(lead.phones)[0] ?? ''
  const data = lead.data ?? {}
  const found = Object.entries(data).find(([k]) => k.toLowerCase() === key.toLowerCase())
  return found === undefined || found[1] === null || found[1] === undefined ? '' : String(found[1])
}

export function templateParams(campaign: Pick<ChatCampaign, 'params'>, lead: Pick<Lead, 'name' | 'surname' | 'phones' | 'data'>) {
  return campaign.params.map((p) => ({ name: p.name, value: leadValue(lead, p.leadField) || p.value }))
}

const messageUid = (campaignId: number, leadId: number) => `wacamp-${campaignId}-${leadId}`

/** Sends (or, after a crash, finishes) one claimed lead and records the result on its claim. */
async function sendLead(deps: AppDeps, campaign: ChatCampaign, lead: Lead, blacklist: BlacklistMatcher): Promise<void> {
  const phone = splitPhones(lead.phones)[0]
  const done = (values: Partial<typeof chatCampaignSends.$inferInsert>) =>
    deps.db
      .update(chatCampaignSends)
      .set(values)
      .where(and(eq(chatCampaignSends.campaignId, campaign.id), eq(chatCampaignSends.leadId, lead.id)))
  if (!phone) {
    await done({ status: 'skipped', reason: 'no_phone' })
    return
  }
  // The site's blacklists (outbound or both, active, not expired) bind messages as they bind the dialer's calls.
  if (blacklist.blocked(phone)) {
    await done({ status: 'skipped', reason: 'blacklisted' })
    return
  }
  const result = await sendCampaignTemplate(deps, {
    siteId: campaign.siteId,
    channelId: campaign.channelId,
    templateId: campaign.templateId,
    params: templateParams(campaign, lead),
    phone,
    uid: messageUid(campaign.id, lead.id),
    queueId: campaign.queueId,
  })
  // A template made unusable meanwhile: the claim stays `sending` and is taken again once the template is fixed.
  if (!result.ok && result.reason === 'template') return
  if (result.ok) await done({ status: 'sent', roomId: result.roomId, messageId: result.messageId, sentAt: new Date() })
  else await done({ status: 'skipped', reason: result.reason })
}

/**
 * One round of a running campaign: claims that a crash left unfinished, then the next leads without a claim. No more
 * than the channel's messages_per_second are written per round, and none while that many of the channel's messages
 * are still waiting in the outbox — a campaign never buries the agents' own messages on the same number.
 */
export async function sendCampaignRound(deps: AppDeps, campaign: ChatCampaign, now = new Date()): Promise<number> {
  const [channel] = await deps.db
    .select()
    .from(chatChannels)
    .where(and(eq(chatChannels.siteId, campaign.siteId), eq(chatChannels.id, campaign.channelId)))
  if (!channel || !channel.isActive || campaign.mailingIds.length === 0) return 0
  const perSecond = Math.max(1, channel.messagesPerSecond ?? 80)
  const [waiting] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(chatOutbox)
    .where(eq(chatOutbox.channelId, channel.id))
  let budget = perSecond - Number(waiting?.n ?? 0)
  if (budget <= 0) return 0
  let sent = 0
  const blacklist = blacklistMatcher(await loadBlacklist(deps.db, campaign.siteId, now))

  const stale = await deps.db
    .select({ lead: crmLeads })
    .from(chatCampaignSends)
    .innerJoin(crmLeads, eq(crmLeads.id, chatCampaignSends.leadId))
    .where(
      and(
        eq(chatCampaignSends.campaignId, campaign.id),
        eq(chatCampaignSends.status, 'sending'),
        lt(chatCampaignSends.createdAt, new Date(now.getTime() - STALE_CLAIM_MS)),
      ),
    )
    .limit(budget)
  for (const { lead } of stale) {
    await sendLead(deps, campaign, lead, blacklist)
    budget--
    sent++
  }
  if (budget <= 0) return sent

  const leads = await deps.db
    .select()
    .from(crmLeads)
    .where(
      and(
        eq(crmLeads.siteId, campaign.siteId),
        inArray(crmLeads.mailingId, campaign.mailingIds),
        sql`NOT EXISTS (SELECT 1 FROM chat_campaign_sends s WHERE s.campaign_id = ${campaign.id} AND s.lead_id = ${crmLeads.id})`,
      ),
    )
    .orderBy(asc(crmLeads.id))
    .limit(budget)
  for (const lead of leads) {
    // The claim: another instance (or an earlier round) that took the lead first wins.
    const [claimed] = await deps.db
      .insert(chatCampaignSends)
      .values({ campaignId: campaign.id, siteId: campaign.siteId, leadId: lead.id, status: 'sending' })
      .onConflictDoNothing()
      .returning({ id: chatCampaignSends.id })
    if (!claimed) continue
    await sendLead(deps, campaign, lead, blacklist)
    sent++
  }
  return sent
}

/**
 * Campaign rooms nobody answered within their campaign's reply_wait_hours end (by `timeout`): the customer is free
 * of the waiting room, and a later reply opens a room by the channel's inbound route. Only a room still `new` with no
 * customer message is ended (one conditional UPDATE), so a reply that came meanwhile keeps its room.
 */
export async function endUnansweredRooms(deps: AppDeps, now = new Date()): Promise<number> {
  const result = (await deps.db.execute(sql`
    UPDATE chat_rooms r SET state = 'ended', ended_at = ${now.toISOString()}::timestamptz, ended_by = 'timeout',
      revision = nextval('chat_revision_seq')
    FROM (
      SELECT s.room_id FROM chat_campaign_sends s
      JOIN service_chats_campaigns c ON c.id = s.campaign_id
      JOIN chat_rooms w ON w.id = s.room_id
      WHERE s.status = 'sent' AND w.state = 'new' AND w.ended_at IS NULL AND w.user_id IS NULL AND w.last_client_message_at IS NULL
        AND w.started_at < ${now.toISOString()}::timestamptz - c.reply_wait_hours * interval '1 hour'
      LIMIT 500
    ) due
    WHERE r.id = due.room_id AND r.state = 'new' AND r.ended_at IS NULL AND r.user_id IS NULL AND r.last_client_message_at IS NULL
    RETURNING r.id`)) as unknown as { rows: { id: number }[] }
  for (const { id } of result.rows) {
    const [room] = await deps.db
      .select()
      .from(chatRooms)
      .where(eq(chatRooms.id, Number(id)))
    if (room)
      await publishChatEvent(deps.bus, { type: 'room', site_id: room.siteId, users: await roomAudience(deps, room), room: await serializeRoom(deps, room) })
  }
  return result.rows.length
}

/** Every running campaign's round (each server instance runs this once a second). */
export async function sendRunningCampaigns(deps: AppDeps): Promise<number> {
  const running = await deps.db
    .select({ id: serviceChatsCampaigns.id, siteId: serviceChatsCampaigns.siteId })
    .from(chatCampaignRuns)
    .innerJoin(serviceChatsCampaigns, eq(serviceChatsCampaigns.id, chatCampaignRuns.campaignId))
    .where(and(eq(chatCampaignRuns.status, 'running'), eq(serviceChatsCampaigns.isActive, true)))
  let sent = 0
  for (const row of running) {
    const campaign = await loadChatCampaign(deps, row.siteId, row.id)
    if (campaign) sent += await sendCampaignRound(deps, campaign)
  }
  return sent
}

export async function chatCampaignProgress(deps: AppDeps, campaign: ChatCampaign): Promise<ChatCampaignProgress> {
  const [run] = await deps.db.select({ status: chatCampaignRuns.status }).from(chatCampaignRuns).where(eq(chatCampaignRuns.campaignId, campaign.id))
  const [total] =
    campaign.mailingIds.length === 0
      ? [{ n: 0 }]
      : await deps.db
          .select({ n: sql<number>`count(*)::int` })
          .from(crmLeads)
          .where(and(eq(crmLeads.siteId, campaign.siteId), inArray(crmLeads.mailingId, campaign.mailingIds)))
  const result = (await deps.db.execute(sql`
    SELECT count(*) FILTER (WHERE s.status = 'sent')::int AS sent,
           count(*) FILTER (WHERE s.status = 'skipped')::int AS skipped,
           count(*) FILTER (WHERE s.status = 'sending')::int AS sending,
           count(*) FILTER (WHERE s.status = 'sent' AND r.last_client_message_at IS NOT NULL)::int AS replied
    FROM chat_campaign_sends s LEFT JOIN chat_rooms r ON r.id = s.room_id
    WHERE s.campaign_id = ${campaign.id}`)) as unknown as { rows: { sent: number; skipped: number; sending: number; replied: number }[] }
  const counts = result.rows[0] ?? { sent: 0, skipped: 0, sending: 0, replied: 0 }
  const leadsTotal = Number(total?.n ?? 0)
  const sent = Number(counts.sent)
  const skipped = Number(counts.skipped)
  return {
    campaign: campaign.id,
    status: run?.status ?? 'idle',
    leads_total: leadsTotal,
    leads_sent: sent,
    leads_skipped: skipped,
    leads_replied: Number(counts.replied),
    leads_remaining: Math.max(0, leadsTotal - sent - skipped),
  }
}

export type ChatCampaignOptions = {
  /** false: this instance sends for no campaign (tests drive rounds by hand). */
  sender?: boolean
  tickMs?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    chatCampaigns: { tick(): Promise<number> }
  }
}

/** The sender (once a second) and the routes of contract/api/chat-campaigns.ts. */
export async function chatCampaignService(app: FastifyInstance, options: ChatCampaignOptions): Promise<void> {
  const deps = app.deps
  const log = app.log.child({ part: 'chat-campaigns' })
  const entity = entityByKey('service.chats-campaigns')
  let busy: Promise<number> | null = null
  const tick = (): Promise<number> => {
    if (busy) return busy
    busy = endUnansweredRooms(deps)
      .then(() => sendRunningCampaigns(deps))
      .catch((err: unknown) => {
        log.warn({ err }, 'chat campaigns: round failed')
        return 0
      })
      .finally(() => {
        busy = null
      })
    return busy
  }
  app.decorate('chatCampaigns', { tick })
  if (options.sender !== false) {
    const timer = setInterval(() => void tick(), options.tickMs ?? 1000)
    timer.unref()
    app.addHook('onClose', async () => {
      clearInterval(timer)
      await busy
    })
  }

  const campaignOf = async (request: FastifyRequest): Promise<ChatCampaign> => {
    const { id } = parseInput(CampaignParams, request.params, request.lang)
    const campaign = await loadChatCampaign(deps, request.auth!.user.siteId, id)
    if (!campaign) throw detailError(404, 'notFound', request.lang)
    return campaign
  }

  const command = async (request: FastifyRequest, kind: CampaignCommand): Promise<ChatCampaignProgress> => {
    const campaign = await campaignOf(request)
    const status = kind === 'start' ? 'running' : kind === 'pause' ? 'paused' : 'stopped'
    await deps.db
      .insert(chatCampaignRuns)
      .values({ campaignId: campaign.id, siteId: campaign.siteId, status, startedBy: request.auth!.user.id })
      .onConflictDoUpdate({
        target: chatCampaignRuns.campaignId,
        set: { status, updatedAt: new Date(), ...(kind === 'start' ? { startedBy: request.auth!.user.id } : {}) },
      })
    if (kind === 'start' && options.sender !== false) void tick()
    return chatCampaignProgress(deps, campaign)
  }
  const change = { config: { permission: entity.permissions.change as RoutePermission } }
  for (const kind of ['start', 'pause', 'stop'] as const) {
    app.post(chatCampaignPaths.command(':id', kind), change, (request) => command(request, kind))
  }
  app.get(chatCampaignPaths.progress(':id'), { config: { permission: entity.permissions.view as RoutePermission } }, async (request) =>
    chatCampaignProgress(deps, await campaignOf(request)),
  )
}
;(chatCampaignService as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
