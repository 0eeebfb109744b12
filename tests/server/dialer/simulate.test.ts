import { describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { SIMULATION_MAX_WORK, SIMULATION_MESSAGES, simulatePath, simulationWork } from '../../../contract/api/dialer.ts'
import type { SimulateResponse } from '../../../contract/api/dialer.ts'
import { createSite } from '../../../server/sites/site-repo.ts'
import { demo } from '../call-control-helper.ts'
import { signedIn, useTestApp } from '../helper.ts'
import { insertAttempt } from './attempts.ts'
import type { Attempt } from './attempts.ts'

// The simulator as a user runs it (issue 18 item 5): POST /api/v1/service/dialer/simulate/ with rates or a campaign's
// past results, one result per mode, the live pacer's figures; bounded, validated, site-scoped and seeded.

const t = useTestApp({ overrides: { dialer: { runner: false } } })

const RATES_BODY = {
  agents: 10,
  hours: 1,
  rates: { answer: 30, busy: 10, no_answer: 50 },
  talk: { min: 60, max: 180 },
  wrap: { mean: 10 },
  modes: [{ mode: 'progressive' }, { mode: 'power', ratio: 3 }, { mode: 'predictive' }],
  seed: 7,
}

/** A finished attempt of `campaign` an hour ago (unanswered ones busy), as the runner leaves it. */
const attempt = (siteId: number, campaign: number, a: Attempt, now: Date) =>
  insertAttempt(t.database.db, siteId, campaign, { minutesAgo: 60, status: 486, ...a }, now)

async function newCampaign(d: Awaited<ReturnType<typeof demo>>) {
  const mailing = await d.seed('crm.mailings', { description: `Mailing ${Math.random()}` })
  return d.seed('service.shipments-campaigns', { description: `Sim ${Math.random()}`, mailings: [mailing], mode: 'predictive', queue: d.support.id })
}

describe('the dialer simulator API', () => {
  it('compares modes from given rates, and the same seed answers the same figures', async () => {
    const admin = await signedIn(t.app, 'admin')
    const started = performance.now()
    const response = await admin.post(simulatePath, RATES_BODY)
    const ms = performance.now() - started
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json() as SimulateResponse
    expect(answer).toMatchObject({ source: 'rates', history_attempts: null, agents: 10, hours: 1, seed: 7, abandon_cap: 3 })
    expect(answer.results.map((r) => [r.mode, r.ratio])).toEqual([
      ['progressive', null],
      ['power', 3],
      ['predictive', null],
    ])
    for (const r of answer.results) {
      expect(r.dials).toBeGreaterThan(0)
      expect(r.occupancy).toBeGreaterThan(0)
      expect(r.occupancy + r.wrap_share + r.idle_share).toBeCloseTo(1, 6)
      expect(r.answered_per_agent_hour).toBeCloseTo(r.answered / 10, 6)
      // The live pacer's hard cap holds in the simulation too.
      expect(r.worst_window_rate).toBeLessThanOrEqual(0.03)
    }
    const [progressive, power] = answer.results
    // Progressive never has more calls than free agents: nothing to abandon. Power 3 keeps agents busier.
    expect(progressive!.abandoned).toBe(0)
    expect(power!.occupancy).toBeGreaterThan(progressive!.occupancy)
    const again = await admin.post(simulatePath, RATES_BODY)
    expect(again.json()).toEqual(answer)
    const otherSeed = await admin.post(simulatePath, { ...RATES_BODY, seed: 8 })
    expect(otherSeed.json().results).not.toEqual(answer.results)
    console.info(`simulate: 10 agents × 1 h × 3 modes answered in ${ms.toFixed(0)} ms`)
  })

  it("replays a campaign's past results, and falls back to the rates (or refuses) with too little history", async () => {
    const d = await demo(t.database.db)
    const admin = await signedIn(t.app, 'admin')
    const campaign = await newCampaign(d)
    const now = new Date()
    // 40 attempts: a quarter answered (talk 100 s, wrap 10 s), one of those abandoned; the rest busy.
    for (let i = 0; i < 40; i++)
      await attempt(
        d.site.id,
        campaign,
        i % 4 === 0
          ? i === 0
            ? { ring: 8, answered: true, abandoned: true }
            : { ring: 8, answered: true, talk: 100, wrap: 10 }
          : { ring: 20, answered: false },
        now,
      )
    const body = { campaign, agents: 5, hours: 1, modes: [{ mode: 'progressive' }], seed: 3 }
    const response = await admin.post(simulatePath, body)
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json() as SimulateResponse
    expect(answer).toMatchObject({ source: 'history', history_attempts: 40 })
    const [r] = answer.results
    // Every dial is drawn from the history: about a quarter answered; talk 100 s + wrap 10 s per call taken.
    expect(r!.answered / r!.dials).toBeGreaterThan(0.15)
    expect(r!.answered / r!.dials).toBeLessThan(0.35)
    expect(r!.wrap_share / r!.occupancy).toBeCloseTo(10 / 100, 1)
    expect((await admin.post(simulatePath, body)).json()).toEqual(answer)

    const fresh = await newCampaign(d)
    for (let i = 0; i < 5; i++) await attempt(d.site.id, fresh, { ring: 20, answered: false }, now)
    const refused = await admin.post(simulatePath, { ...body, campaign: fresh })
    expect(refused.statusCode).toBe(400)
    expect(Object.keys(refused.json())).toEqual(['campaign'])
    const fallback = await admin.post(simulatePath, { ...body, campaign: fresh, rates: { answer: 40, busy: 0, no_answer: 60 } })
    expect(fallback.statusCode, fallback.body).toBe(200)
    expect(fallback.json()).toMatchObject({ source: 'rates', history_attempts: 5 })
  })

  it('refuses bad input with field errors, too much work with 400, other sites with 404 and agents with 403', async () => {
    const admin = await signedIn(t.app, 'admin')
    const bad = async (body: unknown) => {
      const response = await admin.post(simulatePath, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      return Object.keys(response.json())
    }
    expect(await bad({})).toEqual(expect.arrayContaining(['agents', 'hours', 'modes']))
    expect(await bad({ ...RATES_BODY, agents: 0 })).toEqual(['agents'])
    expect(await bad({ ...RATES_BODY, agents: 501 })).toEqual(['agents'])
    expect(await bad({ ...RATES_BODY, hours: 9 })).toEqual(['hours'])
    expect(await bad({ ...RATES_BODY, modes: [] })).toEqual(['modes'])
    expect(await bad({ ...RATES_BODY, modes: [{ mode: 'telepathic' }] })).toEqual(['modes.0.mode'])
    expect(await bad({ ...RATES_BODY, rates: { answer: 60, busy: 30, no_answer: 30 } })).toEqual(['rates.answer'])
    expect(await bad({ ...RATES_BODY, rates: undefined })).toEqual(['rates'])
    expect(await bad({ ...RATES_BODY, agents: 'ten' })).toEqual(['agents'])
    expect(await bad([1, 2])).toContain('agents')
    expect((await admin.post(simulatePath, 'garbage')).statusCode).toBe(415)
    // Too much work for one request (measured: README "Simulator"); the bench's shape (20 agents, 8 h, 3 modes) fits.
    expect(simulationWork(20, 8, 3)).toBeLessThanOrEqual(SIMULATION_MAX_WORK)
    const tooBig = await admin.post(simulatePath, { ...RATES_BODY, agents: 500, hours: 1, modes: [{ mode: 'predictive' }] })
    expect(tooBig.statusCode).toBe(400)
    expect(tooBig.json()).toEqual({ agents: [SIMULATION_MESSAGES.tooMuchWork['pt-BR']] })
    const english = await admin.post(simulatePath, { ...RATES_BODY, agents: 100, hours: 8 }, { headers: { 'accept-language': 'en-US' } })
    expect(english.json()).toEqual({ agents: [SIMULATION_MESSAGES.tooMuchWork['en-US']] })

    const d = await demo(t.database.db)
    const campaign = await newCampaign(d)
    const other = await createSite(t.database.db, { domain: `sim-${Math.random()}.example`, name: 'Outra' })
    await t.database.db.execute(sql`UPDATE service_shipments_campaigns SET site_id = ${other.id} WHERE id = ${campaign}`)
    expect((await admin.post(simulatePath, { ...RATES_BODY, campaign })).statusCode).toBe(404)
    expect((await admin.post(simulatePath, { ...RATES_BODY, campaign: 999_999 })).statusCode).toBe(404)

    const agent1 = await signedIn(t.app, 'agent1')
    expect((await agent1.post(simulatePath, RATES_BODY)).statusCode).toBe(403)
  })
})
