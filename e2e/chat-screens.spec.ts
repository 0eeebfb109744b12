import { expect, test, type Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { PNG, agentConsole, customerPage, customerWrites, liftChatClassification } from './chat-helpers.ts'

// Issue 14's screenshots of /chats in the three languages, at 1440 px and 390 px (e2e/screenshots/chat-screen-*.png,
// for a person to look at): the queued card in the top bar, the list and the room, History, New contact, the template
// dialog, the close confirmation, the ended room, and the supervisor's room viewer. Each step also checks the screen
// speaks the language.

const LOCALES = [
  { locale: 'pt-BR', prefix: '', history: 'Histórico', viewer: 'Mensagens', yes: 'Sim' },
  { locale: 'en-US', prefix: '/en-us', history: 'History', viewer: 'Messages', yes: 'Yes' },
  { locale: 'es-ES', prefix: '/es-es', history: 'Historial', viewer: 'Mensajes', yes: 'Sí' },
] as const

const WIDE = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }

test.describe.configure({ timeout: 180_000 })

let restoreClassification: (() => Promise<void>) | null = null
test.beforeAll(async ({ browser }) => {
  restoreClassification = await liftChatClassification(browser)
})
test.afterAll(async () => {
  await restoreClassification?.()
})

for (const [index, lang] of LOCALES.entries()) {
  test(`/chats in ${lang.locale} at 1440 and 390 px`, async ({ browser }) => {
    const name = `Cliente ${lang.locale}`
    const waId = `5511977${String(Date.now()).slice(-5)}${index}`
    const agentContext = await browser.newContext({ locale: lang.locale, viewport: WIDE })
    const page = await agentContext.newPage()
    await agentConsole(page, lang.prefix)
    await expect(page.getByTestId('open-history')).toHaveText(lang.history)
    const at = (label: string) => `chat-screen-${lang.locale}-${label}`

    const customerContext = await browser.newContext({ locale: 'pt-BR' })
    const customer = await customerContext.newPage()
    await customerPage(customer, waId, name)
    await customerWrites(customer, 'Bom dia! Preciso da segunda via do boleto de novembro.')
    const card = page.getByTestId('queued-chat').filter({ hasText: name })
    await expect(card).toBeVisible({ timeout: 20_000 })
    await shot(page, at('1440-queued'))
    await card.getByTestId('queued-accept').click()
    const room = page.getByTestId('room-pane')
    await expect(room.getByTestId('room-title')).toHaveText(name)
    await room.getByTestId('message-text').fill('Bom dia! Claro, vou gerar agora. Pode confirmar o CPF do titular?')
    await room.getByTestId('message-text').press('Enter')
    await expect(room.getByTestId('tick-consumed')).toBeVisible({ timeout: 20_000 })
    await customerWrites(customer, 'Claro: 123.456.789-00')
    await customer.locator('#file').setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: PNG })
    await expect(room.getByTestId('media-thumbnail')).toBeVisible({ timeout: 20_000 })
    await shot(page, at('1440-room'))

    await page.getByTestId('open-history').click()
    await expect(page.getByTestId('history-dialog')).toBeVisible()
    await shot(page, at('1440-history'))
    await page.keyboard.press('Escape')
    await page.getByTestId('open-new-contact').click()
    await expect(page.getByTestId('new-contact-dialog')).toBeVisible()
    await shot(page, at('1440-new-contact'))
    await page.keyboard.press('Escape')
    if (await room.getByTestId('send-template').isVisible()) {
      await room.getByTestId('send-template').click()
      await expect(page.getByTestId('template-dialog')).toBeVisible()
      await shot(page, at('1440-template'))
      await page.keyboard.press('Escape')
    }

    // A phone: the list, then the room (the list and the room take turns).
    await page.setViewportSize(PHONE)
    await expect(room).toBeVisible()
    await shot(page, at('390-room'))
    await room.getByRole('button', { name: /Voltar|Back|Volver/ }).click()
    await expect(page.getByTestId('room-list')).toBeVisible()
    await shot(page, at('390-list'))
    await page.locator('[data-testid="room-row"]', { hasText: name }).click()
    await page.setViewportSize(WIDE)

    // Ending: the confirmation, then the red bar with the countdown.
    // The close lives in the Classification tab when the queue has a classification, in the header otherwise.
    await page.getByTestId('chat-classification-close').or(room.getByTestId('close-room')).first().click()
    await expect(page.getByTestId('confirm-dialog')).toBeVisible()
    await shot(page, at('1440-close-confirm'))
    await page.getByTestId('confirm-yes').click()
    await expect(room.getByTestId('ended-bar')).toBeVisible({ timeout: 20_000 })
    await shot(page, at('1440-ended'))

    // The supervisor's room viewer, from History.
    const supervisorContext = await browser.newContext({ locale: lang.locale, viewport: WIDE })
    const supervisor = await supervisorContext.newPage()
    await signIn(supervisor, DEMO.supervisor, lang.prefix)
    await supervisor.goto(`${lang.prefix}/chats`)
    await viewer(supervisor, waId, lang.viewer)
    await shot(supervisor, at('1440-viewer'))
    await supervisor.setViewportSize(PHONE)
    await shot(supervisor, at('390-viewer'))

    await supervisorContext.close()
    await customerContext.close()
    await agentContext.close()
  })
}

async function viewer(page: Page, waId: string, tab: string): Promise<void> {
  await page.getByTestId('open-history').click()
  const list = page.getByTestId('history-dialog')
  await list.getByRole('textbox').first().fill(waId)
  await list.getByRole('row').filter({ hasText: waId }).getByTestId('open-room').click()
  const dialog = page.getByTestId('room-viewer')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('tab', { name: tab })).toBeVisible()
  await expect(dialog.getByTestId('message').first()).toBeVisible()
}
