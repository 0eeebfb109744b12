import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'

// Sounds and music as an admin uses them: upload an mp3 prompt in the sound folder's form, hear it back in the
// browser's player (the server's mp3 of the converted 8 kHz audio), in three languages; and the one destination
// picker in the IVR's options.

const openTab = (page: Page, key: string) => page.locator(`[data-tab="${key}"]`).click()

/** An mp3 of a short chime, made by sox and lame as an admin's editor would. */
function chimeMp3(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'atende-e2e-chime-'))
  try {
    execFileSync('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', join(dir, 'c.wav'), 'synth', '2', 'pluck', 'C5', 'pluck', 'E5', 'vol', '0.6'])
    execFileSync('lame', ['--quiet', join(dir, 'c.wav'), join(dir, 'c.mp3')])
    return readFileSync(join(dir, 'c.mp3'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Plays the form's player muted until the browser has decoded some audio; answers the seconds it holds. */
async function playerDuration(page: Page): Promise<number> {
  const player = page.getByTestId('audio-preview')
  await expect(player).toBeVisible()
  await player.evaluate((audio: HTMLAudioElement) => {
    audio.muted = true
    return audio.play()
  })
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2)
  return player.evaluate((audio: HTMLAudioElement) => audio.duration)
}

test('an admin uploads an mp3 prompt and hears it back, converted for telephony, in the form', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/settings/pabx/sounds')
  await page.getByTestId('list-new').click()
  await page.getByLabel('Descrição').fill('Pasta de áudios E2E')
  await page.getByTestId('form-save').click()
  await expect(page).toHaveURL(/\/settings\/pabx\/sounds\/\d+\/edit/)
  const folderId = Number(/sounds\/(\d+)\/edit/.exec(page.url())![1])
  await openTab(page, 'entries')
  await page.getByTestId('entity-list-pabx.sounds-entries').getByTestId('list-new').click()
  await page.getByLabel('Descrição').fill('Campainha E2E')
  await page.getByLabel('Arquivo de áudio').setInputFiles({ name: 'campainha.mp3', mimeType: 'audio/mpeg', buffer: chimeMp3() })
  // The chosen file plays before it is sent.
  expect(await playerDuration(page)).toBeGreaterThan(1.5)
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/pabx/sounds-entries/'))
  await page.getByTestId('form-save').click()
  const entry = await (await posted).json()
  // Stored as what rtpengine plays: an 8 kHz WAV.
  expect(entry.file).toMatch(/^\/media\/pabx-sounds-entries\/[a-f0-9]{32}\.wav$/)
  await expect(page).toHaveURL(new RegExp(`/settings/pabx/sounds/${folderId}/entries/?$`))

  await page.goto(`/settings/pabx/sounds/${folderId}/entries/${entry.id}/edit`)
  const src = await page.getByTestId('audio-preview').getAttribute('src')
  expect(src).toMatch(new RegExp(`^/api/v1/pabx/sounds-entries/${entry.id}/audio/\\?v=`))
  const audio = await page.request.get(src!)
  expect(audio.status()).toBe(200)
  expect(audio.headers()['content-type']).toBe('audio/mpeg')
  expect(await playerDuration(page)).toBeCloseTo(2, 0)
  await shot(page, 'sounds-entry-player-pt-BR')
  // Signed out, the player's address answers nothing.
  await page.context().clearCookies()
  expect((await page.request.get(src!)).status()).toBe(401)
})

for (const [prefix, lang, label] of [
  ['', 'pt-BR', 'Descrição'],
  ['/en-us', 'en-US', 'Description'],
  ['/es-es', 'es-ES', 'Descripción'],
] as const) {
  test(`the demo's spoken prompt and music track play in their forms in ${lang}`, async ({ page }) => {
    await signIn(page, DEMO.admin, prefix)
    type Row = { id: number; sound?: number; moh?: number; file: string | null }
    const api = async (path: string) => ((await (await page.request.get(path)).json()) as { results: Row[] }).results
    // The demo's prompts in this language (e2e/serve.ts seeds them as `npm start` does): its "please hold".
    const [folder] = await api(`/api/v1/pabx/sounds/?language=${lang}`)
    const [prompt] = await api(`/api/v1/pabx/sounds-entries/?sound=${folder!.id}&search=please-hold`)
    const [track] = await api('/api/v1/pabx/moh-entries/?limit=1&ordering=id')
    for (const [path, name] of [
      [`${prefix}/settings/pabx/sounds/${folder!.id}/entries/${prompt!.id}/edit`, 'sounds-entry'],
      [`${prefix}/settings/pabx/moh/${track!.moh}/entries/${track!.id}/edit`, 'moh-entry'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByLabel(label)).toBeVisible()
      expect(await playerDuration(page)).toBeGreaterThan(name === 'moh-entry' ? 10 : 1)
      await shot(page, `${name}-form-${lang}`)
    }
    // The IVR's time-out destination is the same picker as every other destination.
    await page.goto(`${prefix}/settings/pabx/ivrs`)
    await page.getByTestId('list-row').first().getByTestId('row-edit').click()
    await openTab(page, 'timeout')
    await expect(page.locator('[data-destination-picker]').first()).toBeVisible()
    await shot(page, `ivr-timeout-destination-${lang}`)
  })
}
