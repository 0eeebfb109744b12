import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn, toastsShown } from './helpers.ts'

// Agent presence against the real server: one serving tab per agent, the pause widget (enter, swap, exceeded with a
// justification, a supervisor's pause), the screen lock, the audio prompt, remote logout and the machine visualizer.
// Setup and checks go through the real API with the same sessions a browser has (no test-only server code).

type Account = { username: string; password: string }

/** An API session of its own (cookie jar), sending the CSRF header the server asks of cookie sessions. */
async function apiAs(browser: Browser, account: Account) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const csrf = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
  const send = async (method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) => {
    const response = await request.fetch(path, { method, data, headers: { 'X-CSRFToken': await csrf() } })
    const text = await response.text()
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  await send('POST', '/api/session/login/', account)
  return { send, close: () => context.close() }
}

type Api = Awaited<ReturnType<typeof apiAs>>

/** Ends whatever pause the user has (a justification covers an exceeded one), so tests start from no pause. */
async function endPause(api: Api) {
  const pause = await api.send('GET', '/api/v1/agent/pause/check/')
  if (pause) await api.send('POST', '/api/v1/agent/pause/stop/', { reason: 'e2e: limpeza' })
}

const pauseButton = (page: Page) => page.getByTestId('pause-button')

async function choosePause(page: Page, name: string) {
  await page.getByTestId('pause-select').click()
  await page.getByRole('option', { name }).click()
}

test('two tabs of one agent: the second shows the placeholder, and "Atender aqui" takes the service over', async ({ context }) => {
  const first = await context.newPage()
  await signIn(first, DEMO.agent1)
  // The first tab serves (its webphone registers) before the second opens: otherwise both race for the service.
  await expect(first.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  const second = await context.newPage()
  await second.goto('/')
  const placeholder = second.getByTestId('service-ownership')
  await expect(placeholder).toContainText('Webphone esta em execução em outra aba ou janela.')
  await expect(first.getByTestId('service-ownership')).toHaveCount(0)
  await shot(second, 'presence-other-tab')

  await placeholder.getByTestId('service-here').click()
  await expect(first.getByTestId('service-ownership')).toContainText('Solicitação de atendimento em outra aba, está será atualizada.')
  await shot(first, 'presence-taken-over')
  // The taken-over tab reloads after 3 s and finds the other one serving; the one that asked serves after its reload.
  await expect(first.getByTestId('service-ownership')).toContainText('Webphone esta em execução em outra aba ou janela.', { timeout: 10_000 })
  await expect(second.getByTestId('service-ownership')).toHaveCount(0)
  await expect(second.getByTestId('lock-screen')).toBeVisible()
})

test('pause: enter, swap, then leave an exceeded pause with a justification', async ({ page, browser }) => {
  const admin = await apiAs(browser, DEMO.admin)
  const agent = await apiAs(browser, DEMO.agent2)
  await endPause(agent)
  // A pause type whose maximum passes in a second.
  const quick = `Relâmpago ${Date.now() % 100000}`
  await admin.send('POST', '/api/v1/service/pauses/', {
    description: quick,
    is_active: true,
    maximum_duration: 1,
    agent_can_start: true,
    enable_webphone: true,
    enable_webchat: true,
  })

  await signIn(page, DEMO.agent2)
  await pauseButton(page).click()
  await choosePause(page, 'Café')
  await page.getByTestId('pause-start').click()
  await expect(page.getByTestId('pause-timer')).toHaveText(/^00:00:0\d$/)
  await expect(pauseButton(page)).toContainText('Café')
  await expect(page.getByTestId('pause-timer')).not.toHaveText('00:00:00', { timeout: 10_000 })
  await shot(page, 'presence-paused')

  await pauseButton(page).click()
  await page.getByTestId('pause-swap').click()
  await choosePause(page, quick)
  await shot(page, 'presence-swap-menu')
  await page.getByTestId('pause-confirm').click()
  await expect(pauseButton(page)).toContainText(quick)
  const running = await agent.send('GET', '/api/v1/agent/pause/check/')
  expect(running).toMatchObject({ description: quick, maximum_duration: 1 })

  // Past its 1 s maximum (the clock may skip a second when the server's count re-syncs it; a busy machine may be late).
  await expect(page.getByTestId('pause-timer')).toHaveText(/^00:00:(0[2-9]|[1-5]\d)$/, { timeout: 15_000 })
  await pauseButton(page).click()
  await expect(page.getByTestId('pause-stop')).toHaveText('Encerrar pausa')
  await shot(page, 'presence-pause-menu')
  await page.getByTestId('pause-stop').click()
  const dialog = page.getByTestId('pause-exceeded')
  await expect(dialog).toContainText('Pausa excedente')
  await expect(dialog.getByTestId('pause-justify')).toBeDisabled()
  await dialog.locator('textarea[name="reason"]').fill('Cliente retornou a ligação durante a pausa')
  await shot(page, 'presence-exceeded')
  await dialog.getByTestId('pause-justify').click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('pause-timer')).toHaveCount(0)
  expect(await agent.send('GET', '/api/v1/agent/pause/check/')).toBeNull()
  await admin.close()
  await agent.close()
})

test('a pause with lock_screen locks; the password unlocks; "Bloquear tela" locks by hand', async ({ page, browser }) => {
  const agent = await apiAs(browser, DEMO.agent1)
  await endPause(agent)
  await signIn(page, DEMO.agent1)
  await pauseButton(page).click()
  await choosePause(page, 'Almoço')
  await page.getByTestId('pause-start').click()

  const lock = page.getByTestId('screen-lock')
  await expect(lock).toContainText('Pausado')
  await expect(lock.getByTestId('screen-lock-started')).toContainText(/Início da pausa: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/)
  expect((await lock.boundingBox())!.width).toBeLessThanOrEqual(300)
  await lock.locator('input[name="password"]').fill('senha-errada1')
  await lock.getByTestId('screen-lock-submit').click()
  await expect(lock).toContainText('Senha incorreta')
  await shot(page, 'presence-lock-paused')
  await lock.locator('input[name="password"]').fill(DEMO.agent1.password)
  await lock.getByTestId('screen-lock-submit').click()
  await expect(lock).toHaveCount(0)
  await expect(pauseButton(page)).toContainText('Almoço')

  await pauseButton(page).click()
  await page.getByTestId('pause-stop').click()
  await expect(page.getByTestId('pause-timer')).toHaveCount(0)

  await page.getByTestId('lock-screen').click()
  await expect(lock).toContainText('Tela bloqueada')
  await expect(lock.getByTestId('screen-lock-started')).toHaveCount(0)
  await shot(page, 'presence-lock-manual')
  await lock.locator('input[name="password"]').fill(DEMO.agent1.password)
  await lock.getByTestId('screen-lock-submit').click()
  await expect(lock).toHaveCount(0)
  await agent.close()
})

test("a supervisor's pause shows the notice and the timer; the supervisor's unpause ends it", async ({ page, browser }) => {
  const agent = await apiAs(browser, DEMO.agent2)
  await endPause(agent)
  const supervisor = await apiAs(browser, DEMO.supervisor)
  await signIn(page, DEMO.agent2)
  await expect(pauseButton(page)).toBeVisible()
  const me = await agent.send('GET', '/api/v1/business/profile/')
  const coffee = (me.pauses as { id: number; description: string }[]).find((pause) => pause.description === 'Café')!

  const answer = await supervisor.send('POST', '/api/v1/agent/supervisor/pause/', { user_id: me.id, pause_id: coffee.id })
  expect(answer).toMatchObject({ success: true })
  await expect(page.getByTestId('pause-timer')).toHaveText(/^00:00:0\d$/)
  const toasts = page.locator('[role="status"][aria-live="polite"]')
  await expect(toasts.getByText('Você foi pausado por um supervisor')).toBeVisible()
  await expect(toasts.getByText('Você foi pausado por um supervisor')).toHaveCount(0, { timeout: 15_000 })
  await pauseButton(page).click()
  await expect(page.getByTestId('paused-by-supervisor')).toBeVisible()
  await shot(page, 'presence-supervisor-pause')
  await page.keyboard.press('Escape')

  await supervisor.send('POST', '/api/v1/agent/supervisor/unpause/', { user_id: me.id })
  await expect(page.getByTestId('pause-timer')).toHaveCount(0)
  await supervisor.close()
  await agent.close()
})

test('the audio prompt appears when the browser blocks playback, and "Permitir" closes it', async ({ page }) => {
  await page.addInitScript(() => {
    HTMLMediaElement.prototype.play = () => Promise.reject(new DOMException('blocked', 'NotAllowedError'))
  })
  await signIn(page, DEMO.agent1)
  const dialog = page.getByTestId('audio-permission')
  await expect(dialog).toContainText('Permitir áudio')
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(400)
  await shot(page, 'presence-audio')
  await dialog.getByTestId('audio-allow').click()
  await expect(dialog).toHaveCount(0)
})

/** A fresh agent of its own (group Agentes), so a signed-out session spoils no other test: its account and id. */
async function newAgent(browser: Browser, name: string) {
  const admin = await apiAs(browser, DEMO.admin)
  const groups = await admin.send('GET', '/api/v1/business/groups/?search=Agentes')
  const group = (groups.results as { id: number; name: string }[]).find((g) => g.name === 'Agentes')!
  const username = `${name}${Date.now() % 100000}`
  const account = { username, password: 'primeira2025' }
  const created = await admin.send('POST', '/api/v1/business/users/', {
    username,
    password: account.password,
    first_name: 'Rita',
    last_name: 'Remota',
    is_active: true,
    groups: [group.id],
  })
  await admin.close()
  return { account, id: created.id as number }
}

const REMOTE_LOGOUT_NOTICE = 'Comando recebido, você será deslogado em 15 segundos'

test('a remote logout shows the notice and signs the agent out 15 s later', async ({ page, browser }) => {
  test.setTimeout(60_000)
  // The trigger here is a password change from another session, which ends this one.
  const { account } = await newAgent(browser, 'remoto')
  await signIn(page, account)
  await expect(page.getByTestId('lock-screen')).toBeVisible()
  const elsewhere = await apiAs(browser, account)
  await elsewhere.send('POST', '/api/v1/business/profile/change-password/', {
    old_password: account.password,
    new_password1: 'segunda2025',
    new_password2: 'segunda2025',
  })
  await expect(page.getByText(REMOTE_LOGOUT_NOTICE)).toBeVisible()
  await toastsShown(page)
  await shot(page, 'presence-remote-logout')
  await expect(page).toHaveURL(/\/login/, { timeout: 20_000 })
  await elsewhere.close()
})

test("a supervisor's remote logout command shows the notice and signs the agent out 15 s later", async ({ page, browser }) => {
  test.setTimeout(60_000)
  const { account, id } = await newAgent(browser, 'deslogado')
  await signIn(page, account)
  await expect(page.getByTestId('lock-screen')).toBeVisible()

  const supervisor = await apiAs(browser, DEMO.supervisor)
  const sentAt = Date.now()
  expect(await supervisor.send('POST', '/api/v1/agent/supervisor/logout/', { user_id: id })).toMatchObject({ success: true })
  await expect(page.getByText(REMOTE_LOGOUT_NOTICE)).toBeVisible()
  await toastsShown(page)
  await shot(page, 'presence-supervisor-logout')
  // Still at work well into the countdown: the sign-out waits the whole 15 s.
  await page.waitForTimeout(Math.max(0, sentAt + 13_000 - Date.now()))
  await expect(page).not.toHaveURL(/\/login/)
  await expect(page.getByText(REMOTE_LOGOUT_NOTICE)).toBeVisible()
  await expect(page).toHaveURL(/\/login/, { timeout: 10_000 })
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual(15_000)
  // Signed out for real: the session no longer opens the API.
  const profile = await page.request.get('/api/v1/business/profile/')
  expect(profile.status()).toBe(401)
  await supervisor.close()
})

test('the machine visualizer draws every machine and highlights the live state, for admins only', async ({ page, browser }) => {
  const agentPage = await browser.newPage()
  await signIn(agentPage, DEMO.agent1)
  await expect(menuItem(agentPage, 'machines')).toHaveCount(0)
  await agentPage.close()

  await signIn(page, DEMO.admin)
  await menuItem(page, 'machines').click()
  await expect(page).toHaveURL(/\/machines/)
  const view = page.getByTestId('machine-view')
  await expect(view).toHaveAttribute('data-machine', 'tabOwnership')
  await expect(view.locator('[data-state="serving"]')).toHaveAttribute('data-active', 'true')
  await expect(page.getByTestId('machine-last-event')).toHaveText('START_SERVICE')
  await shot(page, 'machines-tabOwnership')
  for (const name of ['serviceSocket', 'pause', 'screenLock', 'agentStatus', 'webchatStatus']) {
    await page.getByTestId(`machine-tab-${name}`).click()
    await expect(view).toHaveAttribute('data-machine', name)
    await expect(view.locator('[data-active="true"]').first()).toBeVisible()
  }
  // The admin's team signs in to chat on its own (enable_auto_login_webchat) and the chat socket is up: available.
  await expect(page.getByTestId('machine-current')).toHaveText('not_inuse')
  await page.getByTestId('machine-tab-serviceSocket').click()
  await expect(page.getByTestId('machine-current')).toHaveText('connection.socket.connected · remoteLogout.idle')
  await shot(page, 'machines-serviceSocket')
})
