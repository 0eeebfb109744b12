import { expect, type Browser, type Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { DEMO_WHATSAPP } from '../server/seed/demo-settings.ts'
import { E2E_WA_SIM_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { signIn } from './helpers.ts'

// Shared by the /chats specs (chat-workspace, chat-screens): the WhatsApp simulator's customer page and agent1's console.

export const SIM = `http://127.0.0.1:${E2E_WA_SIM_PORT}`
// A 1×1 PNG: what the customer and the agent send as a photo.
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

export async function customerPage(page: Page, waId: string, name: string): Promise<void> {
  await page.goto(`${SIM}/?phone_number_id=${DEMO_WHATSAPP.phone_number_id}&wa_id=${waId}&name=${encodeURIComponent(name)}&lang=pt-BR`)
}

export async function customerWrites(page: Page, text: string): Promise<void> {
  await page.locator('#text').fill(text)
  await page.locator('#text').press('Enter')
  await expect(page.locator('.msg.in', { hasText: text })).toBeVisible()
}

/** agent1 (or `account`) in /chats, signed in to the chat channel (the prompt's 'Entrar' when the channel is off). */
export async function agentConsole(page: Page, prefix = '', account: { username: string; password: string } = DEMO.agent1): Promise<void> {
  await signIn(page, account, prefix)
  await page.goto(`${prefix}/chats`)
  await expect(page.getByTestId('chats-page')).toBeVisible({ timeout: 30_000 })
  const signInButton = page.getByTestId('webchat-sign-in')
  if (await signInButton.isVisible().catch(() => false)) await signInButton.click()
  await expect(page.getByTestId('webchat-prompt')).toHaveCount(0)
}

/** An API session of `account` in its own browser context: `send` carries the CSRF token, throws on a non-2xx answer. */
export async function apiAs(browser: Browser, account: { username: string; password: string }) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data?: unknown) => {
    const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
    const response = await request.fetch(path, { method, data, headers: { 'X-CSRFToken': csrf } })
    const text = await response.text()
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  await send('POST', '/api/session/login/', account)
  return { send, close: () => context.close() }
}

/**
 * The demo team requires a classification for chats, so a room closes from its Classification tab
 * (e2e/chat-outcomes.spec.ts). Specs about the rest of the workspace lift that rule while they run, so the header's
 * Close button shows; the answer puts it back (the e2e server is shared).
 */
export async function liftChatClassification(browser: Browser): Promise<() => Promise<void>> {
  const { send, close } = await apiAs(browser, DEMO.admin)
  const teams = (await send('GET', `${apiPath('service.teams')}?limit=200`)) as { results: { id: number; name: string }[] }
  const team = teams.results.find((row) => row.name === 'Equipe Demo')!
  const before = (await send('GET', `${apiPath('service.teams')}${team.id}/`)) as { enable_classifications: unknown }
  await send('PATCH', `${apiPath('service.teams')}${team.id}/`, { enable_classifications: [] })
  return async () => {
    await send('PATCH', `${apiPath('service.teams')}${team.id}/`, { enable_classifications: before.enable_classifications })
    await close()
  }
}
