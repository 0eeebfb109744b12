import { readFileSync } from 'node:fs'
import { expect as baseExpect, test, type Locator, type Page } from '@playwright/test'
import { DEMO_WHATSAPP } from '../server/seed/demo-settings.ts'
import { SimulatorClient } from '../simulator/whatsapp/client.ts'
import { SIM, agentConsole, apiAs, customerPage, customerWrites, liftChatClassification } from './chat-helpers.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// Issue 14's live parts of the workspace: a customer's voice note plays in the room; the agent shares a location with
// a WhatsApp customer (the simulator's page) and with a website visitor; typing shows both ways on the website chat;
// the agent records a voice note that reaches the customer's phone as one; a supervisor watches agent1's live room
// from the Live list, plays the voice note, sees the customer's next message arrive and transfers the conversation to
// agent2, whose console gets it with everything said before.

test.describe.configure({ timeout: 360_000 })
// The machine's CPUs are shared: every wait gets room.
const expect = baseExpect.configure({ timeout: 20_000 })

let restoreClassification: (() => Promise<void>) | null = null
test.beforeAll(async ({ browser }) => {
  restoreClassification = await liftChatClassification(browser)
})
test.afterAll(async ({ browser }) => {
  // The rooms these tests opened are closed (a supervisor forces it), so the specs after this one find agent1 free.
  const { send, close } = await apiAs(browser, DEMO.supervisor)
  try {
    const live = (await send('GET', '/api/v1/chat/live/?limit=200')) as { results: { uid: string }[] }
    for (const room of live.results) await send('POST', `/api/v1/chat/close/${room.uid}/`, { force: true })
  } finally {
    await close()
  }
  await restoreClassification?.()
})

const VOICE = readFileSync('tests/server/chat/fixtures/voice.ogg')

/** agent1 accepts the queued card of `name` and the room opens. */
async function accept(page: Page, name: string) {
  const card = page.getByTestId('queued-chat').filter({ hasText: name })
  await expect(card).toBeVisible({ timeout: 20_000 })
  await card.getByTestId('queued-accept').click()
  const room = page.getByTestId('room-pane')
  await expect(room.getByTestId('room-title')).toHaveText(name)
  return room
}

/** The agent shares a place through the location dialog. */
async function shareLocation(page: Page, coordinates: string, name: string) {
  const room = page.getByTestId('room-pane')
  await room.getByTestId('location-button').click()
  const dialog = page.getByTestId('location-dialog')
  await expect(dialog).toBeVisible()
  // A typo is refused before anything is sent.
  await dialog.getByTestId('location-coordinates').fill('-23.56')
  await dialog.getByTestId('location-send').click()
  await expect(dialog).toContainText('Coordenadas inválidas')
  await dialog.getByTestId('location-coordinates').fill(coordinates)
  await dialog.getByTestId('location-name').fill(name)
  await shot(page, 'chat-live-location-dialog')
  await dialog.getByTestId('location-send').click()
  await expect(dialog).toHaveCount(0)
  await expect(
    room
      .getByTestId('message')
      .filter({ has: page.getByTestId('location') })
      .filter({ hasText: name }),
  ).toBeVisible()
}

test('a WhatsApp customer’s voice note plays in the room; the agent’s location reaches the customer', async ({ page, browser }) => {
  const waId = `55119871${String(Date.now()).slice(-5)}`
  const name = 'Rita Voz'
  const sim = new SimulatorClient(SIM)
  await agentConsole(page)
  const customerContext = await browser.newContext({ locale: 'pt-BR' })
  const customer = await customerContext.newPage()
  await customerPage(customer, waId, name)
  await customerWrites(customer, `Oi, vou mandar um áudio ${waId}`)
  const room = await accept(page, name)

  // The customer records a voice note (OGG/Opus, as WhatsApp sends them): the room's player loads it and plays it.
  await sim.send(DEMO_WHATSAPP.phone_number_id, waId, {
    type: 'audio',
    audio: { voice: true },
    file: { data: VOICE, mime_type: 'audio/ogg; codecs=opus', filename: 'voice.ogg' },
  })
  const player = room.getByTestId('audio-player')
  await expect(player).toBeVisible({ timeout: 20_000 })
  await expect(player).toHaveAttribute('src', /.+/, { timeout: 20_000 })
  const played = await player.evaluate(async (element) => {
    const audio = element as HTMLAudioElement
    audio.muted = true
    await audio.play()
    await new Promise((resolve) => setTimeout(resolve, 300))
    return { duration: audio.duration, time: audio.currentTime, error: audio.error?.code ?? null }
  })
  expect(played.error).toBeNull()
  expect(played.duration).toBeGreaterThan(0)
  expect(played.time).toBeGreaterThan(0)

  // The agent shares the shop's address: the customer gets a WhatsApp location.
  await shareLocation(page, '-23.561414, -46.655881', 'Loja Paulista')
  const place = customer.locator('.msg.out a.card', { hasText: 'Loja Paulista' })
  await expect(place).toBeVisible({ timeout: 20_000 })
  await expect(place).toHaveAttribute('href', /mlat=-23\.561414&mlon=-46\.655881/)
  await shot(page, 'chat-live-voice-location')
  await shot(customer, 'chat-live-customer-location')
  await customerContext.close()
})

test('website chat: the visitor’s typing shows in the room and the agent’s in the widget; the agent’s location arrives as a map link', async ({
  page,
  browser,
}) => {
  await agentConsole(page)
  const visitorContext = await browser.newContext({ locale: 'pt-BR' })
  const visitor = await visitorContext.newPage()
  await visitor.goto('/widget-demo')
  const widget = visitor.locator('#atende-chat-widget')
  const name = `Vera Digita ${String(Date.now()).slice(-5)}`
  await widget.locator('button.launcher').click()
  await widget.locator('input[name=name]').fill(name)
  await widget.locator('input[name=email]').fill('vera.digita@example.com')
  await widget.locator('button.primary').click()
  await widget.locator('textarea').fill('Boa tarde! Tenho uma dúvida.')
  await widget.locator('textarea').press('Enter')
  const room = await accept(page, name)

  // The visitor types: the room says so under its title (and the row in the list).
  await widget.locator('textarea').pressSequentially('Qual o end', { delay: 40 })
  await expect(room.getByTestId('room-typing')).toHaveText('digitando…', { timeout: 10_000 })
  await shot(page, 'chat-live-visitor-typing')
  // Their message ends it.
  await widget.locator('textarea').pressSequentially('ereço?', { delay: 20 })
  await widget.locator('textarea').press('Enter')
  await expect(room.getByTestId('message').filter({ hasText: 'Qual o endereço?' })).toBeVisible()
  await expect(room.getByTestId('room-typing')).toHaveCount(0)

  // The agent types: the widget shows it.
  await room.getByTestId('message-text').pressSequentially('Fica na', { delay: 40 })
  const typingLine = widget.locator('.typing')
  await expect(typingLine).toBeVisible({ timeout: 10_000 })
  await expect(typingLine).toContainText(/digitando/)
  await shot(visitor, 'chat-live-widget-agent-typing')
  await room.getByTestId('message-text').fill('')

  // The agent's location: the visitor gets the place with its map link.
  await shareLocation(page, '-22.951916, -43.210487', 'Loja Cristo')
  const row = widget.locator('.row.agent', { hasText: 'Loja Cristo' })
  await expect(row).toBeVisible({ timeout: 20_000 })
  await expect(row).toContainText('openstreetmap.org/?mlat=-22.951916&mlon=-43.210487')
  await expect(typingLine).toBeHidden()
  await shot(visitor, 'chat-live-widget-location')
  await visitorContext.close()
})

/** The `<audio>` plays (muted): its duration is known and its time moves. */
async function plays(player: Locator) {
  await expect(player).toHaveAttribute('src', /.+/, { timeout: 20_000 })
  const played = await player.evaluate(async (element) => {
    const audio = element as HTMLAudioElement
    audio.muted = true
    await audio.play()
    if (audio.currentTime === 0) await new Promise<void>((resolve) => audio.addEventListener('timeupdate', () => audio.currentTime > 0 && resolve()))
    return { duration: audio.duration, time: audio.currentTime, error: audio.error?.code ?? null }
  })
  expect(played.error).toBeNull()
  expect(played.duration).toBeGreaterThan(0)
  expect(played.time).toBeGreaterThan(0)
}

test('agent1 records a voice note the customer gets as a WhatsApp voice note; a supervisor watches the room, plays it and transfers the room to agent2', async ({
  page,
  browser,
}) => {
  const waId = `55119872${String(Date.now()).slice(-5)}`
  const name = 'Paulo Supervisionado'
  await agentConsole(page)
  const customerContext = await browser.newContext({ locale: 'pt-BR' })
  const customer = await customerContext.newPage()
  await customerPage(customer, waId, name)
  await customerWrites(customer, `Preciso falar com alguém ${waId}`)
  const room = await accept(page, name)
  await room.getByTestId('message-text').fill('Olá Paulo, estou verificando.')
  await room.getByTestId('message-text').press('Enter')
  await expect(customer.locator('.msg.out', { hasText: 'Olá Paulo, estou verificando.' })).toBeVisible()

  // agent1 records a voice note (Chromium's fake microphone; WebM/Opus, remuxed by the server into Ogg Opus): the
  // clock runs while recording; the customer's phone gets a voice note that plays, and so does the agent's bubble.
  await room.getByTestId('record-button').click()
  await expect(room.getByTestId('recording-time')).toHaveText('0:01', { timeout: 15_000 })
  await shot(page, 'chat-live-recording')
  await room.getByTestId('record-button').click()
  await expect(room.getByTestId('recording-time')).toHaveCount(0)
  const voiceNote = customer.locator('.msg.out', { hasText: 'Mensagem de voz' })
  await expect(voiceNote).toBeVisible({ timeout: 20_000 })
  await plays(voiceNote.locator('audio'))
  await shot(customer, 'chat-live-customer-voice-note')
  const mine = room.getByTestId('message').filter({ has: page.getByTestId('audio-player') })
  await expect(mine).toHaveCount(1)
  await plays(mine.getByTestId('audio-player'))

  // agent2's console is open (the transfer lands there live).
  const agent2Context = await browser.newContext({ locale: 'pt-BR' })
  const agent2 = await agent2Context.newPage()
  await agentConsole(agent2, '', DEMO.agent2)

  // The supervisor opens the Live list, finds the room by its phone and watches it.
  const supervisorContext = await browser.newContext({ locale: 'pt-BR' })
  const supervisor = await supervisorContext.newPage()
  await signIn(supervisor, DEMO.supervisor)
  await supervisor.goto('/chats')
  await supervisor.getByTestId('open-live').click()
  const live = supervisor.getByTestId('live-dialog')
  await expect(live).toBeVisible()
  await live.getByRole('textbox').first().fill(waId)
  const row = live.getByRole('row').filter({ hasText: waId })
  await expect(row).toHaveCount(1, { timeout: 10_000 })
  await expect(row).toContainText('Em atendimento')
  await shot(supervisor, 'chat-live-supervisor-list')
  await row.getByTestId('open-room').click()
  const viewer = supervisor.getByTestId('room-viewer')
  await expect(viewer.getByTestId('message').filter({ hasText: 'Olá Paulo, estou verificando.' })).toBeVisible()
  // The agent's voice note plays in the supervisor's browser too.
  await plays(viewer.getByTestId('audio-player'))

  // The customer writes again: the viewer shows it without a reload (its 5 s beat).
  const next = 'Ainda estou aguardando, por favor.'
  await customerWrites(customer, next)
  await expect(viewer.getByTestId('message').filter({ hasText: next })).toBeVisible({ timeout: 15_000 })
  await shot(supervisor, 'chat-live-supervisor-viewer')

  // Transfer to agent2: agent1's console loses the room, agent2's gets it with the whole conversation.
  await viewer.getByTestId('viewer-transfer').click()
  const transfer = supervisor.getByTestId('transfer-dialog')
  await transfer.getByRole('combobox', { name: 'Agente ou fila' }).click()
  await supervisor.getByRole('option', { name: 'Agente: Bruno Agente', exact: true }).click()
  await expect(transfer.getByRole('combobox', { name: 'Agente ou fila' })).toContainText('Bruno Agente')
  await shot(supervisor, 'chat-live-supervisor-transfer')
  await transfer.getByRole('button', { name: 'Transferir' }).click()
  await expect(transfer).toHaveCount(0)
  await expect(page.locator('[data-testid="room-row"]', { hasText: name })).toHaveCount(0, { timeout: 20_000 })
  const theirs = agent2.locator('[data-testid="room-row"]', { hasText: name })
  await expect(theirs).toBeVisible({ timeout: 20_000 })
  await theirs.click()
  const pane = agent2.getByTestId('room-pane')
  // The conversation before the transfer (loaded with the room), the voice note, and the transfer's line.
  await expect(pane.getByTestId('message').filter({ hasText: 'Olá Paulo, estou verificando.' })).toBeVisible()
  await expect(pane.getByTestId('message').filter({ hasText: next })).toBeVisible()
  await expect(pane.getByTestId('audio-player')).toHaveCount(1)
  await expect(pane.getByTestId('message-system').filter({ hasText: 'Conversa transferida para Bruno Agente' })).toBeVisible()
  await pane.getByTestId('message-text').fill('Oi Paulo, aqui é da equipe 2.')
  await pane.getByTestId('message-text').press('Enter')
  await expect(customer.locator('.msg.out', { hasText: 'Oi Paulo, aqui é da equipe 2.' })).toBeVisible({ timeout: 20_000 })
  await shot(agent2, 'chat-live-agent2-transferred')

  // The room's history keeps the transfer: the supervisor's viewer shows it.
  await viewer.getByTestId('viewer-refresh').click()
  await expect(viewer.getByTestId('message-system').filter({ hasText: 'Conversa transferida para Bruno Agente' })).toBeVisible()

  await supervisorContext.close()
  await agent2Context.close()
  await customerContext.close()
})
