import { loadMembers } from '../../../server/telephony/control/acd.ts'
import { describe, expect, it } from 'vitest'
import { desc, eq } from 'drizzle-orm'
import { dialerCampaignRuns, dialerPacingLog } from '../../../server/db/schema/index.ts'
import { startCampaignRunner } from '../../../server/dialer/runner.ts'
import type { Originator } from '../../../server/dialer/runner.ts'
import { loadCampaign, measurePacerStats } from '../../../server/dialer/store.ts'
import { demo, setAgent } from '../call-control-helper.ts'
import { useTestApp } from '../helper.ts'
import { insertAttempt } from './attempts.ts'
import type { Attempt } from './attempts.ts'

// The pacer's statistics measured from a campaign's recent attempts (issue 18: predictive pacing from measured answer
// rate, ring, talk and wrap-up times): the step-1 call records the runner writes, the agent legs' after-service time.

const t = useTestApp({ overrides: { dialer: { runner: false } } })
/** The carrier's agents: the ACD's own count of the queue's members, as the media app's brain answers it. */
const acdCount = async (siteId: number, queueId: number, at: Date) => {
  const members = await loadMembers(t.database.db, siteId, queueId, at)
  return { members: members.length, idle: members.filter((m) => m.available).length }
}
const silentLog = { info() {}, warn() {}, error() {} }

/** A finished attempt of `campaign` as startAttempt/finishAttempt leave it (and the agent's leg when talked). */
const attempt = (siteId: number, campaign: number, a: Attempt, now: Date) => insertAttempt(t.database.db, siteId, campaign, a, now)

describe('pacer statistics', () => {
  it('measures answer rate, ring, talk and wrap-up times and the recent abandons from the last hour of attempts', async () => {
    const d = await demo(t.database.db)
    const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
    const campaign = await d.seed('service.shipments-campaigns', { description: 'Preditiva', mailings: [mailing], mode: 'predictive', queue: d.support.id })
    const other = await d.seed('service.shipments-campaigns', { description: 'Outra', mailings: [mailing], mode: 'predictive', queue: d.support.id })
    const now = new Date()
    // 4 answered (ring 5/10/15/10; talk 60/120 with wrap 10/20; one abandoned; one 20 minutes ago), 4 not (ring 30).
    const attempts: Attempt[] = [
      { ring: 5, answered: true, talk: 60, wrap: 10 },
      { ring: 10, answered: true, talk: 120, wrap: 20 },
      { ring: 15, answered: true, talk: 0, abandoned: true },
      { ring: 10, answered: true, talk: 90, minutesAgo: 20 },
      ...Array.from({ length: 4 }, () => ({ ring: 30, answered: false })),
    ]
    for (const a of attempts) await attempt(d.site.id, campaign, a, now)
    // Neither another campaign's attempts nor ones older than an hour count.
    await attempt(d.site.id, other, { ring: 1, answered: true, talk: 999 }, now)
    await attempt(d.site.id, campaign, { ring: 1, answered: true, talk: 999, minutesAgo: 90 }, now)

    const { stats, recent } = await measurePacerStats(t.database.db, (await loadCampaign(t.database.db, d.site.id, campaign))!, now)
    expect(stats.samples).toBe(8)
    expect(stats.answerRate).toBe(0.5)
    expect(stats.answerRings).toEqual([5, 10, 10, 15])
    expect(stats.meanRingSeconds).toBe(10)
    expect(stats.failRings).toEqual([30, 30, 30, 30])
    // The abandoned call talked to nobody: not a talk sample.
    expect(stats.talkSamples).toEqual([60, 90, 120])
    expect(stats.meanTalkSeconds).toBe(90)
    expect(stats.wrapSamples).toEqual([10, 20])
    expect(stats.meanWrapSeconds).toBe(15)
    // The last 15 minutes: 3 answered (the 20-minute-old one is out), 1 of them abandoned.
    expect(recent).toEqual({ answered: 3, abandoned: 1 })
  })

  it('the runner paces a predictive campaign with them: past 30 measured calls it leaves the learning phase', async () => {
    const d = await demo(t.database.db)
    const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
    for (let i = 0; i < 3; i++) await d.seed('crm.leads', { mailing, name: `Lead ${i}`, phones: `+5511970${String(100000 + i)}` })
    const campaign = await d.seed('service.shipments-campaigns', { description: 'Preditiva 2', mailings: [mailing], mode: 'predictive', queue: d.support.id })
    const now = new Date()
    for (let i = 0; i < 40; i++)
      await attempt(d.site.id, campaign, i % 4 === 0 ? { ring: 8, answered: true, talk: 100, wrap: 10 } : { ring: 25, answered: false }, now)
    await t.database.db.insert(dialerCampaignRuns).values({ campaignId: campaign, siteId: d.site.id, status: 'running' })
    await setAgent(t.database.db, d.agent1, 'not_inuse')
    await setAgent(t.database.db, d.agent2, 'unavailable')

    const originator: Originator = { ready: () => true, originate: () => new Promise(() => {}), queueAgents: acdCount }
    const runner = startCampaignRunner(t.database.db, originator, silentLog, { tickMs: 60_000 })
    try {
      await runner.tick()
      const [entry] = await t.database.db.select().from(dialerPacingLog).where(eq(dialerPacingLog.campaignId, campaign)).orderBy(desc(dialerPacingLog.id))
      expect(entry, 'a pacing decision logged').toBeDefined()
      const log = entry!.log as Record<string, unknown>
      expect(log).toMatchObject({ mode: 'predictive', samples: 40, answerRate: 0.25, meanTalk: 100, meanWrap: 10 })
      expect(log.learning).not.toBe(true)
      expect(entry!.calls).toBeGreaterThanOrEqual(1)
    } finally {
      await runner.stop()
    }
  })
})
