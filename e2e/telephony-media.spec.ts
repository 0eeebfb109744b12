import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import type { DashboardToday } from '../contract/api/dashboard.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startBaresip, type Baresip } from './telephony/baresip.ts'
import { CAPTURE_PEER_CONNECTIONS, expectAudioFlowing } from './telephony/webrtc.ts'

// The media app end to end (issue 16), with the real engines the e2e server spawns: a customer (baresip as the demo
// trunk) calls the main number, hears the demo IVR (espeak-ng prompts: its decoded-audio dump is checked for energy),
// presses 1 (RFC 2833), waits in the support queue hearing its music while no agent is signed in, and agent2 signs
// in with Chromium, is rung by the queue with the customer's number, answers (audio both ways: WebRTC stats on the
// agent's side, baresip's dump on the customer's), and the customer hangs up. Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 150_000 })

type Account = { username: string; password: string }

async function apiAs(browser: Browser, account: Account) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const csrf = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
  const send = async (method: 'GET' | 'POST' | 'PATCH', path: string, data?: unknown) => {
    const response = await request.fetch(path, { method, data, headers: { 'X-CSRFToken': await csrf() } })
    const text = await response.text()
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  await send('POST', '/api/session/login/', account)
  return { send, close: () => context.close() }
}
type Api = Awaited<ReturnType<typeof apiAs>>

async function entityId(api: Api, path: string, description: string, field = 'description') {
  const list = (await api.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }
  const row = list.results.find((item) => item[field] === description)
  if (!row) throw new Error(`${path}: no ${description}`)
  return row.id as number
}

/** The customer's number (baresip's SIP user). */
const CUSTOMER = '5511987654321'
/** The demo's main number: inbound route → "URA principal" (1 → Suporte, 2 → Vendas). */
const MAIN_DID = '551130000000'

let admin: Api
let supervisor: Api
let trunk: Baresip
let agent2: { context: BrowserContext; page: Page } | null = null

/** The samples (8 kHz, 16-bit) of the newest decoded-audio dump baresip is writing, after the 44-byte header. */
function liveDump(known: string[]): Int16Array {
  const fresh = trunk
    .heard()
    .map((f) => f.file)
    .filter((f) => !known.includes(f))
    .map((f) => join(trunk.recordings, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  if (!fresh) return new Int16Array(0)
  const bytes = readFileSync(fresh).subarray(44)
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)))
}

function rms(samples: Int16Array): number {
  let sum = 0
  for (const s of samples) sum += s * s
  return samples.length ? Math.sqrt(sum / samples.length) : 0
}

test.beforeAll(async ({ browser }) => {
  admin = await apiAs(browser, DEMO.admin)
  supervisor = await apiAs(browser, DEMO.supervisor)
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  // Only agent2 takes the support queue, and agent2 is not signed in yet: the caller has to wait.
  const queue = await entityId(admin, apiPath('pabx.queues'), 'Suporte')
  const agent2Id = ((await supervisor.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }).results.find(
    (row) => row.username === 'agent2',
  )!.user
  await admin.send('PATCH', `${apiPath('pabx.queues')}${queue}/`, { members: [{ user: agent2Id, penalty: 0 }] })
  trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: CUSTOMER,
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
})

test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) console.log(`baresip:\n${trunk?.log().slice(-4000)}`)
})

test.afterAll(async () => {
  await agent2?.context.close()
  await admin?.close()
  await supervisor?.close()
  await trunk?.stop()
})

test('a customer calls the main number, hears the IVR, presses 1, waits with music, the queue rings agent2 in Chromium with the customer, agent2 answers and they talk', async ({ browser }) => {
  const known = trunk.heard().map((f) => f.file)
  await trunk.dial(`sip:${MAIN_DID}@127.0.0.1:${E2E_SIP_PORT}`)
  // The IVR's greeting (spoken by espeak-ng into the demo's prompts): two seconds with energy.
  await expect.poll(() => liveDump(known).length / 8000, { timeout: 20_000, message: 'seconds of the IVR heard' }).toBeGreaterThan(2)
  const greeting = liveDump(known)
  expect(rms(greeting.subarray(0, 2 * 8000)), 'the IVR greeting is not silence').toBeGreaterThan(200)

  // Key 1 (RFC 2833): the support queue, where nobody is signed in — music and announcements while waiting.
  expect((await trunk.command('sndcode', '1')).ok).toBe(true)
  const atKey = liveDump(known).length
  await expect.poll(() => (liveDump(known).length - atKey) / 8000, { timeout: 20_000, message: 'seconds heard in the queue' }).toBeGreaterThan(5)
  const waiting = liveDump(known).subarray(atKey + 8000)
  expect(rms(waiting), 'the queue music is not silence').toBeGreaterThan(200)

  // agent2 signs in: the webphone registers (the team's auto login) and the queue rings it with the waiting customer.
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  await context.addInitScript(CAPTURE_PEER_CONNECTIONS)
  const page = await context.newPage()
  agent2 = { context, page }
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.log(`[agent2] ${message.text()}`)
  })
  await signIn(page, DEMO.agent2)
  await expect(page.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  const ringing = page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 30_000 })
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText(CUSTOMER)
  await shot(page, 'webphone-ringing-from-queue-pt-BR')
  // The server's count of agent2's day: the call is not answered yet.
  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
  const myDay = async () =>
    ((await (await page.request.get(`/api/v1/dashboard/today/?scope=me&tz=${encodeURIComponent(tz)}`)).json()) as DashboardToday).calls
  const before = await myDay()

  // agent2 answers: the webphone shows the connected call; each side hears the other (the webphone's inbound audio,
  // and baresip's dump of what it heard: Chromium's fake microphone beeps, the queue's music has stopped).
  const answeredAt = Date.now()
  await ringing.getByTestId('webphone-ringing-answer').click()
  if ((await page.getByTestId('webphone-panel').count()) === 0) await page.getByTestId('webphone-button').click()
  const ready = page.getByTestId('webphone-ready')
  await expect(ready.getByTestId('webphone-call-status')).toHaveText('Em ligação', { timeout: 10_000 })
  const atAnswer = liveDump(known).length
  await expectAudioFlowing(page)
  await expect(ready.getByTestId('webphone-call-timer')).toHaveText(/00:00:0[2-9]/, { timeout: 10_000 })
  await expect.poll(() => (liveDump(known).length - atAnswer) / 8000, { timeout: 10_000, message: 'seconds heard from the agent' }).toBeGreaterThan(3)
  const talking = liveDump(known).subarray(atAnswer + 8000)
  console.log(`rms: IVR ${rms(greeting.subarray(0, 2 * 8000)).toFixed(0)}, queue ${rms(waiting).toFixed(0)}, agent ${rms(talking).toFixed(0)}`)
  expect(rms(talking), "the agent's microphone reaches the customer").toBeGreaterThan(100)
  await shot(page, 'webphone-connected-from-queue-pt-BR')

  // The customer hangs up: the webphone's call ends and the server counts the call answered by agent2.
  await trunk.hangup()
  const talked = (Date.now() - answeredAt) / 1000
  await expect(ready.getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
  // The same call (counted while it rang) now answered, once: the media app's bridge leg counts under the caller's
  // call (server/reports/call-key.ts), and its talk time once.
  await expect.poll(async () => (await myDay()).inbound_answered, { timeout: 15_000, message: "agent2's answered inbound calls" }).toBe(before.inbound_answered + 1)
  const after = await myDay()
  console.log(`agent2's day: before ${JSON.stringify({ ...before, hours: undefined })}, after ${JSON.stringify({ ...after, hours: undefined })}, talked ${talked.toFixed(1)} s`)
  expect(after.inbound).toBe(before.inbound)
  expect(after.talk_seconds - before.talk_seconds).toBeGreaterThanOrEqual(1)
  expect(after.talk_seconds - before.talk_seconds).toBeLessThanOrEqual(Math.ceil(talked) + 1)
})
