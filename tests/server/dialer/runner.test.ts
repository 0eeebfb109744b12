import { loadMembers } from '../../../server/telephony/control/acd.ts'
import { describe, expect, it } from 'vitest'
import { and, eq, inArray } from 'drizzle-orm'
import {
  callRecords,
  crmLeads,
  dialerCampaignRuns,
  dialerLeadStates,
  dialerPacingLog,
  serviceCalendars,
  serviceCalendarsHours,
} from '../../../server/db/schema/index.ts'
import { startCampaignRunner } from '../../../server/dialer/runner.ts'
import type { CampaignRunner, OriginateOutcome, OriginateRequest, Originator } from '../../../server/dialer/runner.ts'
import { dialerPaths } from '../../../contract/api/dialer.ts'
import { demo, setAgent } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'

// The dialer's runtime (issue 18): campaigns started and paused, leads reserved one holder at a time, attempts and
// statuses written from what the carrier did, and a runner that loses its process is taken over and resumes.
// The app runs no runner of its own here: each test starts one with a fake carrier it drives.

const t = useTestApp({ overrides: { dialer: { runner: false } } })
/** The carrier's agents: the ACD's own count of the queue's members, as the media app's brain answers it. */
const acdCount = async (siteId: number, queueId: number, at: Date) => {
  const members = await loadMembers(t.database.db, siteId, queueId, at)
  return { members: members.length, idle: members.filter((m) => m.available).length }
}
const silentLog = { info() {}, warn() {}, error() {} }

/** A carrier the test answers: every origination waits until the test settles it. */
function fakeCarrier() {
  const pending = new Map<string, { request: OriginateRequest; settle: (o: OriginateOutcome) => void }>()
  const originator: Originator = {
    ready: () => true,
    originate: (request) => new Promise<OriginateOutcome>((resolve) => pending.set(request.phone, { request, settle: resolve })),
    queueAgents: acdCount,
  }
  return {
    originator,
    pending,
    answer(phone: string, talkSeconds = 30) {
      const call = pending.get(phone)!
      pending.delete(phone)
      call.settle({ status: 200, answeredAt: new Date(), talkSeconds, abandoned: false })
    },
    fail(phone: string, status: number) {
      const call = pending.get(phone)!
      pending.delete(phone)
      call.settle({ status, answeredAt: null, talkSeconds: 0, abandoned: false })
    },
  }
}

async function until(check: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('condition not met')
}

let phoneSeq = 0
async function campaignWith(leadCount: number, fields: Record<string, unknown> = {}) {
  const d = await demo(t.database.db)
  const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
  const leads: { id: number; phone: string }[] = []
  for (let i = 0; i < leadCount; i++) {
    const phone = `+55119${String(7000_0000 + phoneSeq++).padStart(8, '0')}`
    const id = await d.seed('crm.leads', { mailing, name: `Lead ${i}`, surname: 'Souza', phones: phone })
    leads.push({ id, phone })
  }
  const campaign = await d.seed('service.shipments-campaigns', {
    description: `Campanha ${Math.random()}`,
    mailings: [mailing],
    mode: 'progressive',
    queue: d.support.id,
    max_attempts: 3,
    min_interval: 30,
    ...fields,
  })
  return { d, mailing, campaign, leads }
}

async function leadsById(ids: number[]) {
  const rows = await t.database.db.select().from(crmLeads).where(inArray(crmLeads.id, ids))
  return new Map(rows.map((r) => [r.id, r]))
}

async function freeAgents(d: Awaited<ReturnType<typeof demo>>, n: 0 | 1 | 2) {
  await setAgent(t.database.db, d.agent1, n >= 1 ? 'not_inuse' : 'unavailable')
  await setAgent(t.database.db, d.agent2, n >= 2 ? 'not_inuse' : 'unavailable')
}

describe('campaign runner', () => {
  it('places one call per free agent (progressive) and writes attempts, statuses and call records from what the carrier did', async () => {
    const { d, campaign, leads } = await campaignWith(4)
    await freeAgents(d, 2)
    const admin = await signedIn(t.app, 'admin')
    const started = await admin.post(dialerPaths.command(campaign, 'start'))
    expect(started.statusCode, started.body).toBe(200)
    expect(started.json()).toMatchObject({ status: 'running', leads_total: 4, leads_remaining: 4, lines_in_use: 0 })

    const carrier = fakeCarrier()
    const runner = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000 })
    try {
      await runner.tick()
      await until(() => carrier.pending.size === 2)
      // Two free agents, two lines: the first two leads, with the lead's headers for the agent's leg (spec 000 §7).
      const first = carrier.pending.get(leads[0]!.phone)!.request
      expect(first.headers).toMatchObject({
        'X-Atende-Call-Type': '12',
        'X-Atende-Campaign': String(campaign),
        'X-Atende-Mailing-Client': String(leads[0]!.id),
        'X-Atende-Client-Name': encodeURIComponent('Lead 0 Souza'),
        'X-Atende-Attempts': '1',
        'X-Atende-Queue': String(d.support.id),
      })
      expect(carrier.pending.has(leads[1]!.phone)).toBe(true)
      // Lines busy: another tick places nothing more.
      await runner.tick()
      expect(carrier.pending.size).toBe(2)
      const busy = (await admin.get(dialerPaths.progress(campaign))).json()
      expect(busy).toMatchObject({ lines_in_use: 2, leads_dialled: 2 })

      carrier.answer(leads[0]!.phone, 42)
      carrier.fail(leads[1]!.phone, 486)
      await until(() => runner.inFlight() === 0)
      const after = await leadsById([leads[0]!.id, leads[1]!.id])
      expect(after.get(leads[0]!.id)).toMatchObject({ status: 'done', attempts: 1 })
      expect(after.get(leads[1]!.id)).toMatchObject({ status: 'pending', attempts: 1 })
      const [busyState] = await t.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, leads[1]!.id))
      expect(busyState).toMatchObject({ lastStatus: 486, reservedUntil: null, callId: null })
      // Not before the minimum interval (30 minutes).
      expect(busyState!.nextAt!.getTime() - Date.now()).toBeGreaterThan(29 * 60_000)
      const records = await t.database.db
        .select()
        .from(callRecords)
        .where(inArray(callRecords.leadId, [leads[0]!.id, leads[1]!.id]))
      expect(records.map((r) => [r.leadId, r.callType, r.dialStatus, r.answeredDuration]).sort()).toEqual(
        [
          [leads[0]!.id, 12, 200, 42],
          [leads[1]!.id, 12, 486, null],
        ].sort(),
      )

      // The next tick takes the two leads never dialled; the busy one waits for its interval.
      await runner.tick()
      await until(() => carrier.pending.size === 2)
      expect([...carrier.pending.keys()].sort()).toEqual([leads[2]!.phone, leads[3]!.phone].sort())
      carrier.fail(leads[2]!.phone, 480)
      carrier.answer(leads[3]!.phone)
      await until(() => runner.inFlight() === 0)
      const log = await t.database.db.select().from(dialerPacingLog).where(eq(dialerPacingLog.campaignId, campaign))
      expect(log.length).toBeGreaterThanOrEqual(2)
      expect(log[0]!.reason).toContain('progressive')
      const progress = (await admin.get(dialerPaths.progress(campaign))).json()
      expect(progress).toMatchObject({ leads_total: 4, leads_dialled: 4, leads_answered: 2, leads_remaining: 2, lines_in_use: 0 })
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it('never calls a blacklisted number: 609 on the lead, no call, no attempt', async () => {
    const { d, campaign, leads } = await campaignWith(2)
    await d.seed('service.blacklists', { description: 'Não ligar', phones: leads[0]!.phone, direction: 'both' })
    await freeAgents(d, 2)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const carrier = fakeCarrier()
    const runner = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000 })
    try {
      await runner.tick()
      await until(() => carrier.pending.size === 1)
      expect(carrier.pending.has(leads[1]!.phone)).toBe(true)
      const rows = await leadsById([leads[0]!.id])
      expect(rows.get(leads[0]!.id)).toMatchObject({ status: 'blocked', attempts: 0 })
      const [state] = await t.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, leads[0]!.id))
      expect(state!.lastStatus).toBe(609)
      carrier.answer(leads[1]!.phone)
      await until(() => runner.inFlight() === 0)
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it("reads the calendar's hours on each lead's clock: a Manaus lead waits for 09:00 in Manaus, its own zone field overrides", async () => {
    const d = await demo(t.database.db)
    const db = t.database.db
    const [calendar] = await db.insert(serviceCalendars).values({ siteId: d.site.id, description: 'Comercial', timezone: 'America/Sao_Paulo' }).returning()
    await db
      .insert(serviceCalendarsHours)
      .values([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ siteId: d.site.id, calendarId: calendar!.id, weekday, start: '09:00', end: '20:00' })))
    const mailing = await d.seed('crm.mailings', { description: `Mailing fusos ${Math.random()}` })
    const manaus = '+559233221100'
    const saoPaulo = '+551133221100'
    const overridden = '+559233221101'
    const ids = [
      await d.seed('crm.leads', { mailing, name: 'Manaus', phones: manaus }),
      await d.seed('crm.leads', { mailing, name: 'São Paulo', phones: saoPaulo }),
      await d.seed('crm.leads', { mailing, name: 'Manaus com fuso', phones: overridden }),
    ]
    await db
      .update(crmLeads)
      .set({ data: { timezone: 'America/Sao_Paulo' } })
      .where(eq(crmLeads.id, ids[2]!))
    const campaign = await d.seed('service.shipments-campaigns', {
      description: `Campanha fusos ${Math.random()}`,
      mailings: [mailing],
      mode: 'progressive',
      queue: d.support.id,
      calendar: calendar!.id,
    })
    await freeAgents(d, 2)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const carrier = fakeCarrier()
    // 12:30Z: 09:30 in São Paulo, 08:30 in Manaus.
    const now = new Date('2026-07-06T12:30:00Z')
    const runner = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000, now: () => now })
    try {
      await runner.tick()
      await runner.tick()
      await until(() => carrier.pending.size === 2)
      expect([...carrier.pending.keys()].sort()).toEqual([saoPaulo, overridden].sort())
      // The Manaus lead was not called: no attempt, due at 09:00 Manaus (13:00Z).
      const [state] = await db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, ids[0]!))
      expect(state).toMatchObject({ nextAt: new Date('2026-07-06T13:00:00Z'), callId: null, reservedUntil: null })
      expect((await leadsById([ids[0]!])).get(ids[0]!)).toMatchObject({ attempts: 0, status: 'pending' })
      carrier.answer(saoPaulo)
      carrier.answer(overridden)
      await until(() => runner.inFlight() === 0)
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it('counts an answered call no agent took within two seconds as abandoned on the campaign', async () => {
    const { d, campaign, leads } = await campaignWith(1)
    await freeAgents(d, 1)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const carrier = fakeCarrier()
    const runner = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000 })
    try {
      await runner.tick()
      await until(() => carrier.pending.size === 1)
      const call = carrier.pending.get(leads[0]!.phone)!
      carrier.pending.clear()
      call.settle({ status: 200, answeredAt: new Date(), talkSeconds: 3, abandoned: true })
      await until(() => runner.inFlight() === 0)
      const progress = (await admin.get(dialerPaths.progress(campaign))).json()
      // Abandoned: counted on the campaign, and the customer is called again (the lead is not worked).
      expect(progress).toMatchObject({ abandoned: 1, leads_answered: 0, lines_in_use: 0 })
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it("a call an agent took is no longer in flight: the other free agent gets a call (the originator's pending count)", async () => {
    const { d, campaign, leads } = await campaignWith(4)
    await freeAgents(d, 2)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const carrier = fakeCarrier()
    // The media app's brain answers which calls may still need an agent: not the ones bridged.
    const bridged = new Set<string>()
    const originator: Originator = {
      ...carrier.originator,
      pending: (campaignId) => [...carrier.pending.values()].filter((c) => c.request.campaignId === campaignId && !bridged.has(c.request.phone)).length,
    }
    const runner = startCampaignRunner(t.database.db, originator, silentLog, { tickMs: 60_000 })
    try {
      await runner.tick()
      await until(() => carrier.pending.size === 2)
      // The first customer is talking to agent1 (busy now); the second was busy (486) and is over.
      bridged.add(leads[0]!.phone)
      await setAgent(t.database.db, d.agent1, 'unavailable')
      carrier.fail(leads[1]!.phone, 486)
      await until(() => runner.inFlight() === 1)
      // One free agent (agent2), nothing pending for it: progressive places one call, though a call is not over.
      await runner.tick()
      await until(() => carrier.pending.size === 2)
      expect(carrier.pending.has(leads[0]!.phone)).toBe(true)
      expect(carrier.pending.has(leads[2]!.phone)).toBe(true)
      // And no more while that one rings.
      await runner.tick()
      expect(carrier.pending.size).toBe(2)
      carrier.answer(leads[0]!.phone)
      carrier.fail(leads[2]!.phone, 486)
      await until(() => runner.inFlight() === 0)
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it('places nothing while paused and nothing with no agent free', async () => {
    const { d, campaign } = await campaignWith(2)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const carrier = fakeCarrier()
    const runner = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000 })
    try {
      await freeAgents(d, 0)
      await runner.tick()
      expect(runner.inFlight()).toBe(0)
      const paused = await admin.post(dialerPaths.command(campaign, 'pause'))
      expect(paused.json()).toMatchObject({ status: 'paused' })
      await freeAgents(d, 2)
      await runner.tick()
      expect(runner.inFlight()).toBe(0)
      expect(carrier.pending.size).toBe(0)
    } finally {
      await runner.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })

  it('resumes after a restart: a lost runner is taken over, its call counts as uncertain (559), the campaign goes on', async () => {
    const { d, campaign, leads } = await campaignWith(2, { min_interval: 0 })
    await freeAgents(d, 1)
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const lost = fakeCarrier()
    const crashed: CampaignRunner = startCampaignRunner(t.database.db, lost.originator, silentLog, { tickMs: 60_000 })
    await crashed.tick()
    await until(() => lost.pending.size === 1)
    // The process dies: its runner stops ticking, its call never reports.
    await crashed.stop()
    const carrier = fakeCarrier()
    const next = startCampaignRunner(t.database.db, carrier.originator, silentLog, { tickMs: 60_000, staleMs: 0 })
    try {
      await new Promise((resolve) => setTimeout(resolve, 20))
      await next.tick()
      await until(() => carrier.pending.size === 1)
      const [run] = await t.database.db.select().from(dialerCampaignRuns).where(eq(dialerCampaignRuns.campaignId, campaign))
      expect(run!.status).toBe('running')
      const [state] = await t.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, leads[0]!.id))
      expect(state!.lastStatus).toBe(559)
      const [record] = await t.database.db
        .select()
        .from(callRecords)
        .where(and(eq(callRecords.leadId, leads[0]!.id), eq(callRecords.dialStatus, 559)))
      expect(record).toBeDefined()
      // One agent, one line: leads never dialled come first, then the interrupted one (interval 0) on its second try.
      const [fresh] = [...carrier.pending.values()]
      expect(fresh!.request.headers['X-Atende-Mailing-Client']).toBe(String(leads[1]!.id))
      carrier.answer(fresh!.request.phone)
      await until(() => next.inFlight() === 0)
      await next.tick()
      await until(() => carrier.pending.size === 1)
      const [again] = [...carrier.pending.values()]
      expect(again!.request.headers['X-Atende-Mailing-Client']).toBe(String(leads[0]!.id))
      expect(again!.request.headers['X-Atende-Attempts']).toBe('2')
      carrier.answer(again!.request.phone)
      await until(() => next.inFlight() === 0)
      expect((await leadsById([leads[0]!.id])).get(leads[0]!.id)).toMatchObject({ status: 'done', attempts: 2 })
    } finally {
      await next.stop()
      await admin.post(dialerPaths.command(campaign, 'stop'))
    }
  })
})

describe('make-call-to-mailing-client and preview', () => {
  it('two agents asking for one lead at once: one holds it, the other is told who does; remove_reserved releases it', async () => {
    const { campaign, leads } = await campaignWith(1, { mode: 'preview' })
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const agent1 = await signedIn(t.app, 'agent1')
    const agent2 = await signedIn(t.app, 'agent2')
    const url = `${dialerPaths.makeCall}?mailing_client=${leads[0]!.id}`
    const answers = (await Promise.all([agent1.put(url), agent2.put(url)])).map((r) => {
      expect(r.statusCode, r.body).toBe(200)
      return r.json()
    })
    const winners = answers.filter((a) => a.success)
    expect(winners).toHaveLength(1)
    const loser = answers.find((a) => !a.success)!
    expect(loser.reason).toBe('Este lead está reservado para outro agente.')
    expect(loser.owner).toBe(winners[0].owner)
    expect(winners[0]).toMatchObject({ campaign, mailing_client_attempts: 0, phone: leads[0]!.phone, client_name: 'Lead 0 Souza' })

    const holder = winners[0].owner === (await demo(t.database.db)).agent1.id ? agent1 : agent2
    const other = holder === agent1 ? agent2 : agent1
    // Only the holder releases it.
    await other.put(`${url}&remove_reserved=true`)
    expect((await other.put(url)).json().success).toBe(false)
    expect((await holder.put(`${url}&remove_reserved=true`)).json().success).toBe(true)
    expect((await other.put(url)).json().success).toBe(true)
    await admin.post(dialerPaths.command(campaign, 'stop'))
  })

  it('shows each preview agent a different lead, the same one again until it is released', async () => {
    const { campaign, leads } = await campaignWith(2, { mode: 'preview', preview_countdown: 10 })
    const admin = await signedIn(t.app, 'admin')
    await admin.post(dialerPaths.command(campaign, 'start'))
    const agent1 = await signedIn(t.app, 'agent1')
    const agent2 = await signedIn(t.app, 'agent2')
    const first = (await agent1.get(dialerPaths.preview)).json()
    expect(first).toMatchObject({ campaign, countdown: 10, mailing_client: leads[0]!.id, phone: leads[0]!.phone })
    expect((await agent1.get(dialerPaths.preview)).json().mailing_client).toBe(leads[0]!.id)
    expect((await agent2.get(dialerPaths.preview)).json().mailing_client).toBe(leads[1]!.id)
    // 'Pular': agent1's lead goes back for later; agent1's next preview is another lead (none left here), never the same.
    const skip = await agent1.put(`${dialerPaths.makeCall}?mailing_client=${leads[0]!.id}&remove_reserved=true&skip=true`)
    expect(skip.json().success).toBe(true)
    expect((await agent1.get(dialerPaths.preview)).json()).toBeNull()
    const [state] = await t.database.db.select().from(dialerLeadStates).where(eq(dialerLeadStates.leadId, leads[0]!.id))
    expect(state!.reservedBy).toBeNull()
    expect(state!.nextAt!.getTime()).toBeGreaterThan(Date.now())
    const stopped = await admin.post(dialerPaths.command(campaign, 'stop'))
    expect(stopped.json().status).toBe('stopped')
    expect((await agent1.get(dialerPaths.preview)).json()).toBeNull()
  })

  it("refuses bad input with 400 and another site's campaign with 404", async () => {
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.post('/api/v1/service/shipments-campaigns/abc/start/')).statusCode).toBe(400)
    expect((await admin.post('/api/v1/service/shipments-campaigns/999999/start/')).statusCode).toBe(404)
    const agent1 = await signedIn(t.app, 'agent1')
    expect((await agent1.put(`${dialerPaths.makeCall}?mailing_client=x`)).statusCode).toBe(400)
    expect((await agent1.post(dialerPaths.command(1, 'start'))).statusCode).toBe(403)
  })
})
