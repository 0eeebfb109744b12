import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { agentConsole, apiAs, customerPage, customerWrites, PNG } from './chat-helpers.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn, toastsShown } from './helpers.ts'
import { startBaresip, type Baresip } from './telephony/baresip.ts'

// The CRM beside the agent's work (issue 17), against the shared e2e server and the real engines:
// - one number nobody knows writes on WhatsApp: the chat workspace offers 'create client', the client is created with
//   the number filled in and the room names it; the same number then calls the support line through the trunk
//   (baresip): agent2's ringing dialog names the client; agent2 answers, the call ends, and the client's timeline
//   holds the earlier chat and the call with its recording (the agents' devices record every call);
// - an interaction of a type with its form (/interactions/:form), several files attached, listed on the client's
//   timeline; the interactions of that type (/interactions/:interaction_id/:slug);
// - a client's phone field dials through the webphone and opens /phonecalls; its chat button opens the template dialog.
// Run with `npm run build` first.

test.describe.configure({ mode: 'serial', timeout: 180_000 })
// An action that cannot happen fails with its own message, not the test's timeout.
test.use({ actionTimeout: 20_000 })

const SUPPORT_DID = '551130000001'
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

/** The chat specs before this one may leave rooms open (agent1's places full): a supervisor closes every live room. */
async function closeLiveRooms(browser: Browser) {
  const { send, close } = await apiAs(browser, DEMO.supervisor)
  try {
    const live = (await send('GET', '/api/v1/chat/live/?limit=200')) as { results: { uid: string }[] }
    for (const room of live.results) await send('POST', `/api/v1/chat/close/${room.uid}/`, { force: true })
  } finally {
    await close()
  }
}

/** agent2's webphone, registered (the support queue's member for this spec). */
async function agent2Phone(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const page = await context.newPage()
  await signIn(page, DEMO.agent2)
  await expect(page.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 30_000 })
  // Signed out before its browser goes: the webphone unregisters, so the next spec's agent2 gets the calls (a
  // registration left behind takes them until it expires).
  const close = async () => {
    await menuItem(page, 'logout').click()
    await page.getByTestId('logout-confirm').click()
    await expect(page).toHaveURL(/\/login/, { timeout: 15_000 })
    await context.close()
  }
  return { page, close }
}

let clientId = 0
const waId = `55119872${String(Date.now()).slice(-5)}`
const customerName = 'Rita Desconhecida'

test('a chat from an unknown number offers create client; the room then names the client', async ({ page, browser }) => {
  await closeLiveRooms(browser)
  await agentConsole(page)
  const customerContext = await browser.newContext({ locale: 'pt-BR' })
  try {
    const customer = await customerContext.newPage()
    await customerPage(customer, waId, customerName)
    await customerWrites(customer, `Oi, sou nova por aqui ${waId}`)

    const card = page.getByTestId('queued-chat').filter({ hasText: customerName })
    await expect(card).toBeVisible({ timeout: 30_000 })
    await card.getByTestId('queued-accept').click()
    const room = page.getByTestId('room-pane')
    await expect(room.getByTestId('room-title')).toHaveText(customerName)
    const roomUrl = page.url()

    // Nobody has this number: the strip offers to create the client, with the number filled in.
    await expect(room.getByTestId('chat-client-unknown')).toBeVisible({ timeout: 15_000 })
    await shot(page, 'crm-chat-unknown-number')
    await room.getByTestId('chat-client-create').click()
    await expect(page).toHaveURL(/\/clients\/create\?phone=/)
    await expect(page.getByTestId('contact-buttons-phones')).toContainText(waId.slice(-8))
    await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(customerName)
    await page.getByTestId('form-save').click()
    await expect(page).toHaveURL(/\/clients\/?$/, { timeout: 15_000 })

    // The client of that number, as the server matches it.
    const match = (await (await page.request.get(`/api/v1/crm/clients/match/?phone=${waId}`)).json()) as { client: { id: number; name: string } | null }
    expect(match.client?.name).toBe(customerName)
    clientId = match.client!.id

    // Back in the room, the strip names the client and opens its page (the timeline lives there).
    await page.goto(roomUrl)
    await expect(page.getByTestId('chat-client-name')).toHaveText(customerName, { timeout: 20_000 })
    await shot(page, 'crm-chat-known-client')
    await page.getByTestId('chat-client-open').click()
    await expect(page).toHaveURL(new RegExp(`/clients/${clientId}/edit`))
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue(customerName)
  } finally {
    await customerContext.close()
    await closeLiveRooms(browser)
  }
})

test('the same number calls: agent2 sees the client while it rings, answers; the timeline holds the chat and the recorded call', async ({ page, browser }) => {
  expect(clientId, 'the client the chat scene created').toBeGreaterThan(0)
  const admin = await apiAs(browser, DEMO.admin)
  const queues = (await admin.send('GET', `${apiPath('pabx.queues')}?limit=200`)) as { results: { id: number; description: string }[] }
  const queue = queues.results.find((row) => row.description === 'Suporte')!
  const before = (await admin.send('GET', `${apiPath('pabx.queues')}${queue.id}/`)) as { members: unknown; form: unknown }
  const trunks = (await admin.send('GET', `${apiPath('pabx.trunks')}?limit=200`)) as { results: { id: number; description: string }[] }
  const trunkId = trunks.results.find((row) => row.description === 'Tronco de teste (baresip)')!.id
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const users = (await admin.send('GET', '/api/v1/agent/status/')) as { results: { user: number; username: string }[] }
  const agent2Id = users.results.find((row) => row.username === 'agent2')!.user
  await admin.send('PATCH', `${apiPath('pabx.queues')}${queue.id}/`, { members: [{ user: agent2Id, penalty: 0 }], form: null })
  let trunk: Baresip | undefined
  const agent = await agent2Phone(browser)
  try {
    trunk = await startBaresip({
      sipPort: E2E_TRUNK_PORT,
      ctrlPort: E2E_TRUNK_PORT + 5,
      rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
      user: waId,
      aliases: [],
      outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
    })
    await trunk.dial(`sip:${SUPPORT_DID}@127.0.0.1:${E2E_SIP_PORT}`)
    const ringing = agent.page.getByTestId('webphone-ringing')
    await expect(ringing).toBeVisible({ timeout: 20_000 })
    // The ringing dialog names the client of the number, with its last contacts (the chat).
    await expect(ringing.getByTestId('caller-client-name')).toHaveText(customerName, { timeout: 10_000 })
    await shot(agent.page, 'crm-ringing-known-client')
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expect(agent.page.getByTestId('webphone-call-label')).toBeVisible({ timeout: 10_000 })
    await expect(agent.page.getByTestId('agent-status')).toContainText('Em ligação')
    // A moment of conversation, so the recording holds audio: the call is live until the customer hangs up.
    await expect(agent.page.getByTestId('webphone-call-label')).toBeVisible()
    await trunk.hangup()
    await expect(agent.page.getByTestId('webphone-call-label')).toHaveCount(0, { timeout: 15_000 })
    // The demo team has after-service: agent2 ends it, so the specs after this one find agent2 free at once.
    const status = agent.page.getByTestId('agent-status')
    await expect(status).toContainText('Pós-atendimento', { timeout: 15_000 })
    const panel = agent.page.getByTestId('webphone-panel')
    if (!(await panel.isVisible())) await agent.page.getByTestId('webphone-button').click()
    await panel.getByTestId('webphone-after-service-end').click()
    await expect(status).toContainText('Disponível', { timeout: 15_000 })

    // The client's timeline (agent1, who created the client): the earlier chat and the call, with its recording.
    await signIn(page, DEMO.agent1)
    await page.goto(`/clients/${clientId}/edit`)
    const timeline = page.getByTestId('client-timeline')
    await expect(timeline.getByText('Conversa', { exact: true })).toBeVisible({ timeout: 15_000 })
    // The recording is written when the call ends: reload until the call shows its player link.
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('client-timeline').getByRole('link', { name: 'Ouvir gravação' })).toBeVisible({ timeout: 3_000 })
    }).toPass({ timeout: 45_000 })
    await expect(page.getByTestId('client-timeline').getByText('Chamada', { exact: true })).toBeVisible()
    await shot(page, 'crm-client-timeline-chat-call')
  } finally {
    await trunk?.stop()
    await agent.close()
    await admin.send('PATCH', `${apiPath('pabx.queues')}${queue.id}/`, { members: before.members, form: before.form }).catch(() => undefined)
    await admin.close()
  }
})

test('an interaction of a type with its form (/interactions/:form), several files, on the client timeline and the list of its type', async ({
  page,
  browser,
}) => {
  const slug = `reclamacao-${String(Date.now()).slice(-6)}`
  const admin = await apiAs(browser, DEMO.admin)
  const client = (await admin.send('POST', '/api/v1/crm/clients/', { name: 'Clara Anexos', phones: `+55119${String(Date.now()).slice(-8)}` })) as { id: number }
  const form = (await admin.send('POST', apiPath('service.forms'), {
    description: 'Dados da reclamação',
    fields: [
      { name: 'pedido', label: 'Número do pedido', type: 'text', required: true, cols: 6 },
      { name: 'canal', label: 'Canal de compra', type: 'select', options: 'loja=Loja;site=Site', cols: 6 },
    ],
  })) as { id: number }
  const type = (await admin.send('POST', '/api/v1/crm/interactions/', { description: 'Reclamação', slug, form: form.id })) as { id: number }
  await admin.close()

  await signIn(page, DEMO.agent1)
  await page.goto(`/interactions/${slug}`)
  await expect(page.getByTestId('interaction-custom-fields')).toBeVisible({ timeout: 15_000 })
  await expect(page.getByTestId('interaction-custom-fields')).toContainText('Dados da reclamação')
  await page.getByRole('textbox', { name: 'Assunto', exact: true }).fill('Produto chegou quebrado')
  const clientField = page.getByRole('combobox', { name: 'Cliente' })
  await clientField.fill('Clara Anexos')
  await page.getByRole('option', { name: 'Clara Anexos' }).click()
  await shot(page, 'crm-interaction-create-by-type')
  // The form's required answer is the server's to check too: saved without it, the field says so.
  await page.getByTestId('form-save').click()
  await expect(page.getByTestId('interaction-custom-fields')).toContainText('obrigatório', { timeout: 10_000 })
  await page.getByRole('textbox', { name: 'Número do pedido' }).fill('PED-4411')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/interactions\/?$/, { timeout: 15_000 })

  // Several files on the saved interaction.
  const list = (await (await page.request.get(`/api/v1/crm/client-interactions/?interaction=${type.id}`)).json()) as {
    results: { id: number; form_data: Record<string, unknown> }[]
  }
  expect(list.results[0]!.form_data.pedido).toBe('PED-4411')
  const id = list.results[0]!.id
  await page.goto(`/interactions/${id}/edit`)
  await expect(page.getByTestId('interaction-files')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Número do pedido' })).toHaveValue('PED-4411')
  await page.getByTestId('interaction-files-input').setInputFiles([
    { name: 'foto-da-caixa.png', mimeType: 'image/png', buffer: PNG },
    { name: 'nota-fiscal.pdf', mimeType: 'application/pdf', buffer: PDF },
  ])
  await expect(page.getByTestId('interaction-attachment')).toHaveCount(2, { timeout: 10_000 })
  // A file that is not what it claims is refused, with the server's message.
  await page.getByTestId('interaction-files-input').setInputFiles([{ name: 'pagina.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html></html>') }])
  await expect(page.getByText('Tipo de arquivo não aceito', { exact: false })).toBeVisible({ timeout: 10_000 })
  await expect(page.getByTestId('interaction-attachment')).toHaveCount(2)
  await toastsShown(page)
  await shot(page, 'crm-interaction-files')
  const download = await page.request.get((await page.getByTestId('interaction-attachment').nth(1).getAttribute('href'))!)
  expect(download.headers()['content-disposition']).toBe('attachment; filename="nota-fiscal.pdf"')
  expect(download.headers()['x-content-type-options']).toBe('nosniff')

  // The client's timeline lists the interaction with its files.
  await page.goto(`/clients/${client.id}/edit`)
  const timeline = page.getByTestId('client-timeline')
  await expect(timeline.getByText('Produto chegou quebrado')).toBeVisible({ timeout: 15_000 })
  await expect(timeline.getByTestId('interaction-attachment')).toHaveText(['📎 foto-da-caixa.png', '📎 nota-fiscal.pdf'])
  await shot(page, 'crm-client-timeline-interaction-files')

  // The interactions of that type, by its id and slug: the type is named and 'Nova' opens its form.
  await page.goto(`/interactions/${type.id}/${slug}`)
  await expect(page.getByTestId('interaction-type-filter')).toHaveText('Tipo: Reclamação')
  await expect(page.getByRole('row').filter({ hasText: 'Produto chegou quebrado' })).toBeVisible()
  await shot(page, 'crm-interactions-of-type')
  await page.getByTestId('interaction-type-create').click()
  await expect(page).toHaveURL(new RegExp(`/interactions/${slug}$`))
  await expect(page.getByTestId('interaction-custom-fields')).toBeVisible()
  // An unknown slug is the 404 page's words.
  await page.goto('/interactions/nao-existe-este-tipo')
  await expect(page.getByText('Esta página não foi encontrada')).toBeVisible()
})

test('each interaction type has its CRM menu entry listing that type, renamed in the menu as soon as an admin saves it', async ({ page, browser }) => {
  const stamp = String(Date.now()).slice(-6)
  const admin = await apiAs(browser, DEMO.admin)
  const form = (await admin.send('POST', apiPath('service.forms'), { description: `Menu ${stamp}`, fields: [{ name: 'nota', label: 'Nota', type: 'text' }] })) as { id: number }
  const type = (await admin.send('POST', '/api/v1/crm/interactions/', { description: `Sugestão ${stamp}`, slug: `sugestao-${stamp}`, form: form.id })) as { id: number }
  await admin.close()

  await signIn(page, DEMO.admin)
  const group = menuItem(page, 'interactions')
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click()
  const entry = menuItem(page, `interaction-type-${type.id}`)
  await expect(entry).toHaveText(`Sugestão ${stamp}`)
  await entry.click()
  await expect(page).toHaveURL(new RegExp(`/interactions/${type.id}/sugestao-${stamp}$`))
  await expect(page.getByTestId('interaction-type-filter')).toHaveText(`Tipo: Sugestão ${stamp}`)
  await shot(page, 'crm-menu-interaction-types')

  // The admin renames the type in the CRM settings: the menu follows without a reload.
  await page.goto(`/settings/crm/interactions/${type.id}/edit`)
  await expect(page.getByLabel('Descrição')).toHaveValue(`Sugestão ${stamp}`)
  await page.getByLabel('Descrição').fill(`Ideia ${stamp}`)
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/crm\/interactions\/?$/)
  if ((await menuItem(page, 'interactions').getAttribute('aria-expanded')) !== 'true') await menuItem(page, 'interactions').click()
  await expect(menuItem(page, `interaction-type-${type.id}`)).toHaveText(`Ideia ${stamp}`)
})

test("a client's phone field: call dials through the webphone and opens /phonecalls; chat opens the template dialog", async ({ page, browser }) => {
  const phone = `+55119${String(Date.now()).slice(-8)}`
  const { send, close } = await apiAs(browser, DEMO.admin)
  const client = (await send('POST', '/api/v1/crm/clients/', { name: 'Otávio Campo', phones: phone })) as { id: number }
  await close()

  await signIn(page, DEMO.agent1)
  await page.goto(`/clients/${client.id}/edit`)
  const buttons = page.getByTestId('contact-buttons-phones')
  await expect(buttons).toContainText(phone)
  await shot(page, 'crm-client-phone-buttons')

  // Chat: the chat workspace's template dialog, for this number.
  await buttons.getByTestId('field-chat').click()
  const dialog = page.getByTestId('template-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Telefone')).toHaveValue(phone)
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(dialog).toHaveCount(0)

  // Call: the webphone dials the number and the calls page opens.
  await buttons.getByTestId('field-call').click()
  await expect(page).toHaveURL(/\/phonecalls/)
  // The widget names the number dialled (ringing, then — no trunk answers here — after-service for that call).
  await expect(page.getByTestId('webphone-button')).toContainText(phone, { timeout: 15_000 })
  await shot(page, 'crm-phone-field-call')
})
