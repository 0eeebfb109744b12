import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// The supervisor wallboard (/dashboards, issue 19 item 1) against the real server: the supervisor watches agent1 go
// available → paused → available as it happens (the agent's own console reports it), then pauses agent1 from the
// wallboard's menu and takes the pause off again. The floor of 40 agents (e2e/fixtures/wallboard.ts) is on screen.

type Account = { username: string; password: string }

async function apiAs(browser: Browser, account: Account) {
  const context = await browser.newContext()
  const request = context.request
  await request.get('/api/pre-session/')
  const csrf = async () => (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? ''
  const send = async (method: 'GET' | 'POST', path: string, data?: unknown) => {
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
