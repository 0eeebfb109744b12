import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { startBaresip } from './telephony/baresip.ts'
import { CAPTURE_PEER_CONNECTIONS, expectAudioFlowing } from './telephony/webrtc.ts'

// The supervisor wallboard (/dashboards, issue 19 item 1) against the real server: the supervisor watches agent1 go
// available → paused → available as it happens (the agent's own console reports it), then pauses agent1 from the
// wallboard's menu and takes the pause off again. The floor of 40 agents (e2e/fixtures/wallboard.ts) is on screen.

type Account = { username: string; password: string }

async function apiAs(browser: Browser, account: Account) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const csrf = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
  const send = async (method: 'GET' | 'POST' | 'PATCH', path: string, data?: unknown) => {
    const response = await request.fetch(path, { method, data, headers: { 'X-CSRFToken': await csrf() } })
    const text = await response.text()
    if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  await send('POST', '/api/session/login/', account)
  return { send, close: () => context.close() }
}

const card = (page: Page, username: string) => page.locator(`[data-testid="wallboard-agent"][data-agent="${username}"]`)

test('a supervisor watches agent1 go available, paused and available again, and pauses agent1 from the wallboard', async ({ browser }) => {
  test.setTimeout(90_000)
  const supervisorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const board = await supervisorContext.newPage()
  await signIn(board, DEMO.supervisor)
  await board.goto('/dashboards')
  // The floor of 38, agent1 and agent2 (the supervisor joins once her own webphone signs in to the channel).
  await expect(board.getByTestId('wallboard-agent')).not.toHaveCount(0)
  expect(await board.getByTestId('wallboard-agent').count()).toBeGreaterThanOrEqual(40)
  await expect(board.getByTestId('wallboard')).toHaveAttribute('data-stale', 'false')

  // agent1 opens the console: the webphone registers and the console reports available.
  const agentContext = await browser.newContext()
  const agentPage = await agentContext.newPage()
  await signIn(agentPage, DEMO.agent1)
  await expect(agentPage.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
  await expect(card(board, 'agent1')).toHaveAttribute('data-state', 'available', { timeout: 10_000 })

  // agent1 takes a coffee break: the wallboard shows it with its reason, and the time in it ticks.
  const agent = await apiAs(browser, DEMO.agent1)
  const profile = await agent.send('GET', '/api/v1/business/profile/')
  const coffee = (profile.pauses as { id: number; description: string }[]).find((p) => p.description === 'Café')!
  await agent.send('POST', '/api/v1/agent/pause/start/', { pause_id: coffee.id })
  await expect(card(board, 'agent1')).toHaveAttribute('data-state', 'paused')
  await expect(card(board, 'agent1').getByTestId('wallboard-agent-detail')).toContainText('Café')
  const time = card(board, 'agent1').getByTestId('wallboard-agent-time')
  const first = await time.textContent()
  await expect(time).not.toHaveText(first ?? '', { timeout: 5000 })
  await shot(board, 'wallboard-agent1-paused')

  await agent.send('POST', '/api/v1/agent/pause/stop/', {})
  await expect(card(board, 'agent1')).toHaveAttribute('data-state', 'available')

  // The supervisor pauses agent1 from the wallboard: menu, reason, confirmation.
  await card(board, 'agent1').getByTestId('wallboard-agent-menu').click()
  await board.getByTestId('wallboard-action-pause').click()
  const dialog = board.getByTestId('wallboard-action-dialog')
  await expect(dialog.getByTestId('wallboard-action-confirm')).toBeDisabled()
  await dialog.getByTestId('wallboard-pause-select').click()
  await board.getByRole('option', { name: 'Treinamento' }).click()
  await dialog.getByTestId('wallboard-action-confirm').click()
  await expect(card(board, 'agent1')).toHaveAttribute('data-state', 'paused')
  await expect(card(board, 'agent1').getByTestId('wallboard-agent-detail')).toContainText('Treinamento')
  await shot(board, 'wallboard-40-agents')

  // And takes it off.
  await card(board, 'agent1').getByTestId('wallboard-agent-menu').click()
  await board.getByTestId('wallboard-action-unpause').click()
  await board.getByTestId('wallboard-action-confirm').click()
  await expect(card(board, 'agent1')).toHaveAttribute('data-state', 'available')

  // Filters: the state chip and the team select narrow the grid.
  await board.evaluate(() => window.scrollTo(0, 0))
  await board.getByRole('group', { name: 'Resumo por estado' }).getByRole('button', { name: /^Pausa excedida/ }).click()
  await expect(card(board, 'agent1')).toHaveCount(0)
  await expect(board.locator('[data-testid="wallboard-agent"]:not([data-state="exceeded"])')).toHaveCount(0)
  await expect(board.getByTestId('wallboard-agent')).not.toHaveCount(0)
  await agent.close()
  await agentContext.close()
  await supervisorContext.close()
})

// With the real engines the e2e server spawns (Kamailio + rtpengine) and baresip as the demo trunk: agent1 calls an
// outside number from the webphone in Chromium and hangs up; the supervisor's wallboard shows agent1 available, on the
// call (with the number), in after-service once the call ends, available when its time is over, and in the coffee
// break agent1 then takes — each as it happens, from the service socket.
test('a supervisor watches agent1 go from available to a call, to after-service, to a pause, as it happens', async ({ browser }) => {
  test.setTimeout(150_000)
  const OUTSIDE = '01187654321'
  const admin = await apiAs(browser, DEMO.admin)
  const list = async (path: string) => ((await admin.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }).results
  const trunkId = (await list(apiPath('pabx.trunks'))).find((row) => row.description === 'Tronco de teste (baresip)')!.id
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  // A short after-service, timed (the spec's mode), for every call however short.
  const teamId = (await list(apiPath('service.teams'))).find((row) => row.name === 'Equipe Demo')!.id
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, {
    enable_after_service: true,
    duration_of_after_service: 15,
    ignore_after_service_with_duration_shorter_than: 0,
    after_service_mode: 'spec',
  })
  const trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: '5511987654321',
    aliases: [OUTSIDE],
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
  const supervisorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const agentContext = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  try {
    const board = await supervisorContext.newPage()
    await signIn(board, DEMO.supervisor)
    await board.goto('/dashboards')
    await expect(board.getByTestId('wallboard')).toHaveAttribute('data-stale', 'false', { timeout: 20_000 })

    await agentContext.addInitScript(CAPTURE_PEER_CONNECTIONS)
    const agentPage = await agentContext.newPage()
    await signIn(agentPage, DEMO.agent1)
    await expect(agentPage.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
    const agent1 = card(board, 'agent1')
    await expect(agent1).toHaveAttribute('data-state', 'available', { timeout: 10_000 })
    // agent1's API session for the break below, signed in now so that its sign-in does not eat the after-service.
    const agent = await apiAs(browser, DEMO.agent1)
    const profile = await agent.send('GET', '/api/v1/business/profile/')
    const coffee = (profile.pauses as { id: number; description: string }[]).find((p) => p.description === 'Café')!

    // The call: dialled from the webphone, answered by the trunk, audio flowing — on the wallboard with its number.
    if ((await agentPage.getByTestId('webphone-panel').count()) === 0) await agentPage.getByTestId('webphone-button').click()
    await agentPage.getByTestId('webphone-dialpad').getByRole('textbox').fill(OUTSIDE)
    await agentPage.getByTestId('webphone-dial').click()
    await expect(agentPage.getByTestId('webphone-ready').getByTestId('webphone-call-status')).toHaveText('Em ligação', { timeout: 15_000 })
    await expect(agent1).toHaveAttribute('data-state', 'onCall', { timeout: 10_000 })
    await expect(agent1.getByTestId('wallboard-agent-detail')).toContainText(OUTSIDE.slice(-8))
    await expectAudioFlowing(agentPage)
    await shot(board, 'wallboard-agent1-on-call')

    // agent1 hangs up (as e2e/telephony.spec.ts does for calls out): after-service, counting down.
    if ((await agentPage.getByTestId('webphone-panel').count()) === 0) await agentPage.getByTestId('webphone-button').click()
    await agentPage.getByTestId('webphone-hangup').first().click()
    await expect(agentPage.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
    await expect(agent1).toHaveAttribute('data-state', 'afterService', { timeout: 10_000 })
    // A coffee break asked for during the after-service is refused (its own pause report holds the agent); once the
    // after-service's time is over agent1 is available again and the break starts.
    await expect(agent1.getByTestId('wallboard-agent-detail')).toContainText(/termina em \d+:\d\d|Equipe Demo/)
    const early = await agent.send('POST', '/api/v1/agent/pause/start/', { pause_id: coffee.id })
    await shot(board, 'wallboard-agent1-after-service')
    if (early.success) {
      // The after-service ended already (a loaded machine): the break runs.
      await expect(agent1).toHaveAttribute('data-state', 'paused', { timeout: 10_000 })
    } else {
      expect(early).toMatchObject({ success: false, code: 2 })
      await expect(agent1).toHaveAttribute('data-state', 'available', { timeout: 45_000 })
      expect((await agent.send('POST', '/api/v1/agent/pause/start/', { pause_id: coffee.id })).success).toBe(true)
      await expect(agent1).toHaveAttribute('data-state', 'paused', { timeout: 10_000 })
    }
    await expect(agent1.getByTestId('wallboard-agent-detail')).toContainText('Café')
    await shot(board, 'wallboard-agent1-paused-after-call')
    await agent.send('POST', '/api/v1/agent/pause/stop/', {})
    await expect(agent1).toHaveAttribute('data-state', 'available', { timeout: 10_000 })
    await agent.close()
  } finally {
    await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { duration_of_after_service: 30 }).catch(() => undefined)
    await admin.close()
    await agentContext.close()
    await supervisorContext.close()
    await trunk.stop()
  }
})
