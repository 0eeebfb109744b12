import { execFileSync } from 'node:child_process'
import { createSocket } from 'node:dgram'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { E2E_SIP_PORT, E2E_TELEPHONY_ENV, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn } from './helpers.ts'
import { startBaresip, wavLevel, type Baresip } from './telephony/baresip.ts'
import { audioStats, CAPTURE_PEER_CONNECTIONS, expectAudioFlowing } from './telephony/webrtc.ts'

// The webphone in a real browser against the real engines (Kamailio + rtpengine spawned by the e2e server on the ports
// of e2e/env.ts): two browser contexts are two agents; a baresip (e2e/telephony/baresip.ts) is the outside world — the
// demo trunk (moved to E2E_TRUNK_PORT; it answers the numbers dialled out, calls the support DID, and follows REFERs
// through Kamailio as its outbound proxy). Audio is checked where it is heard: RTCPeerConnection stats in the browsers
// (the test wraps the constructor with an init script: nothing in the product exposes its peer connections),
// baresip's WAV dump, rtpengine's DTMF log and the recording's mp3. Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 120_000 })

type Account = { username: string; password: string }

/** An API session of its own (cookie jar) with the CSRF header the server asks of cookie sessions. */
async function apiAs(browser: Browser, account: Account) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const csrf = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, data?: unknown) => {
    const response = await request.fetch(path, { method, data, headers: { 'X-CSRFToken': await csrf() } })
    const text = await response.text()
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  const raw = async (path: string) => request.get(path)
  await send('POST', '/api/session/login/', account)
  return { send, raw, close: () => context.close() }
}
type Api = Awaited<ReturnType<typeof apiAs>>

/** Every RTCPeerConnection the page makes, kept on window for the stats below (test-only, from the outside). */
async function agentPage(browser: Browser, account: Account): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  await context.addInitScript(CAPTURE_PEER_CONNECTIONS)
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.log(`[${account.username}] ${message.text()}`)
  })
  await signIn(page, account)
  return { context, page }
}

const widget = (page: Page) => page.getByTestId('webphone-button')

async function openPanel(page: Page) {
  if ((await page.getByTestId('webphone-panel').count()) === 0) await widget(page).click()
  await expect(page.getByTestId('webphone-panel')).toBeVisible()
}

async function dial(page: Page, number: string) {
  await openPanel(page)
  await page.getByTestId('webphone-dialpad').getByRole('textbox').fill(number)
  await page.getByTestId('webphone-dial').click()
}

/** The supervisor's view of each agent's telephony status, polled every 150 ms; consecutive repeats dropped. */
function watchStatuses(api: Api) {
  const seen: Record<string, string[]> = {}
  let running = true
  const loop = (async () => {
    while (running) {
      const list = (await api.send('GET', '/api/v1/agent/status/').catch(() => null)) as {
        results: { username: string; telephony_status: string | null }[]
      } | null
      for (const row of list?.results ?? []) {
        const history = (seen[row.username] ??= [])
        const status = row.telephony_status ?? 'null'
        if (history.at(-1) !== status) history.push(status)
      }
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
  })()
  return {
    of: (username: string) => seen[username] ?? [],
    stop: async () => {
      running = false
      await loop
    },
  }
}

/** rtpengine's DTMF log (JSON datagrams to DTMF_LOG_PORT): the e2e server itself does not listen there. */
function listenDtmf() {
  const events: { event: string; callId: string }[] = []
  // reuseAddr: the media app listens there too (both sockets share the port; the later bound hears the tones).
  const socket = createSocket({ type: 'udp4', reuseAddr: true })
  socket.on('message', (data) => {
    try {
      // One datagram per tone: {"callid", "event": 0-9 | 10 (*) | 11 (#), "duration", "source_ip", …}.
      const json = JSON.parse(String(data)) as { callid?: string; event?: number }
      events.push({ event: String(json.event === 10 ? '*' : json.event === 11 ? '#' : json.event), callId: String(json.callid ?? '') })
    } catch {
      events.push({ event: String(data), callId: '' })
    }
  })
  socket.bind(Number(E2E_TELEPHONY_ENV.DTMF_LOG_PORT), '127.0.0.1')
  return { events, close: () => socket.close() }
}

const callStatus = (page: Page) => page.getByTestId('webphone-ready').getByTestId('webphone-call-status')

async function hangUp(page: Page) {
  await openPanel(page)
  await page.getByTestId('webphone-hangup').first().click()
}

/** Calls of the signed-in user (API session of the page), newest first. */
async function callsOf(page: Page, search: string) {
  const response = await page.request.get(`/api/v1/report/calls/?search=${encodeURIComponent(search)}`)
  expect(response.ok()).toBe(true)
  return (
    (await response.json()) as {
      results: {
        call_id: string
        total_answer_duration: number | null
        phone: string
        endpoint: string
        queue_description: string
        recording: boolean
        dial_status: number | null
      }[]
    }
  ).results
}

/** Waits until the page's webphone has no call left (the panel shows no call list). */
async function expectNoCalls(page: Page) {
  await expect(page.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
}

/**
 * baresip dumped what it heard on a call after `before` (its WAV is complete once the call closed): over 1.5 s, loud.
 * The longest fresh dump counts: a short leg that ended meanwhile (the customer's call with the transferring agent)
 * may have started writing after `before` too.
 */
async function expectTrunkHeard(before: string[]) {
  const longest = () =>
    trunk
      .heard()
      .filter((file) => !before.includes(file.file))
      .sort((a, b) => b.seconds - a.seconds)[0]
  await expect.poll(() => longest()?.seconds ?? 0, { timeout: 10_000, message: 'seconds baresip heard' }).toBeGreaterThan(1.5)
  expect(longest()!.peak, 'peak level baresip heard').toBeGreaterThan(1000)
}

let supervisor: Api
let admin: Api
let agent1: { context: BrowserContext; page: Page }
let agent2: { context: BrowserContext; page: Page }
let trunk: Baresip
/** The customer's number: baresip's SIP user, which the DID call shows as the caller. */
const CUSTOMER = '5511987654321'
/** An outside number the demo route takes (pattern 0XXXXXXXXXX). */
const OUTSIDE = '01187654321'
/** The demo's direct support line (DID → the support queue, no media app). */
const SUPPORT_DID = '551130000001'
let outboundCallId = ''
let internalCallId = ''

async function entityId(api: Api, path: string, description: string, field = 'description') {
  const list = (await api.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }
  const row = list.results.find((item) => item[field] === description)
  if (!row) throw new Error(`${path}: no ${description}`)
  return row.id as number
}

test.beforeAll(async ({ browser }) => {
  supervisor = await apiAs(browser, DEMO.supervisor)
  admin = await apiAs(browser, DEMO.admin)
  // The demo trunk points at this run's baresip; the demo team's after-service (30 s, ended by the after-service
  // screen, another issue) would keep the agents from the next call: off for these tests.
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: CUSTOMER,
    aliases: [OUTSIDE],
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
  agent1 = await agentPage(browser, DEMO.agent1)
  agent2 = await agentPage(browser, DEMO.agent2)
  // Each webphone registers by itself (the demo team's auto login); the widget says so.
  await expect(widget(agent1.page)).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  await expect(widget(agent2.page)).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
})

test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) {
    console.log(`baresip:\n${trunk?.log().slice(-3000)}`)
    const calls = (await supervisor.send('GET', '/api/v1/report/calls/?limit=5').catch((error: unknown) => String(error))) as { results?: unknown[] }
    console.log('calls:', JSON.stringify(calls.results ?? calls).slice(0, 3000))
  }
})

test.afterAll(async () => {
  await agent1?.context.close()
  await agent2?.context.close()
  await supervisor?.close()
  await admin?.close()
  await trunk?.stop()
})

test('agent1 calls agent2 through Kamailio and rtpengine: both hear each other, the call is recorded', async () => {
  await expect(widget(agent1.page)).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  await expect(widget(agent2.page)).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  const statuses = watchStatuses(supervisor)

  await openPanel(agent1.page)
  await shot(agent1.page, 'webphone-dialpad-pt-BR')
  await dial(agent1.page, '10002')
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText('10001')
  await shot(agent2.page, 'webphone-ringing-pt-BR')
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expect(ringing).toHaveCount(0)
  await expectAudioFlowing(agent1.page)
  await expectAudioFlowing(agent2.page)
  await openPanel(agent2.page)
  await expect(callStatus(agent2.page)).toHaveText('Em ligação')
  await shot(agent1.page, 'webphone-in-call-pt-BR')
  // Talk a little: the record's answered duration must show it, and so does the call's timer in the panel.
  await agent1.page.waitForTimeout(2000)
  await openPanel(agent1.page)
  await expect(agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call-timer')).not.toHaveText('00:00:00')
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
  await expectNoCalls(agent2.page)

  await expect.poll(async () => (await callsOf(agent1.page, '10002'))[0]?.total_answer_duration ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
  internalCallId = (await callsOf(agent1.page, '10002'))[0]!.call_id
  await expect.poll(() => statuses.of('agent2').at(-1), { timeout: 10_000 }).toBe('not_inuse')
  await statuses.stop()
  expect(statuses.of('agent2')).toEqual(expect.arrayContaining(['ringing', 'busy']))
  expect(statuses.of('agent2').indexOf('ringing')).toBeLessThan(statuses.of('agent2').indexOf('busy'))
  expect(statuses.of('agent1')).toContain('busy')
  expect(statuses.of('agent1').at(-1)).toBe('not_inuse')
})

test('agent1 calls an outside number through the outbound route: the trunk hears the browser, the browser hears the tone', async () => {
  const before = trunk.heard().map((file) => file.file)
  await dial(agent1.page, OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 15_000 })
  await expectAudioFlowing(agent1.page)
  // Signing out with a call going on leads to the calls page instead, still signed in (spec 000 §4 Logout).
  await menuItem(agent1.page, 'logout').click()
  await agent1.page.getByTestId('logout-confirm').click()
  await expect(agent1.page).toHaveURL(/\/phonecalls/)
  await expect(agent1.page.getByText('Encerre suas chamadas antes de sair.')).toBeVisible()
  await expect(callStatus(agent1.page)).toHaveText('Em ligação')
  await agent1.page.waitForTimeout(1000)
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
  await expectTrunkHeard(before)
  const [call] = await callsOf(agent1.page, OUTSIDE.slice(-8))
  expect(call?.total_answer_duration).toBeGreaterThanOrEqual(2)
  outboundCallId = call!.call_id
})

test("an outside number agent1 dialled hangs up: the trunk's BYE reaches the browser, whose call ends", async () => {
  const statuses = watchStatuses(supervisor)
  await dial(agent1.page, OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 15_000 })
  await expectAudioFlowing(agent1.page)
  await expect.poll(() => statuses.of('agent1').at(-1), { timeout: 10_000 }).toBe('busy')
  // The far end hangs up: Kamailio relays its BYE over the webphone's WebSocket (through the server's /ws/sip proxy).
  await trunk.hangup(OUTSIDE)
  await expectNoCalls(agent1.page)
  await expect.poll(() => statuses.of('agent1').at(-1), { timeout: 10_000 }).toBe('not_inuse')
  await statuses.stop()
})

test('a customer calls the support line: the queue rings agent2, who answers; audio both ways; agent2 hangs up', async () => {
  // The support queue offers its lowest penalty first (agent1): here only agent2 is in it.
  const queue = await entityId(admin, apiPath('pabx.queues'), 'Suporte')
  const agent2Id = ((await supervisor.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }).results.find(
    (row) => row.username === 'agent2',
  )!.user
  await admin.send('PATCH', `${apiPath('pabx.queues')}${queue}/`, { members: [{ user: agent2Id, penalty: 0 }] })
  const before = trunk.heard().map((file) => file.file)

  await trunk.dial(`sip:${SUPPORT_DID}@127.0.0.1:${E2E_SIP_PORT}`)
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText(CUSTOMER)
  // Its display name is its number: shown once.
  await expect(ringing.getByTestId('webphone-ringing-name')).toHaveCount(0)
  await shot(agent2.page, 'webphone-ringing-customer-pt-BR')
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expectAudioFlowing(agent2.page)
  await agent2.page.waitForTimeout(2000)
  await hangUp(agent2.page)
  await expectNoCalls(agent2.page)
  await expectTrunkHeard(before)
  const [call] = await callsOf(agent2.page, CUSTOMER)
  expect(call?.total_answer_duration).toBeGreaterThanOrEqual(2)
  await expectRecordingHeard(call!.call_id)
})

test('a customer calls the support line again and hangs up first: the BYE reaches agent2, whose call ends', async () => {
  const statuses = watchStatuses(supervisor)
  await trunk.dial(`sip:${SUPPORT_DID}@127.0.0.1:${E2E_SIP_PORT}`)
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expectAudioFlowing(agent2.page)
  await expect.poll(() => statuses.of('agent2').at(-1), { timeout: 10_000 }).toBe('busy')
  await trunk.hangup()
  await expectNoCalls(agent2.page)
  await expect.poll(() => statuses.of('agent2').at(-1), { timeout: 10_000 }).toBe('not_inuse')
  await statuses.stop()
})

test('hold silences the held side and DTMF typed in the number box reaches the media engine', async () => {
  const dtmf = listenDtmf()
  try {
    await dial(agent1.page, '10002')
    const ringing = agent2.page.getByTestId('webphone-ringing')
    await expect(ringing).toBeVisible({ timeout: 15_000 })
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expectAudioFlowing(agent2.page)

    // DTMF: typed into the number box while the call is accepted.
    await openPanel(agent1.page)
    const box = agent1.page.getByTestId('webphone-dialpad').getByRole('textbox')
    await box.click()
    await box.pressSequentially('5#', { delay: 400 })
    await expect.poll(() => dtmf.events.map((item) => item.event).join(','), { timeout: 10_000 }).toBe('5,#')

    // Hold: agent1's side shows it, and agent2 hears silence (the energy it receives stops growing).
    await agent1.page.getByTestId('webphone-hold').click()
    await expect(callStatus(agent1.page)).toHaveText('Em espera')
    await agent2.page.waitForTimeout(1500)
    const held = (await audioStats(agent2.page))[0]!
    await agent2.page.waitForTimeout(2500)
    const later = (await audioStats(agent2.page))[0]!
    expect(later.energy - held.energy).toBeLessThan(0.0001)
    await shot(agent1.page, 'webphone-on-hold-pt-BR')

    await agent1.page.getByTestId('webphone-unhold').click()
    await expect(callStatus(agent1.page)).toHaveText('Em ligação')
    await expect.poll(async () => (await audioStats(agent2.page))[0]!.energy, { timeout: 10_000 }).toBeGreaterThan(later.energy + 0.0001)
    await hangUp(agent1.page)
    await expectNoCalls(agent1.page)
    await expectNoCalls(agent2.page)
    // Its record and recording: the DTMF tones belong to this call.
    const [call] = await callsOf(agent1.page, '10002')
    expect(call?.total_answer_duration).toBeGreaterThanOrEqual(4)
    expect(dtmf.events.every((item) => item.callId === call!.call_id)).toBe(true)
    await expectRecordingHeard(call!.call_id)
  } finally {
    dtmf.close()
  }
})

test('a three-party conference: agent1 joins the customer and agent2; agent2 hears the customer through the mix', async () => {
  await dial(agent1.page, OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 15_000 })
  await agent1.page.getByTestId('webphone-hold').click()
  await expect(callStatus(agent1.page)).toHaveText('Em espera')
  await dial(agent1.page, '10002')
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expectAudioFlowing(agent2.page)

  await agent1.page.getByTestId('webphone-conference').click()
  await expect(agent1.page.getByTestId('webphone-conference-call')).toHaveCount(2)
  await shot(agent1.page, 'webphone-conference-pt-BR')
  await agent1.page.getByTestId('webphone-conference-start').click()
  // Both calls talk again (the held one resumed) and agent1's microphone goes silent: what agent2 still hears is the
  // customer's tone, mixed in agent1's browser.
  await expect(agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call-status')).toHaveText(['Em ligação', 'Em ligação'], { timeout: 10_000 })
  await agent1.page.getByTestId('webphone-mute').click()
  await agent2.page.waitForTimeout(1000)
  const before = (await audioStats(agent2.page))[0]!
  await agent2.page.waitForTimeout(2000)
  const after = (await audioStats(agent2.page))[0]!
  expect(after.received - before.received).toBeGreaterThan(50)
  expect(after.energy - before.energy).toBeGreaterThan(0.01)

  await hangUp(agent2.page)
  await expectNoCalls(agent2.page)
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
  const [outside] = await callsOf(agent1.page, OUTSIDE.slice(-8))
  const [inside] = await callsOf(agent1.page, '10002')
  expect(outside?.total_answer_duration).toBeGreaterThanOrEqual(3)
  expect(inside?.total_answer_duration).toBeGreaterThanOrEqual(3)
  await expectRecordingHeard(outside!.call_id)
  await expectRecordingHeard(inside!.call_id)
})

/**
 * agent1 calls the outside number and, once talking, transfers it to agent2 (`attend` consults first, `blind` sends the
 * customer at once); answers agent2's ringing dialog when it shows. `picker` runs while the transfer picker is open.
 */
async function transferOutsideCallToAgent2(type: 'attend' | 'blind', picker?: () => Promise<void>) {
  await dial(agent1.page, OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 15_000 })
  await agent1.page.getByTestId('webphone-transfer').click()
  await picker?.()
  await agent1.page.getByTestId(`webphone-transfer-${type}`).click()
  await agent1.page.getByRole('textbox', { name: 'Destino' }).fill('10002')
  await agent1.page.getByTestId('webphone-transfer-send').click()
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  return ringing
}

test('attended transfer of an outside call: agent1 consults agent2 while the customer waits, then cancels back to the customer', async () => {
  const ringing = await transferOutsideCallToAgent2('attend', () => shot(agent1.page, 'webphone-transfer-pt-BR'))
  await ringing.getByTestId('webphone-ringing-answer').click()
  // The customer waits on hold; the confirm is offered once agent2 answered.
  await expect(agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call-status')).toHaveText(['Em espera', 'Em ligação'], { timeout: 10_000 })
  await expect(agent1.page.getByTestId('webphone-transfer-confirm')).toBeEnabled({ timeout: 10_000 })
  await expectAudioFlowing(agent2.page)
  await shot(agent1.page, 'webphone-transfer-attended-pt-BR')

  await agent1.page.getByTestId('webphone-transfer-cancel').click()
  await expectNoCalls(agent2.page)
  await expect(agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(1, { timeout: 10_000 })
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 10_000 })
  // Back with the customer: the tone flows again.
  const resumed = (await audioStats(agent1.page))[0]!
  await expect.poll(async () => (await audioStats(agent1.page))[0]!.energy, { timeout: 10_000 }).toBeGreaterThan(resumed.energy + 0.001)
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
})

test('attended transfer of an outside call completed: agent1 consults agent2, confirms, and the customer talks to agent2', async () => {
  const ringing = await transferOutsideCallToAgent2('attend')
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expect(agent1.page.getByTestId('webphone-transfer-confirm')).toBeEnabled({ timeout: 10_000 })
  // agent2 talks to agent1 first: the consultation shows agent1's extension.
  await openPanel(agent2.page)
  await expect(agent2.page.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(1)
  await expect(agent2.page.getByTestId('webphone-ready')).toContainText('10001')
  await expectAudioFlowing(agent2.page)

  // What baresip hears on the calls that exist now (the one with agent1) is not the join's.
  const before = trunk.heard().map((file) => file.file)
  await agent1.page.getByTestId('webphone-transfer-confirm').click()
  // The customer's phone follows the REFER to the consultation's join address; agent2's phone swaps the customer in
  // for agent1 without ringing again, and agent1 leaves both calls.
  await expectNoCalls(agent1.page)
  const call = agent2.page.getByTestId('webphone-ready').getByTestId('webphone-call')
  await expect(call).toHaveCount(1)
  await openPanel(agent2.page)
  // The customer is the number agent1 dialled (baresip answers it as its alias, and calls back as it).
  await expect(agent2.page.getByTestId('webphone-ready')).toContainText(OUTSIDE, { timeout: 10_000 })
  await expect(callStatus(agent2.page)).toHaveText('Em ligação')
  await shot(agent2.page, 'webphone-transfer-attended-joined-pt-BR')
  // The customer's tone reaches agent2 on the new leg.
  await expectAudioFlowing(agent2.page)
  await agent2.page.waitForTimeout(2000)
  await hangUp(agent2.page)
  await expectNoCalls(agent2.page)
  // ...and agent2's microphone reached the customer.
  await expectTrunkHeard(before)
  // The records: the customer's join is agent2's, an attended transfer of agent1's outside call.
  const [joined] = await callsOf(agent2.page, OUTSIDE)
  expect(joined?.endpoint).toBe('10002')
  expect(joined?.total_answer_duration).toBeGreaterThan(1)
})

test('blind transfer of an outside call: agent1 sends the customer to agent2, whose webphone rings', async () => {
  // What baresip hears on the calls that exist before the transfer (the one with agent1) is not the new call's.
  let before: string[] = []
  const ringing = await transferOutsideCallToAgent2('blind', async () => void (before = trunk.heard().map((file) => file.file)))
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText(OUTSIDE)
  // agent1 waits for the outcome ('Transferindo a chamada...') while agent2's phone rings.
  await expect(agent1.page.getByTestId('webphone-transferring')).toBeVisible()
  await shot(agent1.page, 'webphone-transferring-pt-BR')
  await ringing.getByTestId('webphone-ringing-answer').click()
  // The customer's side leaves agent1 once agent2 answered; the customer's tone reaches agent2, agent2's voice the customer.
  await expectNoCalls(agent1.page)
  await expectAudioFlowing(agent2.page)
  await agent2.page.waitForTimeout(2000)
  const [call] = await callsOf(agent2.page, OUTSIDE)
  expect(call?.endpoint).toBe('10002')
  await hangUp(agent2.page)
  await expectNoCalls(agent2.page)
  await expectTrunkHeard(before)
  await expectRecordingHeard(call!.call_id)
})

test("agent2 transfers agent1's call to an outside number: agent1's webphone follows the REFER and talks to the trunk", async () => {
  await dial(agent1.page, '10002')
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expectAudioFlowing(agent1.page)
  await openPanel(agent2.page)
  await agent2.page.getByTestId('webphone-transfer').click()
  await agent2.page.getByTestId('webphone-transfer-blind').click()
  await agent2.page.getByRole('textbox', { name: 'Destino' }).fill(OUTSIDE)
  const before = trunk.heard().map((file) => file.file)
  await agent2.page.getByTestId('webphone-transfer-send').click()
  // agent1's phone calls the number itself (the trunk answers at once) and leaves agent2, whose transfer is done.
  await expectNoCalls(agent2.page)
  await openPanel(agent1.page)
  const calls = agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call')
  await expect(calls).toHaveCount(1, { timeout: 15_000 })
  await expect(calls).toContainText(OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação')
  await expectAudioFlowing(agent1.page)
  await agent1.page.waitForTimeout(2000)
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
  await expectTrunkHeard(before)
})

test("blind transfer to a queue picked from agent1's list: the support queue rings agent2 with the customer", async () => {
  await dial(agent1.page, OUTSIDE)
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 15_000 })
  await agent1.page.getByTestId('webphone-transfer').click()
  await agent1.page.getByTestId('webphone-transfer-blind').click()
  await agent1.page.getByRole('combobox', { name: 'Transferir para' }).click()
  await agent1.page.getByRole('option', { name: 'Fila' }).click()
  await agent1.page.getByRole('combobox', { name: 'Destino' }).click()
  await agent1.page.getByRole('option', { name: 'Suporte' }).click()
  await shot(agent1.page, 'webphone-transfer-queue-pt-BR')
  await agent1.page.getByTestId('webphone-transfer-send').click()
  // The support queue's only member (agent2, since the DID test) rings with the customer's number.
  const ringing = agent2.page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText(OUTSIDE)
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expectNoCalls(agent1.page)
  await expectAudioFlowing(agent2.page)
  const [call] = await callsOf(agent2.page, OUTSIDE)
  expect(call?.endpoint).toBe('10002')
  expect(call?.queue_description).toBe('Suporte')
  await hangUp(agent2.page)
  await expectNoCalls(agent2.page)
})

test("an activity with automatic execution is dialled by agent1's webphone when agent1 is available, and done once answered", async () => {
  await openPanel(agent1.page)
  await expectNoCalls(agent1.page)
  const agentId = await entityId(admin, apiPath('business.users'), 'agent1', 'username')
  const subject = `Retorno automático e2e ${Date.now()}`
  const created = (await supervisor.send('POST', '/api/v1/agent/activities/', {
    user: agentId,
    destination: OUTSIDE,
    start: new Date(Date.now() - 60_000).toISOString(),
    subject,
    automatic_execution: true,
  })) as { id: number }
  // The due list comes every 5 s: the dialer attempts it and the webphone calls out (the trunk answers).
  await expect(callStatus(agent1.page)).toHaveText('Em ligação', { timeout: 20_000 })
  await expect(agent1.page.getByTestId('webphone-ready')).toContainText(OUTSIDE)
  await expectAudioFlowing(agent1.page)
  // Answered: done, so it leaves agent1's list; the call record names the activity it worked.
  await expect
    .poll(
      async () => {
        const list = (await (await agent1.page.request.get('/api/v1/agent/activities/?upcoming=true')).json()) as
          { id: number }[] | { results: { id: number }[] }
        return (Array.isArray(list) ? list : list.results).some((activity) => activity.id === created.id)
      },
      { timeout: 10_000 },
    )
    .toBe(false)
  const [call] = await callsOf(agent1.page, OUTSIDE)
  const metadata = (await (await agent1.page.request.get(`/api/v1/service/action/tab-form/${encodeURIComponent(call!.call_id)}/`)).json()) as {
    activity: number | null
  }
  expect(metadata.activity).toBe(created.id)
  await hangUp(agent1.page)
  await expectNoCalls(agent1.page)
  // Done means done: it is not dialled again.
  await agent1.page.waitForTimeout(6000)
  await expect(agent1.page.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0)
})

/** The call's recording, as the supervisor downloads it, decoded: both legs mixed over the ~2 s the call lasted. */
async function expectRecordingHeard(callId: string) {
  expect(callId).not.toBe('')
  const response = await supervisor.raw(`/api/v1/report/recordings/${encodeURIComponent(callId)}/?extension=mp3`)
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toContain('audio/mpeg')
  const mp3 = await response.body()
  const dir = mkdtempSync(join(tmpdir(), 'atende-e2e-rec-'))
  try {
    writeFileSync(join(dir, 'call.mp3'), mp3)
    execFileSync('lame', ['--quiet', '--decode', join(dir, 'call.mp3'), join(dir, 'call.wav')])
    const level = wavLevel(join(dir, 'call.wav'))
    expect(level.seconds).toBeGreaterThan(1.5)
    expect(level.peak).toBeGreaterThan(1000)
    expect(level.rms).toBeGreaterThan(200)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the outside call was recorded: its recording is a non-silent mp3', async () => {
  // The trunk's 440 Hz tone and the browser's fake microphone.
  await expectRecordingHeard(outboundCallId)
})

test('the call between the two agents was recorded too (browser to browser is G.711): a non-silent mp3', async () => {
  // Both fake microphones; the demo extensions record every call.
  await expectRecordingHeard(internalCallId)
})

test('the webphone panel in en-US and es-ES: dialpad, ringing dialog, in-call controls, transfer picker', async () => {
  const texts = {
    'en-US': { prefix: '/en-us', inCall: 'On a call' },
    'es-ES': { prefix: '/es-es', inCall: 'En llamada' },
  } as const
  for (const [locale, { prefix }] of Object.entries(texts)) {
    for (const agent of [agent1, agent2]) {
      await agent.page.goto(`${prefix}/`)
      await expect(widget(agent.page)).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
    }
    await openPanel(agent1.page)
    await shot(agent1.page, `webphone-dialpad-${locale}`)
    await dial(agent1.page, '10002')
    const ringing = agent2.page.getByTestId('webphone-ringing')
    await expect(ringing).toBeVisible({ timeout: 15_000 })
    await shot(agent2.page, `webphone-ringing-${locale}`)
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expect(callStatus(agent1.page)).toHaveText(texts[locale as keyof typeof texts].inCall, { timeout: 10_000 })
    await shot(agent1.page, `webphone-in-call-${locale}`)
    await agent1.page.getByTestId('webphone-transfer').click()
    await expect(agent1.page.getByTestId('webphone-transfer-picker')).toBeVisible()
    await shot(agent1.page, `webphone-transfer-${locale}`)
    await agent1.page.getByTestId('webphone-transfer-back').click()
    await hangUp(agent1.page)
    await expectNoCalls(agent1.page)
    await expectNoCalls(agent2.page)
  }
})
