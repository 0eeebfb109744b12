import { expect, test } from '@playwright/test'
import type { BrowserContext, Page } from '@playwright/test'
import { dialerPaths } from '../contract/api/dialer.ts'
import type { CampaignProgress } from '../contract/api/dialer.ts'
import { apiPath } from '../contract/entities/keys.ts'
import { apiAs } from './chat-helpers.ts'
import { E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startSipCarrier } from './telephony/sip-carrier.ts'
import type { CarrierOutcome, SipCarrier } from './telephony/sip-carrier.ts'

// Issue 18 with the real engines: a progressive campaign of 20 leads. The campaign runner asks the media app to call
// each lead; its INVITE goes through Kamailio and the demo route's trunk to a small SIP carrier (telephony/sip-carrier.ts)
// that answers by the number dialled: it answers some, rings others out (the campaign's 5 s dial time cancels them:
// 480) and answers busy (486) to the rest. agent1 and agent2, members of the campaign's queue, signed in in Chromium,
// get the answered customers with the lead's name, talk until the call's timer moves past the campaign's inactivation
// by duration, and hang up. In the end every lead was dialled once, and its status, attempts and call record's dial
// status match what the carrier did. Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 240_000 })

type Api = Awaited<ReturnType<typeof apiAs>>

async function entityId(api: Api, path: string, description: string, field = 'description') {
  const list = (await api.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }
  const row = list.results.find((item) => item[field] === description)
  if (!row) throw new Error(`${path}: no ${description}`)
  return row.id as number
}

const LEADS = 20
/** Landlines (the demo route's +55XXXXXXXXXX pattern), `+5511336601NN`. */
const phoneOf = (n: number) => `+5511336601${String(n).padStart(2, '0')}`
const nameOf = (n: number) => `Cliente ${String(n).padStart(2, '0')}`
/** What the carrier does with lead n: answer (n % 4 is 0 or 1: ten leads), busy (n % 4 = 2), ring out (n % 4 = 3). */
const outcomeOf = (n: number): CarrierOutcome => (n % 4 === 2 ? 'busy' : n % 4 === 3 ? 'ringout' : 'answer')
const numberOf = (dialled: string) => Number(dialled.slice(-2))
const ANSWERED = Array.from({ length: LEADS }, (_, i) => i + 1).filter((n) => outcomeOf(n) === 'answer').length

let admin: Api
let carrier: SipCarrier
let campaign = 0
const agents: Record<'agent1' | 'agent2', { context: BrowserContext; page: Page }> = {} as never
const leads = new Map<number, number>()
/** What each agent saw ringing: the name and phone in the ringing dialog. */
const taken: Array<{ agent: string; name: string; phone: string }> = []

test.beforeAll(async ({ browser }) => {
  admin = await apiAs(browser, DEMO.admin)
  // The demo route's trunk (the one the campaign takes: no route named, the first whose patterns match) points at the carrier.
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  carrier = await startSipCarrier({
    port: E2E_TRUNK_PORT,
    rtpPorts: [E2E_TRUNK_PORT + 30_000, E2E_TRUNK_PORT + 30_099],
    plan: (dialled) => outcomeOf(numberOf(dialled)),
  })
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  const users = (await admin.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }
  const idOf = (username: string) => users.results.find((row) => row.username === username)!.user
  const queue = (await admin.send('POST', apiPath('pabx.queues'), {
    description: 'Discador progressivo e2e',
    strategy: 'leastrecent',
    ring_time: 20,
    members: [
      { user: idOf('agent1'), penalty: 0 },
      { user: idOf('agent2'), penalty: 0 },
    ],
  })) as { id: number }
  const mailing = (await admin.send('POST', apiPath('crm.mailings'), { description: 'Progressivo e2e' })) as { id: number }
  for (let n = 1; n <= LEADS; n++) {
    const row = (await admin.send('POST', apiPath('crm.leads'), { mailing: mailing.id, name: nameOf(n), phones: phoneOf(n) })) as { id: number }
    leads.set(n, row.id)
  }
  campaign = (
    (await admin.send('POST', apiPath('service.shipments-campaigns'), {
      description: 'Cobrança progressiva',
      mailings: [mailing.id],
      mode: 'progressive',
      queue: queue.id,
      caller_id: '1140001234',
      // One try each within the test: busy and unanswered leads wait far longer than it runs.
      max_attempts: 3,
      min_interval: 1000,
      dial_time: 5,
      inactivate_by_duration: 1,
    })) as { id: number }
  ).id
  for (const account of [DEMO.agent1, DEMO.agent2]) {
    const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
    const page = await context.newPage()
    await signIn(page, account)
    await expect(page.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
    agents[account.username as 'agent1' | 'agent2'] = { context, page }
  }
})

test.afterAll(async () => {
  await admin?.send('POST', dialerPaths.command(campaign, 'stop')).catch(() => {})
  for (const agent of Object.values(agents)) await agent.context.close()
  await admin?.close()
  await carrier?.stop()
})

async function openPanel(page: Page) {
  if ((await page.getByTestId('webphone-panel').count()) === 0) await page.getByTestId('webphone-button').click()
  await expect(page.getByTestId('webphone-panel')).toBeVisible()
}

/** An agent answers every dialer call that rings, talks past the inactivation by duration (1 s), hangs up. */
async function takeCalls(username: 'agent1' | 'agent2', done: () => boolean) {
  const page = agents[username].page
  const ringing = page.getByTestId('webphone-ringing')
  while (!done()) {
    if (!(await ringing.isVisible())) {
      await ringing.waitFor({ state: 'visible', timeout: 1000 }).catch(() => {})
      continue
    }
    const name = (await ringing.getByTestId('webphone-ringing-name').textContent()) ?? ''
    const phone = (await ringing.getByTestId('webphone-ringing-phone').textContent()) ?? ''
    if (taken.length === 0) await shot(page, 'dialer-progressive-ringing-pt-BR')
    taken.push({ agent: username, name, phone })
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expect(ringing).toHaveCount(0)
    await openPanel(page)
    const ready = page.getByTestId('webphone-ready')
    await expect(ready.getByTestId('webphone-call-status')).toHaveText('Em ligação', { timeout: 10_000 })
    // Talked 2 s by the call's own timer (the campaign inactivates a lead answered for 1 s or more).
    await expect(ready.getByTestId('webphone-call-timer')).toHaveText(/00:00:0[2-9]/, { timeout: 10_000 })
    await page.getByTestId('webphone-hangup').first().click()
    await expect(ready.getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
  }
}

test("20 leads: the carrier answers, rings out or is busy; two agents take the answered ones with the lead's name; the database matches", async () => {
  await admin.send('POST', dialerPaths.command(campaign, 'start'))
  const progress = async () => (await admin.send('GET', dialerPaths.progress(campaign))) as CampaignProgress
  const finished = () => taken.length >= ANSWERED
  await Promise.all([takeCalls('agent1', finished), takeCalls('agent2', finished)])
  // Every lead tried, no line left in use.
  await expect.poll(async () => (await progress()).leads_dialled, { timeout: 60_000 }).toBe(LEADS)
  await expect.poll(async () => (await progress()).lines_in_use, { timeout: 30_000 }).toBe(0)
  await expect.poll(() => carrier.active(), { timeout: 15_000 }).toBe(0)
  const finalProgress = await progress()
  expect(finalProgress).toMatchObject({ leads_total: LEADS, leads_dialled: LEADS, leads_answered: ANSWERED, abandoned: 0 })

  // The carrier saw each number once, and did with it what the plan says.
  expect(carrier.calls.map((call) => numberOf(call.number)).sort((a, b) => a - b)).toEqual(Array.from({ length: LEADS }, (_, i) => i + 1))
  // Both agents took calls, each with the lead's name and number.
  expect(new Set(taken.map((t) => t.agent))).toEqual(new Set(['agent1', 'agent2']))
  expect(taken.map((t) => t.name).sort()).toEqual(
    Array.from({ length: LEADS }, (_, i) => i + 1)
      .filter((n) => outcomeOf(n) === 'answer')
      .map(nameOf),
  )
  for (const t of taken) expect(t.phone, t.name).toBe(phoneOf(Number(t.name.slice(-2))))

  for (const call of carrier.calls) {
    const n = numberOf(call.number)
    const lead = (await admin.send('GET', `${apiPath('crm.leads')}${leads.get(n)}/`)) as { attempts: number; status: string }
    const expected = { answer: { status: 'done', dial: 200 }, busy: { status: 'pending', dial: 486 }, ringout: { status: 'pending', dial: 480 } }[call.outcome]
    expect(lead, `lead ${n} (${call.outcome})`).toMatchObject({ attempts: 1, status: expected.status })
    const records = (await admin.send('GET', `/api/v1/report/calls/?search=${phoneOf(n).slice(-8)}&limit=5`)) as {
      results: { call_type: number; dial_status: number | null; call_id: string }[]
    }
    const record = records.results.find((row) => row.call_id === call.callId)
    expect(record, `lead ${n}'s call record`).toMatchObject({ call_type: 12, dial_status: expected.dial })
    // Ring-outs were cancelled by the dialer after the dial time, answered calls ended by the agent (through the app).
    if (call.outcome !== 'busy') expect(call.endedBy).toBe('caller')
  }
  await admin.send('POST', dialerPaths.command(campaign, 'stop'))
})
