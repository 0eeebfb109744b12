import { expect, test } from '@playwright/test'
import type { BrowserContext, Page } from '@playwright/test'
import { dialerPaths } from '../contract/api/dialer.ts'
import { apiPath } from '../contract/entities/keys.ts'
import { apiAs } from './chat-helpers.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startBaresip, type Baresip } from './telephony/baresip.ts'

// Issue 18 item 2 in a real browser against the real engines: a preview campaign of two leads; agent1, a member of
// its queue, sees the first lead in the top bar, skips it, calls the second with one click — the webphone dials the
// lead's number through the demo route and trunk (baresip answers as that number) — and the lead's attempt and the
// call's type 18 are recorded. Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 120_000 })

type Api = Awaited<ReturnType<typeof apiAs>>

async function entityId(api: Api, path: string, description: string, field = 'description') {
  const list = (await api.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }
  const row = list.results.find((item) => item[field] === description)
  if (!row) throw new Error(`${path}: no ${description}`)
  return row.id as number
}

// Landlines (a mobile number would be stored with Brazil's ninth digit, which the trunk's aliases would then need).
const FIRST = { name: 'Lívia Pulada', phone: '+551133650001' }
const SECOND = { name: 'Otávio Chamado', phone: '+551133650002' }
let admin: Api
let agent: { context: BrowserContext; page: Page }
let trunk: Baresip
let campaign = 0
const leads: number[] = []

test.beforeAll(async ({ browser }) => {
  admin = await apiAs(browser, DEMO.admin)
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  // The lead's call would otherwise be followed by the demo team's after-service (not what this spec is about).
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  const users = (await admin.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }
  const agent1Id = users.results.find((row) => row.username === 'agent1')!.user
  const queue = (await admin.send('POST', apiPath('pabx.queues'), {
    description: 'Preview e2e',
    strategy: 'ringall',
    members: [{ user: agent1Id, penalty: 0 }],
  })) as { id: number }
  const mailing = (await admin.send('POST', apiPath('crm.mailings'), { description: 'Preview e2e' })) as { id: number }
  for (const lead of [FIRST, SECOND]) {
    const row = (await admin.send('POST', apiPath('crm.leads'), { mailing: mailing.id, name: lead.name, phones: lead.phone })) as { id: number }
    leads.push(row.id)
  }
  campaign = (
    (await admin.send('POST', apiPath('service.shipments-campaigns'), {
      description: 'Renovação preview',
      mailings: [mailing.id],
      mode: 'preview',
      queue: queue.id,
      preview_countdown: 0,
      min_interval: 30,
    })) as { id: number }
  ).id
  await admin.send('POST', dialerPaths.command(campaign, 'start'))
  trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: '5511900000099',
    aliases: [FIRST.phone, SECOND.phone],
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const page = await context.newPage()
  await signIn(page, DEMO.agent1)
  agent = { context, page }
  await expect(page.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
})

test.afterAll(async () => {
  await admin?.send('POST', dialerPaths.command(campaign, 'stop')).catch(() => {})
  await agent?.context.close()
  await admin?.close()
  await trunk?.stop()
})

test('a preview lead in the top bar: skipped, the next one called with one click, its attempt and type 18 recorded', async () => {
  const page = agent.page
  const card = page.getByTestId('preview-lead')
  await expect(card).toBeVisible({ timeout: 20_000 })
  await expect(card).toContainText(FIRST.name)
  await expect(card.getByTestId('preview-lead-detail')).toContainText(FIRST.phone)
  // Nothing in the bar is pushed out of the window by the card.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await shot(page, 'dialer-preview-lead-pt-BR')
  // Skipped: the next lead takes its place, never the same one again.
  await card.getByTestId('preview-lead-skip').click()
  await expect(card).toContainText(SECOND.name, { timeout: 20_000 })
  await card.getByTestId('preview-lead-call').click()
  await expect(page.getByTestId('webphone-call-label')).toBeVisible({ timeout: 15_000 })
  await expect(page.getByTestId('agent-status')).toContainText('Em ligação', { timeout: 15_000 })
  await expect(card).toHaveCount(0)
  await page.getByTestId('webphone-button').click()
  await page.getByTestId('webphone-hangup').first().click()
  await expect(page.getByTestId('webphone-call-label')).toHaveCount(0, { timeout: 15_000 })
  // The lead holds the try; the call is a preview call (type 18) of that lead.
  await expect
    .poll(async () => ((await admin.send('GET', `${apiPath('crm.leads')}${leads[1]}/`)) as { attempts: number }).attempts, { timeout: 15_000 })
    .toBe(1)
  expect(((await admin.send('GET', `${apiPath('crm.leads')}${leads[0]}/`)) as { attempts: number }).attempts).toBe(0)
  const calls = (await admin.send('GET', `/api/v1/report/calls/?search=33650002&limit=5`)) as { results: { call_type: number }[] }
  expect(calls.results.map((row) => row.call_type)).toContain(18)
  // Nothing else is due: no card while the skipped lead waits its interval.
  await expect(card).toHaveCount(0)
})
