import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startBaresip, type Baresip } from './telephony/baresip.ts'

// Voicemail end to end (issue 16, "an agent transfers a caller to voicemail; the voicemail shows in the top bar and
// plays"), with the real engines the e2e server spawns: a voicemail box owned by agent1's extension (made here over
// the API: the demo seeds none) and a DID to agent1's extension; the customer (baresip as the demo trunk, playing its
// 440 Hz tone as its voice) calls it, agent1 answers in Chromium and sends the customer to the box with a blind
// transfer picked in the webphone's destination picker; the customer hears the greeting and the tone and speaks, hangs
// up; agent1's bell shows the message, which plays in the browser and is marked heard. Run with `npm run build` first.

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

/** The row of `path` described `description`, made with `body` when missing (the e2e server's database is fresh: this only keeps a rerun on it from failing). */
async function ensure(path: string, description: string, body: Record<string, unknown>): Promise<number> {
  try {
    return await entityId(admin, path, description)
  } catch {
    return ((await admin.send('POST', path, body)) as { id: number }).id
  }
}

/** The samples (8 kHz, 16-bit) of the newest decoded-audio dump baresip writes that is not in `known`, past its header. */
function liveDump(known: string[]): Int16Array {
  const newest = readdirSync(trunk.recordings)
    .filter((file) => file.endsWith('.wav') && file.includes('dec') && !known.includes(file))
    .map((file) => join(trunk.recordings, file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  if (!newest) return new Int16Array(0)
  const bytes = readFileSync(newest).subarray(44)
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)))
}

/** The customer's number (baresip's SIP user). */
const CUSTOMER = '5511987654321'
/** A DID made here: an inbound route straight to agent1's extension. */
const AGENT1_DID = '551130000101'
const BOX = 'Correio do agente 1 (e2e)'

let admin: Api
let trunk: Baresip
let agent1: { context: BrowserContext; page: Page } | null = null

type VoicemailRow = { id: number; phone: string; caller: string; duration: number; heard_at?: string | null }

async function unheard(page: Page): Promise<{ unheard: number; results: VoicemailRow[] }> {
  const response = await page.request.get('/api/v1/pabx/voicemail-messages/?heard=false')
  expect(response.ok()).toBe(true)
  return (await response.json()) as { unheard: number; results: VoicemailRow[] }
}

test.beforeAll(async ({ browser }) => {
  admin = await apiAs(browser, DEMO.admin)
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  // agent1's own box: its extension names it (README "Voicemail": the box's owners are the extensions naming it).
  const box = { id: await ensure(apiPath('pabx.voicemails'), BOX, { description: BOX, mailbox: '10001' }) }
  const device = await entityId(admin, apiPath('pabx.devices'), '10001', 'username')
  await admin.send('PATCH', `${apiPath('pabx.devices')}${device}/`, { voicemail: box.id })
  // A DID straight to agent1's extension.
  const route = {
    id: await ensure(apiPath('pabx.inbound-routes'), 'Linha direta do agente 1 (e2e)', {
      description: 'Linha direta do agente 1 (e2e)',
      destination: { app: 'pjsip', appdata: device },
    }),
  }
  await ensure(apiPath('pabx.numbers'), 'Agente 1 (e2e)', { number: AGENT1_DID, description: 'Agente 1 (e2e)', trunk: trunkId, inbound_route: route.id })
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
  await agent1?.context.close()
  await admin?.close()
  await trunk?.stop()
})

test('agent1 transfers a customer to voicemail: the customer leaves a message, which shows in the bell and plays', async ({ browser }) => {
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const page = await context.newPage()
  agent1 = { context, page }
  page.on('console', (message) => {
    if (message.type() === 'error') console.log(`[agent1] ${message.text()}`)
  })
  await signIn(page, DEMO.agent1)
  const widget = page.getByTestId('webphone-button')
  await expect(widget).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  expect((await unheard(page)).unheard).toBe(0)
  // The bell's count before (the welcome notification may be in it).
  const bell = page.getByTestId('notifications')
  const count = async () => Number((await bell.textContent())?.replace(/\D/g, '') || 0)
  const initial = await count()

  // The customer calls agent1's DID; agent1 answers.
  await trunk.dial(`sip:${AGENT1_DID}@127.0.0.1:${E2E_SIP_PORT}`)
  const ringing = page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 20_000 })
  await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText(CUSTOMER)
  await ringing.getByTestId('webphone-ringing-answer').click()
  if ((await page.getByTestId('webphone-panel').count()) === 0) await widget.click()
  const callStatus = page.getByTestId('webphone-ready').getByTestId('webphone-call-status')
  await expect(callStatus).toHaveText('Em ligação', { timeout: 15_000 })

  // Blind transfer to agent1's box, picked in the destination picker (the voicemail app and the box).
  await page.getByTestId('webphone-transfer').click()
  await page.getByTestId('webphone-transfer-blind').click()
  await page.getByRole('combobox', { name: 'Transferir para' }).click()
  await page.getByRole('option', { name: 'Correio de voz' }).click()
  await page.getByRole('combobox', { name: 'Destino' }).click()
  await page.getByRole('option', { name: BOX }).click()
  await shot(page, 'webphone-transfer-voicemail-pt-BR')
  const before = readdirSync(trunk.recordings)
  await page.getByTestId('webphone-transfer-send').click()
  await expect(page.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })

  // The customer's phone follows the REFER to the box: it hears the greeting and the tone (a fresh dump with sound)
  // until the box goes quiet to record (the dump stops growing between two polls half a second apart).
  // (The dump's header is written when the call closes: what was heard so far is read past it, as it grows.)
  const fresh = () => liveDump(before)
  await expect.poll(() => fresh().length / 8000, { timeout: 20_000, message: 'seconds the customer heard at the box' }).toBeGreaterThan(1.5)
  expect(Math.max(...fresh().map(Math.abs)), 'the greeting and the tone are not silence').toBeGreaterThan(1000)
  let last = -1
  await expect
    .poll(
      () => {
        const now = fresh().length
        const still = now === last
        last = now
        return still
      },
      { timeout: 20_000, intervals: [500], message: 'the box is recording (nothing more heard)' },
    )
    .toBe(true)
  // The customer speaks (its 440 Hz tone) for three seconds: the length of the message, not a wait.
  await page.waitForTimeout(3000)
  await trunk.hangup()

  // agent1 is told at once (the service socket's voicemail frame: a toast) and the bell counts the new message and
  // lists it with its player. (The webphone panel, still open since the call, is closed first.)
  await expect(page.getByText('Novo recado no correio de voz')).toBeVisible({ timeout: 20_000 })
  await expect.poll(count, { timeout: 10_000 }).toBe(initial + 1)
  if ((await page.getByTestId('webphone-panel').count()) > 0) await widget.click()
  await expect(page.getByTestId('webphone-panel')).toHaveCount(0)
  const [message] = (await unheard(page)).results
  expect(message?.phone || message?.caller).toContain(CUSTOMER)
  expect(message!.duration).toBeGreaterThanOrEqual(2)
  await bell.click()
  const item = page.locator(`[data-voicemail="${message!.id}"]`)
  await expect(item).toBeVisible()
  await expect(item).toContainText(`Recado de ${CUSTOMER}`)
  await expect(item).toContainText(BOX)
  await shot(page, 'voicemail-notification-pt-BR')

  // It plays: the player loads the message's audio and its time runs.
  const audio = item.locator('audio')
  await expect(audio).toHaveAttribute('src', /\/api\/v1\/pabx\/voicemail-messages\/\d+\/audio\//)
  await audio.evaluate((element: HTMLAudioElement) => element.play())
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.duration || 0), { timeout: 15_000 }).toBeGreaterThan(1)
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5)
  await shot(page, 'voicemail-playing-pt-BR')

  // Marked heard: it leaves the bell and the unheard list.
  await audio.evaluate((element: HTMLAudioElement) => element.pause())
  await item.getByText('Marcar como ouvido').click()
  await expect(item).toHaveCount(0, { timeout: 10_000 })
  await expect.poll(async () => (await unheard(page)).unheard, { timeout: 10_000 }).toBe(0)
})
