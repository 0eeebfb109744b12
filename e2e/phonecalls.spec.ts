import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { E2E_CALLS } from './fixtures/calls.ts'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn } from './helpers.ts'

// The calls page /phonecalls with the calls e2e/fixtures/calls.ts seeds: what an agent and a supervisor see, the
// call-detail dialog with its steps, and the recording player on the real media path.
const rows = (page: Page) => page.getByTestId('call-row')
// The row of that number exactly (its label ends with it): other specs' calls to 55 11 98765-4321 share the server.
const rowOf = (page: Page, phone: string) => page.locator(`[data-testid="call-row"][aria-label$=" ${phone}"]`)

const TEXTS = {
  'pt-BR': { prefix: '', title: 'Chamadas', answered: 'Atendida', busy: 'Destino ocupado', details: 'Detalhes da chamada', steps: 'Etapas da chamada' },
  'en-US': { prefix: '/en-us', title: 'Calls', answered: 'Answered', busy: 'Destination busy', details: 'Call details', steps: 'Call steps' },
  'es-ES': {
    prefix: '/es-es',
    title: 'Llamadas',
    answered: 'Contestada',
    busy: 'Destino ocupado',
    details: 'Detalles de la llamada',
    steps: 'Etapas de la llamada',
  },
} as const

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`an agent sees their own calls and opens one, without the player (${lang})`, async ({ page }) => {
    await signIn(page, DEMO.agent1, text.prefix)
    await menuItem(page, 'phonecalls').click()
    await expect(page).toHaveURL(new RegExp(`${text.prefix}/phonecalls$`))
    await expect(page.getByRole('heading', { name: text.title })).toBeVisible()
    await expect(rowOf(page, E2E_CALLS.recorded.phone)).toContainText(text.answered)
    await expect(rowOf(page, E2E_CALLS.busy.phone)).toContainText(text.busy)
    await expect(rowOf(page, E2E_CALLS.recorded.phone)).toContainText('00:01:05')
    // An unknown status code is shown raw; another agent's call is not listed.
    await expect(rowOf(page, E2E_CALLS.odd.phone)).toContainText('699')
    await expect(rowOf(page, E2E_CALLS.missed.phone)).toHaveCount(0)
    await shot(page, `phonecalls-agent-${lang}`)
    await rowOf(page, E2E_CALLS.recorded.phone).click()
    const dialog = page.getByTestId('call-detail')
    await expect(dialog.getByText(text.details)).toBeVisible()
    await expect(dialog.getByTestId('call-step')).toHaveCount(2)
    await expect(dialog.getByTestId('recording-player')).toHaveCount(0)
    await shot(page, `phonecalls-agent-detail-${lang}`)
  })

  test(`a supervisor sees the site's calls, filters them and plays a recording (${lang})`, async ({ page }) => {
    await signIn(page, DEMO.supervisor, text.prefix)
    await page.goto(`${text.prefix}/phonecalls`)
    await expect(rowOf(page, E2E_CALLS.missed.phone)).toBeVisible()
    await expect(rowOf(page, E2E_CALLS.recorded.phone)).toBeVisible()
    // The phone search narrows the list (debounced).
    await page.getByRole('searchbox').fill('3333444')
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page).first()).toContainText(E2E_CALLS.busy.phone)
    await page.getByRole('searchbox').fill('')
    await expect(rowOf(page, E2E_CALLS.missed.phone)).toBeVisible()
    await shot(page, `phonecalls-supervisor-${lang}`)

    await rowOf(page, E2E_CALLS.recorded.phone).click()
    const dialog = page.getByTestId('call-detail')
    await expect(dialog.getByTestId('call-step')).toHaveCount(2)
    const player = dialog.getByTestId('recording-player')
    const audio = player.locator('audio')
    await expect(audio).toBeVisible({ timeout: 15_000 })
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 15_000 }).toBeGreaterThan(3)
    const download = player.getByRole('link')
    const href = await download.getAttribute('href')
    expect(href).toBe(`/recordings/player/${encodeURIComponent(E2E_CALLS.recorded.callId)}?download=1&extension=mp3`)
    const file = await page.request.get(href!)
    expect(file.headers()['content-type']).toBe('audio/mpeg')
    expect(file.headers()['content-disposition']).toMatch(/^attachment/)
    await shot(page, `phonecalls-supervisor-detail-${lang}`)

    // A call without a recording: the spec's message.
    await page.keyboard.press('Escape')
    await rowOf(page, E2E_CALLS.busy.phone).click()
    await expect(page.getByTestId('recording-error')).toBeVisible({ timeout: 15_000 })
    await shot(page, `phonecalls-supervisor-no-recording-${lang}`)
  })
}
