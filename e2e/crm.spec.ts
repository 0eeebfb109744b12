import { expect, test } from '@playwright/test'
import { apiAs, agentConsole, customerPage, customerWrites } from './chat-helpers.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// The CRM beside the agent's work (issue 17): a chat from a number nobody knows offers 'create client' in the chat
// workspace, the client is created with the number filled in and the room then shows who it is; a client's phone
// field dials through the webphone and opens /phonecalls, and its chat button opens the template dialog.

test.describe.configure({ timeout: 120_000 })

test('a chat from an unknown number: the workspace offers create client, and shows the client once created', async ({ page, browser }) => {
  const waId = `55119871${String(Date.now()).slice(-5)}`
  const name = 'Rita Desconhecida'
  await agentConsole(page)
  const customerContext = await browser.newContext({ locale: 'pt-BR' })
  const customer = await customerContext.newPage()
  await customerPage(customer, waId, name)
  await customerWrites(customer, `Oi, sou nova por aqui ${waId}`)

  const card = page.getByTestId('queued-chat').filter({ hasText: name })
  await expect(card).toBeVisible({ timeout: 20_000 })
  await card.getByTestId('queued-accept').click()
  const room = page.getByTestId('room-pane')
  await expect(room.getByTestId('room-title')).toHaveText(name)
  const roomUrl = page.url()

  // Nobody has this number: the strip offers to create the client, with the number filled in.
  await expect(room.getByTestId('chat-client-unknown')).toBeVisible()
  await shot(page, 'crm-chat-unknown-number')
  await room.getByTestId('chat-client-create').click()
  await expect(page).toHaveURL(/\/clients\/create\?phone=/)
  await expect(page.getByTestId('contact-buttons-phones')).toContainText(waId.slice(-8))
  await page.getByLabel('Nome', { exact: true }).fill(name)
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/clients\/?$/)

  // Back in the room, the strip names the client and opens its page (the timeline lives there).
  await page.goto(roomUrl)
  await expect(page.getByTestId('chat-client-name')).toHaveText(name, { timeout: 15_000 })
  await shot(page, 'crm-chat-known-client')
  await page.getByTestId('chat-client-open').click()
  await expect(page).toHaveURL(/\/clients\/\d+\/edit/)
  await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(name)
  await customerContext.close()
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
