import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { DEMO_WHATSAPP } from '../server/seed/demo-settings.ts'
import { PNG, SIM, agentConsole, customerPage, customerWrites, liftChatClassification } from './chat-helpers.ts'
import { SimulatorClient } from '../simulator/whatsapp/client.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// Issue 14 through the /chats screens: a WhatsApp customer writes on the simulator's page; agent1, signed in to the
// console, accepts the queued-chat card in the top bar, replies in the room, and the customer sees the ticks; a photo
// goes both ways and the customer's location arrives; the window closes (the simulator ages it) and the room asks for a
// template; ending shows the countdown and removes the room; History and the search find the conversation; the
// supervisor opens it in the room viewer and exports the PDF.

test.describe.configure({ timeout: 180_000 })

let restoreClassification: (() => Promise<void>) | null = null
test.beforeAll(async ({ browser }) => {
  restoreClassification = await liftChatClassification(browser)
})
test.afterAll(async () => {
  await restoreClassification?.()
})

test('a customer writes, the agent accepts the card, replies, exchanges media and locations, meets the closed window, ends the chat; history, search and the supervisor’s PDF find it', async ({
  page,
  browser,
}) => {
  const waId = `55119876${String(Date.now()).slice(-5)}`
  const name = 'Marta Workspace'
  const sim = new SimulatorClient(SIM)
  await agentConsole(page)

  const customerContext = await browser.newContext({ locale: 'pt-BR' })
  const customer = await customerContext.newPage()
  await customerPage(customer, waId, name)
  const first = `Olá, quero trocar um produto ${waId}`
  await customerWrites(customer, first)

  // The queued chat rings as a card in the top bar; accept opens the room.
  const card = page.getByTestId('queued-chat').filter({ hasText: name })
  await expect(card).toBeVisible({ timeout: 20_000 })
  await shot(page, 'chat-workspace-queued-card')
  await card.getByTestId('queued-accept').click()
  const room = page.getByTestId('room-pane')
  await expect(room.getByTestId('room-title')).toHaveText(name)
  await expect(page).toHaveURL(/room=\d+/)
  await expect(room.getByTestId('message').filter({ hasText: first })).toBeVisible()
  await expect(page.getByTestId('queued-chat')).toHaveCount(0)

  // The agent replies; the customer's page is open, so it is read at once: the ticks end blue on both sides.
  const reply = 'Claro, Marta! Qual é o número do pedido?'
  await room.getByTestId('message-text').fill(reply)
  await room.getByTestId('message-text').press('Enter')
  const out = customer.locator('.msg.out', { hasText: reply })
  await expect(out).toBeVisible()
  await expect(out).toHaveAttribute('data-status', 'read')
  await expect(room.getByTestId('message').filter({ hasText: reply }).getByTestId('tick-consumed')).toBeVisible()

  // A photo from the customer shows as a 200 px thumbnail; one from the agent reaches the customer.
  await customer.locator('#file').setInputFiles({ name: 'nota.png', mimeType: 'image/png', buffer: PNG })
  await expect(room.getByTestId('media-thumbnail')).toBeVisible({ timeout: 20_000 })
  await room.getByTestId('attachment-input').setInputFiles({ name: 'etiqueta.png', mimeType: 'image/png', buffer: PNG })
  await expect(customer.locator('.msg.out[data-type="image"]')).toBeVisible({ timeout: 20_000 })

  // The customer's location (the simulator asks to confirm the coordinates).
  customer.once('dialog', (dialog) => void dialog.accept('-23.561414, -46.655881'))
  await customer.locator('#locate').click()
  await expect(room.getByTestId('location')).toBeVisible({ timeout: 20_000 })
  await expect(room.getByTestId('location').getByRole('link')).toHaveAttribute('href', /-23\.56/)
  await shot(page, 'chat-workspace-room')

  // The 24-hour window closes (the simulator ages it): the next free text is refused and the room asks for a template.
  await sim.expireWindow(DEMO_WHATSAPP.phone_number_id, waId)
  const late = 'Ainda está aí?'
  await room.getByTestId('message-text').fill(late)
  await room.getByTestId('message-text').press('Enter')
  await expect(room.getByTestId('expired-template')).toBeVisible({ timeout: 20_000 })
  await room.getByTestId('expired-template').click()
  const templates = page.getByTestId('template-dialog')
  await expect(templates).toBeVisible()
  await expect(templates.getByRole('combobox', { name: 'Canal' }).or(templates.getByRole('button', { name: 'Canal' }))).toBeVisible()
  await shot(page, 'chat-workspace-template-dialog')
  await page.keyboard.press('Escape')
  await expect(templates).toHaveCount(0)

  // The customer writes again (the window reopens) and the agent ends the chat: the countdown, then the room leaves.
  await customerWrites(customer, 'Voltei!')
  await expect(room.getByTestId('message-text')).toBeVisible({ timeout: 20_000 })
  // The close lives in the Classification tab when the queue has a classification, in the header otherwise.
  await page.getByTestId('chat-classification-close').or(room.getByTestId('close-room')).first().click()
  await page.getByRole('button', { name: 'Sim' }).click()
  await expect(room.getByTestId('ended-bar')).toContainText(/Este chat foi encerrado \(\d+ s\)/, { timeout: 20_000 })
  await shot(page, 'chat-workspace-ended')
  await expect(page.locator(`[data-testid="room-row"]`, { hasText: name })).toHaveCount(0, { timeout: 30_000 })

  // History finds the conversation by its phone; the row opens the room viewer.
  await page.getByTestId('open-history').click()
  const history = page.getByTestId('history-dialog')
  await expect(history).toBeVisible()
  await history.getByRole('textbox').first().fill(waId)
  await expect(history.getByRole('row').filter({ hasText: waId })).toHaveCount(1, { timeout: 10_000 })
  await shot(page, 'chat-workspace-history')
  await page.keyboard.press('Escape')
  await page.getByTestId('open-archived').click()
  await expect(page.getByTestId('archived-dialog')).toBeVisible()
  await page.keyboard.press('Escape')

  // The supervisor opens it from History in the room viewer and exports the PDF.
  const supervisorContext = await browser.newContext({ locale: 'pt-BR', acceptDownloads: true })
  const supervisor = await supervisorContext.newPage()
  await signIn(supervisor, DEMO.supervisor)
  await supervisor.goto('/chats')
  await supervisor.getByTestId('open-history').click()
  const list = supervisor.getByTestId('history-dialog')
  await list.getByRole('textbox').first().fill(waId)
  await list.getByRole('row').filter({ hasText: waId }).getByTestId('open-room').click()
  const viewer = supervisor.getByTestId('room-viewer')
  await expect(viewer).toBeVisible()
  await expect(viewer.getByTestId('message').filter({ hasText: reply })).toBeVisible()
  await shot(supervisor, 'chat-workspace-viewer')
  const download = supervisor.waitForEvent('download', { timeout: 60_000 })
  await viewer.getByTestId('viewer-pdf').click()
  const pdf = await download
  expect(pdf.suggestedFilename()).toMatch(/^chat-\d+\.pdf$/)
  mkdirSync('e2e/screenshots', { recursive: true })
  const file = `e2e/screenshots/${pdf.suggestedFilename()}`
  await pdf.saveAs(file)
  // html2pdf draws the conversation as an image per page: a PDF without one is blank.
  expect(readFileSync(file).toString('latin1')).toContain('/Subtype /Image')
  if (existsSync('/usr/bin/pdftoppm')) execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, 'e2e/screenshots/chat-workspace-pdf'])

  await supervisorContext.close()
  await customerContext.close()
})
