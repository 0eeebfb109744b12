import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { apiPath } from '../contract/entities/keys.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH, FAKE_MEDIA_ARGS } from './chromium.ts'
import { E2E_PORT, E2E_SIP_PORT, E2E_TRUNK_PORT } from './env.ts'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { apiAs } from './chat-helpers.ts'
import { startBaresip, wavLevel } from './telephony/baresip.ts'
import { audioStats, CAPTURE_PEER_CONNECTIONS, expectAudioFlowing } from './telephony/webrtc.ts'

// Whisper and barge on an agent's direct call, end to end (server/media/README.md "Monitoring"; the browser's side in
// src/features/webphone/sipPhone.ts): agent1 dials an outside number from the webphone (baresip, the customer,
// answers and dumps what it hears); the supervisor, in a browser of her own whose fake microphone is a steady 1 kHz
// sine, listens from the wallboard's menu, answers the monitoring call in her webphone, then whispers and barges from
// the wallboard's bar. agent1 is muted throughout the coaching, so whatever the customer hears then is the supervisor:
// silence in whisper, the sine in barge (agent1's browser mixes it into the call's track), silence again back in
// listen, and agent1's own microphone once unmuted.

const OUTSIDE = '01187654321'
/** The supervisor's extension for this test (the demo supervisor has none). */
const SUPERVISOR_EXTENSION = '10090'
/** Sample peak (of 32767) above which the customer hears somebody; the sine is sent at half scale. */
const HEARD = 2000
/** Below it, near-silence (codec noise on a muted track is a few units). */
const SILENT = 300

const card = (page: Page, username: string) => page.locator(`[data-testid="wallboard-agent"][data-agent="${username}"]`)

async function openPanel(page: Page) {
  if ((await page.getByTestId('webphone-panel').count()) === 0) await page.getByTestId('webphone-button').click()
  await expect(page.getByTestId('webphone-panel')).toBeVisible()
}

test('a supervisor whispers to agent1 and barges in on an outside call: the customer hears her only in barge', async ({ browser }) => {
  test.setTimeout(120_000)
  const dir = mkdtempSync(join(tmpdir(), `atende-e2e-monitor-${E2E_PORT}-`))
  // The supervisor's voice: 1 kHz at half scale in 0.4 s bursts (a steady tone is what the browser's noise suppression
  // takes out of a microphone), looped by Chromium's fake capture device.
  const sine = join(dir, 'supervisor-1khz.wav')
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', sine, 'synth', '0.4', 'sine', '1000', 'vol', '0.5', 'pad', '0', '0.4', 'repeat', '12'])

  const admin = await apiAs(browser, DEMO.admin)
  const list = async (path: string) => ((await admin.send('GET', `${path}?limit=200`)) as { results: Record<string, unknown>[] }).results
  const trunkId = (await list(apiPath('pabx.trunks'))).find((row) => row.description === 'Tronco de teste (baresip)')!.id
  await admin.send('PATCH', `${apiPath('pabx.trunks')}${trunkId}/`, { port: E2E_TRUNK_PORT })
  const teamId = (await list(apiPath('service.teams'))).find((row) => row.name === 'Equipe Demo')!.id
  // No after-service (left off, as the telephony specs leave it: agent1's call would otherwise put agent1 in it later).
  await admin.send('PATCH', `${apiPath('service.teams')}${teamId}/`, { enable_after_service: false })
  // The supervisor's webphone: an extension of her own, taken back at the end.
  const supervisorId = (await list(apiPath('business.users'))).find((row) => row.username === 'supervisor')!.id
  const device = (await admin.send('POST', apiPath('pabx.devices'), {
    description: 'Supervisora (e2e monitoria)',
    username: SUPERVISOR_EXTENSION,
    secret: 'monitoria-e2e-2025',
  })) as { id: number }
  await admin.send('PATCH', `${apiPath('business.users')}${supervisorId}/`, { device: device.id })

  const trunk = await startBaresip({
    sipPort: E2E_TRUNK_PORT,
    ctrlPort: E2E_TRUNK_PORT + 5,
    rtpPorts: `${E2E_TRUNK_PORT + 30000}-${E2E_TRUNK_PORT + 30099}`,
    user: '5511987654321',
    aliases: [OUTSIDE],
    outboundProxy: `sip:127.0.0.1:${E2E_SIP_PORT};transport=udp`,
  })
  const supervisorBrowser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS, `--use-file-for-fake-audio-capture=${sine}`],
  })
  const agentContext = await browser.newContext({ permissions: ['microphone', 'notifications'] })
  const supervisorContext = await supervisorBrowser.newContext({
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'pt-BR',
    viewport: { width: 1440, height: 900 },
    permissions: ['microphone', 'notifications'],
  })
  try {
    await agentContext.addInitScript(CAPTURE_PEER_CONNECTIONS)
    await supervisorContext.addInitScript(CAPTURE_PEER_CONNECTIONS)
    const agent = await agentContext.newPage()
    const board = await supervisorContext.newPage()
    for (const [page, name] of [
      [agent, 'agent1'],
      [board, 'supervisor'],
    ] as const) {
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') console.log(`[${name}] ${message.text()}`)
      })
      page.on('response', async (response) => {
        if (response.status() >= 400 && !response.url().includes('/tab-form/'))
          console.log(`[${name}] ${response.status()} ${response.url()} ${await response.text().catch(() => '')}`)
      })
    }
    await signIn(agent, DEMO.agent1)
    await signIn(board, DEMO.supervisor)
    await board.goto('/dashboards')
    await expect(agent.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })
    await expect(board.getByTestId('webphone-button')).toHaveAttribute('data-registration', 'registered', { timeout: 20_000 })

    // 1. agent1 calls the customer through the demo outbound route; the customer's phone answers.
    const before = trunk.heard().map((file) => file.file)
    await openPanel(agent)
    await agent.getByTestId('webphone-dialpad').getByRole('textbox').fill(OUTSIDE)
    await agent.getByTestId('webphone-dial').click()
    const status = agent.getByTestId('webphone-ready').getByTestId('webphone-call-status')
    await expect(status).toHaveText('Em ligação', { timeout: 15_000 })
    await expectAudioFlowing(agent)
    // What the customer hears, as baresip dumps it (read while it is written).
    await expect.poll(() => trunk.heard().filter((file) => !before.includes(file.file)).length, { timeout: 10_000 }).toBe(1)
    const dump = join(trunk.recordings, trunk.heard().find((file) => !before.includes(file.file))!.file)
    const heardFrom = (from: number) => wavLevel(dump, { from, live: true })
    /** Waits for `seconds` more of what the customer hears, and gives its level. */
    const nextHeard = async (seconds: number) => {
      const from = heardFrom(0).seconds
      await expect.poll(() => heardFrom(from).seconds - from, { timeout: 10_000, message: 'seconds the customer heard' }).toBeGreaterThan(seconds)
      const level = heardFrom(from)
      console.log(`customer heard ${(level.seconds - from).toFixed(1)} s, peak ${level.peak}`)
      return level
    }
    // agent1's microphone (Chromium's beep) reaches the customer; muted, nothing does.
    await expect.poll(async () => (await nextHeard(1)).peak, { timeout: 10_000, message: "agent1's microphone at the customer" }).toBeGreaterThan(HEARD)
    await agent.getByTestId('webphone-mute').click()
    await expect(agent.getByTestId('webphone-unmute')).toBeVisible()
    await expect.poll(async () => (await nextHeard(1)).peak, { timeout: 10_000, message: 'muted agent1 at the customer' }).toBeLessThan(SILENT)

    // 2. The supervisor listens from agent1's menu on the wallboard and answers the monitoring call in her webphone.
    const agentCard = card(board, 'agent1')
    await expect(agentCard).toHaveAttribute('data-state', 'onCall', { timeout: 10_000 })
    await agentCard.getByTestId('wallboard-agent-menu').click()
    await board.getByTestId('wallboard-action-listen').click()
    const bar = board.getByTestId('wallboard-monitor')
    await expect(bar).toBeVisible()
    const ringing = board.getByTestId('webphone-ringing')
    await expect(ringing).toBeVisible({ timeout: 15_000 })
    // The monitoring call rings as the agent listened to (not as the media app's 'atende-media').
    await expect(ringing.getByTestId('webphone-ringing-phone')).toHaveText('Ana')
    await expect(ringing.getByTestId('caller-client-unknown')).toHaveCount(0)
    await shot(board, 'monitor-supervisor-ringing-pt-BR')
    await ringing.getByTestId('webphone-ringing-answer').click()
    await expect(bar).toHaveAttribute('data-mode', 'listen', { timeout: 15_000 })
    await expect(board.getByTestId('wallboard-monitor-listen-only')).toHaveCount(0)
    // Listen is never shown to the agent.
    await expect(agent.getByTestId('webphone-coaching')).toHaveCount(0)

    // 3. Whisper: agent1 is told and hears the supervisor on a second leg; the customer hears nothing of her.
    await board.getByTestId('wallboard-monitor-whisper').click()
    await expect(bar).toHaveAttribute('data-mode', 'whisper')
    const chip = agent.getByTestId('webphone-coaching')
    await expect(chip).toHaveAttribute('data-mode', 'whisper', { timeout: 10_000 })
    await expect(chip).toHaveText('Supervisor Sofia está orientando você')
    // The coaching leg is agent1's newest peer connection: the supervisor's sine arrives on it.
    await expectAudioFlowing(agent)
    expect((await nextHeard(1.5)).peak, 'the customer hears the supervisor in whisper').toBeLessThan(SILENT)
    await shot(agent, 'monitor-agent-whisper-pt-BR')
    await agent.screenshot({ path: 'e2e/screenshots/monitor-agent-chip-whisper-pt-BR.png', clip: { x: 440, y: 0, width: 926, height: 64 } })

    // Barge: agent1's browser sends the customer its (muted) microphone plus the supervisor.
    await board.getByTestId('wallboard-monitor-barge').click()
    await expect(bar).toHaveAttribute('data-mode', 'barge')
    await expect(chip).toHaveAttribute('data-mode', 'barge', { timeout: 10_000 })
    await expect(chip).toHaveText('Supervisor Sofia entrou na chamada')
    await expect.poll(async () => (await nextHeard(1)).peak, { timeout: 10_000, message: 'the supervisor at the customer in barge' }).toBeGreaterThan(HEARD)
    await shot(agent, 'monitor-agent-barge-pt-BR')
    await shot(board, 'monitor-supervisor-barge-pt-BR')
    // Close-ups of what each sees: agent1's top bar with the chip, the supervisor's bar.
    await agent.screenshot({ path: 'e2e/screenshots/monitor-agent-chip-barge-pt-BR.png', clip: { x: 440, y: 0, width: 926, height: 64 } })
    await bar.screenshot({ path: 'e2e/screenshots/monitor-bar-barge-pt-BR.png' })

    // Back to listen: the leg ends, the chip goes, the call is sent agent1's own (muted) microphone again.
    await board.getByTestId('wallboard-monitor-listen').click()
    await expect(bar).toHaveAttribute('data-mode', 'listen')
    await expect(chip).toHaveCount(0, { timeout: 10_000 })
    await expect.poll(async () => (await nextHeard(1)).peak, { timeout: 10_000, message: 'the customer back in listen, agent1 muted' }).toBeLessThan(SILENT)
    await openPanel(agent)
    await agent.getByTestId('webphone-unmute').click()
    await expect.poll(async () => (await nextHeard(1)).peak, { timeout: 10_000, message: "agent1's microphone at the customer again" }).toBeGreaterThan(HEARD)

    // Stop: the bar goes; the call goes on between agent1 and the customer; agent1 hangs up.
    await board.getByTestId('wallboard-monitor-stop').click()
    await expect(bar).toHaveCount(0, { timeout: 10_000 })
    await expect(board.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
    // agent1's coaching leg is closed: one peer connection left, the customer's.
    await expect.poll(async () => (await audioStats(agent)).length, { timeout: 10_000 }).toBe(1)
    await agent.getByTestId('webphone-hangup').first().click()
    await expect(agent.getByTestId('webphone-ready').getByTestId('webphone-call')).toHaveCount(0, { timeout: 15_000 })
    // Available again (no after-service).
    await expect(agentCard).toHaveAttribute('data-state', 'available', { timeout: 15_000 })
  } finally {
    await agentContext.close()
    await supervisorContext.close()
    await supervisorBrowser.close()
    await trunk.stop()
    await admin
      .send('PATCH', `${apiPath('business.users')}${supervisorId}/`, { device: null })
      .catch((error: unknown) => console.log(`clean-up: ${String(error)}`))
    await admin.send('DELETE', `${apiPath('pabx.devices')}${device.id}/`).catch((error: unknown) => console.log(`clean-up: ${String(error)}`))
    await admin.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
