import { expect, test, type Page } from '@playwright/test'
import { DEMO_WHATSAPP } from '../server/seed/demo-settings.ts'
import { E2E_WA_SIM_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot } from './helpers.ts'

// Issue 13's chat end to end: a customer writes through the WhatsApp simulator's page (its own server, the demo
// channel pointed at it) and through the website widget on /widget-demo; agent1, in a plain browser page (the chat
// workspace comes with the next issue), holds the real chat socket /ws/chat/ with an API token, answers the offer and
// replies through POST send-message; the customer sees the reply and its ticks come back.

type Frame = { action: string; [key: string]: unknown }
type Room = { id: number; last_client_message_content: string; channel: { type: string }; user: { id: number } | null }
type Message = { id: number; content: string; sent_by: string; status: string | null }

declare global {
  interface Window {
    chat: { ws: WebSocket; frames: Frame[] }
  }
}

/** agent1's "console": a page of the product's origin holding the chat socket; answers the API token. */
async function agentConsole(page: Page): Promise<string> {
  const res = await page.request.post('/api/auth/login/', { data: DEMO.agent1, headers: { accept: 'application/json' } })
  expect(res.status()).toBe(200)
  const { token } = (await res.json()) as { token: string }
  await page.goto('/login')
  await page.evaluate(
    (token) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/chat/`, ['token', token])
        window.chat = { ws, frames: [] }
        ws.onmessage = (event) => window.chat.frames.push(JSON.parse(String(event.data)) as Frame)
        ws.onopen = () => resolve()
        ws.onerror = () => reject(new Error('the chat socket did not open'))
      }),
    token,
  )
  // Signed in to the chat channel, as the console's chat toggle does.
  const login = await page.evaluate(
    (token) => fetch('/api/v1/agent/channel/login/?channel=chat', { method: 'POST', headers: { authorization: `Token ${token}` } }).then((r) => r.status),
    token,
  )
  expect(login).toBe(200)
  return token
}

/** Waits for a chat socket frame `match` accepts and answers it (the frames are read from the page). */
async function frame<T extends Frame>(page: Page, match: (f: T) => boolean): Promise<T> {
  let found: T | undefined
  await expect
    .poll(
      async () => {
        const frames = (await page.evaluate(() => window.chat.frames)) as T[]
        found = frames.find(match)
        return found !== undefined
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  return found!
}

/** Answers the offer of the room whose last customer text is `text`; answers the room. */
async function answerOffer(page: Page, text: string): Promise<Room> {
  type ChatFrame = Frame & { room: Room & { status: string }; ringing: boolean }
  const offer = await frame<ChatFrame>(page, (f) => f.action === 'chat' && f.ringing && f.room.last_client_message_content === text)
  await page.evaluate((id) => window.chat.ws.send(JSON.stringify({ action: 'answer', step_id: id })), offer.room.id)
  await frame<ChatFrame>(page, (f) => f.action === 'chat' && !f.ringing && f.room.id === offer.room.id && f.room.user !== null && f.room.status === 'active')
  return offer.room
}

async function reply(page: Page, token: string, room: Room, content: string): Promise<Message> {
  const answer = await page.evaluate(
    ({ token, id, content }) =>
      fetch(`/api/v1/chat/send-message/${id}/`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; data: Message } })),
    { token, id: room.id, content },
  )
  expect(answer.status).toBe(200)
  expect(answer.body.success).toBe(true)
  return answer.body.data
}

test('a WhatsApp customer writes on the simulator page; the agent gets it over the chat socket, answers and replies; the reply is read', async ({
  page,
  context,
}) => {
  const token = await agentConsole(page)
  const customer = await context.newPage()
  const waId = '5511987650001'
  await customer.goto(`http://127.0.0.1:${E2E_WA_SIM_PORT}/?phone_number_id=${DEMO_WHATSAPP.phone_number_id}&wa_id=${waId}&name=Carla%20Cliente&lang=pt-BR`)
  const first = 'Olá, meu pedido ainda não chegou'
  await customer.locator('#text').fill(first)
  await customer.locator('#text').press('Enter')
  // The product accepted the webhook: the customer's bubble turns ✓✓.
  await expect(customer.locator('.msg.in', { hasText: first })).toHaveAttribute('data-status', /delivered|read/)

  const room = await answerOffer(page, first)
  expect(room.channel.type).toBe('whatsapp')

  // A second message of the same customer continues the room and arrives as a 'message' frame.
  const second = 'É o pedido 4521'
  await customer.locator('#text').fill(second)
  await customer.locator('#text').press('Enter')
  const inbound = await frame<Frame & { step_id: number; message: Message }>(page, (f) => f.action === 'message' && f.message.content === second)
  expect(inbound.step_id).toBe(room.id)
  expect(inbound.message.sent_by).toBe('client')

  const text = 'Oi Carla! Vou verificar o pedido 4521 agora.'
  const sent = await reply(page, token, room, text)
  const bubble = customer.locator('.msg.out', { hasText: text })
  await expect(bubble).toBeVisible()
  // The page is open, so the customer reads it at once: the ticks end blue, and the agent hears the status.
  await expect(bubble).toHaveAttribute('data-status', 'read')
  await frame<Frame & { messages: Message[] }>(page, (f) => f.action === 'messageStatus' && f.messages.some((m) => m.id === sent.id && m.status === 'consumed'))
  await shot(customer, 'chat-simulator-customer')
})

test('a visitor writes in the website widget; the agent answers over the chat socket and replies; the visitor sees it', async ({ page, context }) => {
  const token = await agentConsole(page)
  const visitor = await context.newPage()
  await visitor.goto('/widget-demo')
  const root = visitor.locator('#atende-chat-widget')
  await root.locator('button.launcher').click()
  await root.locator('input[name=name]').fill('Vera Visitante')
  await root.locator('input[name=email]').fill('vera@example.com')
  await root.locator('button.primary').click()
  const first = 'Boa tarde! Vocês entregam no sábado?'
  await root.locator('textarea').fill(first)
  await root.locator('textarea').press('Enter')
  await expect(root.locator('.row.client', { hasText: first })).toBeVisible()

  const room = await answerOffer(page, first)
  expect(room.channel.type).toBe('webchat')
  const text = 'Entregamos sim, das 8h às 14h.'
  await reply(page, token, room, text)
  await expect(root.locator('.row.agent', { hasText: text })).toBeVisible()
  await shot(visitor, 'chat-widget-visitor')
})
