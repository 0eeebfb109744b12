import { expect, test } from '@playwright/test'
import { apiAs } from './chat-helpers.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// The CRM beside the agent's work (issue 17): a client's phone field dials through the webphone and opens
// /phonecalls, and its chat button opens the template dialog.

test.describe.configure({ timeout: 120_000 })

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
