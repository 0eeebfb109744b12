import { expect, test } from '@playwright/test'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startBaresip, type Baresip } from './telephony/baresip.ts'

// Issue 15 in a real browser against the real engines: a customer (baresip, the demo trunk) calls the support line
// whose queue names a form; agent2 answers, the webphone widens with the form and the classification beside the call;
// the customer hangs up and the after-service counts down on the button while the agent fills the form and classifies
// with a schedule; the callback activity appears. Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 120_000 })

type Account = { username: string; password: string }

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

const CUSTOMER = '5511987654321'
const SUPPORT_DID = '551130000001'
let admin: Api
let agent: { context: BrowserContext; page: Page }
let trunk: Baresip
let supportQueue = 0

test.beforeAll(async ({ browser }) => {
  admin = await apiAs(browser, DEMO.admin)
  const trunkId = await entityId(admin, apiPath('pabx.trunks'), 'Tronco de teste (baresip)')
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const teamId = await entityId(admin, apiPath('service.teams'), 'Equipe Demo', 'name')
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, {
    enable_after_service: true,
    duration_of_after_service: 90,
    enable_classifications: ['20-21'],
  })
  const form = (await admin.send('POST', apiPath('service.forms'), {
    description: 'Atendimento',
    fields: [
      { name: 'nome', label: 'Nome do cliente', type: 'text', required: true, cols: 6 },
      { name: 'motivo', label: 'Motivo', type: 'select', options: 'duvida=Dúvida;reclamacao=Reclamação', required: true, cols: 6 },
    ],
  })) as { id: number }
  const queue = await entityId(admin, apiPath('pabx.queues'), 'Suporte')
  supportQueue = queue
  const users = (await admin.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }
  const agent2Id = users.results.find((row) => row.username === 'agent2')!.user
  await admin.send('PATCH', `${apiPath('pabx.queues')}${queue}/`, { members: [{ user: agent2Id, penalty: 0 }], form: form.id })
  const classification = (await admin.send('POST', apiPath('service.classifications'), { description: 'Retorno', queues: [queue] })) as { id: number }
  const sub = (await admin.send('POST', apiPath('service.sub-classifications'), { description: 'Ligar amanhã', result: 'neutral' })) as { id: number }
  await admin.send('POST', apiPath('service.unions'), {
    classification: classification.id,
    sub_classification: sub.id,
    enable_schedule: true,
    auto_run_schedule: 3,
    schedule_send_to: 1,
  })
  trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: CUSTOMER,
    aliases: [],
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const page = await context.newPage()
  await signIn(page, DEMO.agent2)
  agent = { context, page }
  await expect(page.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
})

test.afterAll(async () => {
  await agent?.context.close()
  await admin?.close()
  await trunk?.stop()
})

test('a queue call with a form: the panel widens with the form; the customer hangs up, after-service counts down while the agent classifies with a schedule', async () => {
  const page = agent.page
  await trunk.dial(`sip:${SUPPORT_DID}@127.0.0.1:${E2E_SIP_PORT}`)
  const ringing = page.getByTestId('webphone-ringing')
  await expect(ringing).toBeVisible({ timeout: 15_000 })
  await expect(ringing.getByTestId('webphone-ringing-answer')).toBeFocused()
  await ringing.getByTestId('webphone-ringing-answer').click()
  await expect(page.getByTestId('webphone-call-label')).toBeVisible({ timeout: 10_000 })
  await expect(page.getByTestId('agent-status')).toContainText('Em ligação')
  await page.getByTestId('webphone-button').click()
  const panel = page.getByTestId('webphone-panel')
  await expect(panel).toHaveAttribute('data-width', '1000', { timeout: 10_000 })
  const form = panel.getByTestId('webphone-call-form')
  await expect(form).toBeVisible()
  await form.getByLabel('Nome do cliente').fill('Ana Souza')
  await shot(page, 'webphone-call-form-pt-BR')

  // The customer hangs up: after-service starts at once (not only on the agent's hang-up).
  await trunk.hangup()
  await expect(page.getByTestId('webphone-after-service-timer')).toBeVisible({ timeout: 10_000 })
  await expect(page.getByTestId('agent-status')).toContainText('Pós-atendimento')
  await expect(panel.getByTestId('webphone-after-service-countdown')).toBeVisible()
  // The form and the classification stay beside the after-service.
  const classification = panel.getByTestId('webphone-classification')
  // The chain of the call's queue, as the agent reads it.
  const chain = (await (await page.request.get(`/api/v1/service/classifications/?queue_id=${supportQueue}&limit=999999`)).json()) as {
    results?: { description: string }[]
  }
  expect(chain.results?.map((row) => row.description)).toContain('Retorno')
  const pick = async (label: string, option: string) => {
    const select = classification.getByRole('combobox', { name: label, exact: true })
    // With the mouse, as an agent does: leaving the form's field shows its errors and pushes the select down between
    // the press and the release (src/components/form/openOnPress.ts).
    await select.click()
    await expect(select).toHaveAttribute('aria-expanded', 'true')
    await page.getByRole('option', { name: option }).click({ timeout: 10_000 })
  }
  await pick('Classificação', 'Retorno')
  await pick('Subclassificação', 'Ligar amanhã')
  await expect(classification.locator('input[type="datetime-local"]')).not.toHaveValue('')
  await shot(page, 'webphone-after-service-classification-pt-BR')
  await classification.getByTestId('webphone-classification-save').click()
  await expect(classification.getByTestId('webphone-classified')).toBeVisible({ timeout: 10_000 })
  await panel.getByTestId('webphone-after-service-end').click()
  await expect(page.getByTestId('agent-status')).toContainText('Disponível', { timeout: 10_000 })
  await shot(page, 'webphone-after-service-ended-pt-BR')

  // The callback activity the classification scheduled is the agent's.
  const mine = (await page.request.get('/api/v1/agent/activities/?upcoming=true')).json() as Promise<{ results: { destination: string }[] }>
  expect((await mine).results.map((row) => row.destination)).toContain(CUSTOMER)
})

test('a form blocks the transfer until it is valid: the toast, then the form is saved first and the customer reaches agent1', async ({ browser }) => {
  const page = agent.page
  // agent1 takes the transfer.
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const target = await context.newPage()
  try {
    // The queue's call goes to agent2: agent1 signs in only once agent2 took it (with both free, the queue's strategy
    // may pick agent1, who has been idle longer after the dialer's spec).
    await trunk.dial(`sip:${SUPPORT_DID}@127.0.0.1:${E2E_SIP_PORT}`)
    const ringing = page.getByTestId('webphone-ringing')
    await expect(ringing).toBeVisible({ timeout: 15_000 })
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expect(page.getByTestId('webphone-call-label')).toBeVisible({ timeout: 10_000 })
    await signIn(target, DEMO.agent1)
    await expect(target.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
    const panel = page.getByTestId('webphone-panel')
    if (!(await panel.isVisible())) await page.getByTestId('webphone-button').click()
    const form = panel.getByTestId('webphone-call-form')
    await expect(form).toBeVisible({ timeout: 10_000 })
    // Half the form: the reason is still missing.
    await form.getByLabel('Nome do cliente').fill('Bruno Lima')
    const transfer = async () => {
      await panel.getByTestId('webphone-transfer').click()
      await panel.getByTestId('webphone-transfer-blind').click()
      await panel.getByRole('textbox', { name: 'Destino' }).fill('10001')
      await panel.getByTestId('webphone-transfer-send').click()
    }
    await transfer()
    await expect(page.getByText('É necessário salvar o formulário antes de fazer a transferência.')).toBeVisible()
    await shot(page, 'webphone-transfer-needs-form-pt-BR')
    await expect(target.getByTestId('webphone-ringing')).toHaveCount(0)
    // The agent completes it (the select with the mouse) and transfers: the form is saved first.
    if (await panel.getByTestId('webphone-transfer-back').isVisible()) await panel.getByTestId('webphone-transfer-back').click()
    const reason = form.getByRole('combobox', { name: 'Motivo' })
    await reason.click()
    await expect(reason).toHaveAttribute('aria-expanded', 'true')
    await page.getByRole('option', { name: 'Dúvida' }).click()
    await transfer()
    const targetRinging = target.getByTestId('webphone-ringing')
    await expect(targetRinging).toBeVisible({ timeout: 15_000 })
    await targetRinging.getByTestId('webphone-ringing-answer').click()
    await expect(page.getByTestId('webphone-call-label')).toHaveCount(0, { timeout: 15_000 })
    // No after-service after a transfer; the form landed on the call agent2 took.
    await expect(page.getByTestId('agent-status')).toContainText('Disponível', { timeout: 10_000 })
    const calls = (await (await page.request.get(`/api/v1/report/calls/?search=${CUSTOMER.slice(-8)}&limit=5`)).json()) as {
      results?: { form: { values: Record<string, unknown>; sent_at: string | null } | null }[]
    }
    expect(calls.results?.some((row) => row.form?.values.nome === 'Bruno Lima' && row.form.values.motivo === 'duvida' && row.form.sent_at !== null)).toBe(true)
    await target.getByTestId('webphone-button').click()
    await target.getByTestId('webphone-hangup').first().click()
    // agent1's own after-service ends here (the specs after this one share the server and agent1).
    await target.getByTestId('webphone-after-service-end').click({ timeout: 15_000 })
    await expect(target.getByTestId('agent-status')).toContainText('Disponível', { timeout: 15_000 })
  } finally {
    await context.close()
  }
})
