import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { menuItem, shot, signIn } from './helpers.ts'

// The activities page /activities (spec 000 §2 "Activity"): a supervisor schedules a callback for agent1 (Ana) in
// 'Nova atividade'; Ana sees it in her list and marks it done. Manual execution, so her webphone does not dial it.

const TEXTS = {
  'pt-BR': { prefix: '', title: 'Atividades', agent: 'Agente', auto: 'Execução automática', required: 'Este campo é obrigatório', no: 'Não' },
  'en-US': { prefix: '/en-us', title: 'Activities', agent: 'Agent', auto: 'Automatic execution', required: 'This field is required', no: 'No' },
  'es-ES': { prefix: '/es-es', title: 'Actividades', agent: 'Agente', auto: 'Ejecución automática', required: 'Este campo es obligatorio', no: 'No' },
} as const

/** A datetime-local value `minutes` from now, in the browser's (= this machine's) time zone. */
function localInput(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

const rowOf = (page: Page, subject: string) => page.getByTestId('activity-row').filter({ hasText: subject })

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`a supervisor schedules an activity and the agent marks it done (${lang})`, async ({ page, browser }) => {
    const subject = `Retorno e2e ${lang} ${Date.now()}`
    const destination = `1195555${String(Date.now()).slice(-4)}`
    await signIn(page, DEMO.supervisor, text.prefix)
    await menuItem(page, 'activities').click()
    await expect(page).toHaveURL(new RegExp(`${text.prefix}/activities$`))
    await expect(page.getByRole('heading', { name: text.title })).toBeVisible()
    await page.getByTestId('activity-new').click()
    const dialog = page.getByTestId('activity-dialog')
    await dialog.getByTestId('activity-save').click()
    await expect(dialog.getByText(text.required).first()).toBeVisible()
    await dialog.getByRole('combobox', { name: text.agent }).click()
    await page.getByRole('option', { name: 'Ana Agente', exact: true }).click()
    await dialog.locator('input[name="destination"]').fill(destination)
    await dialog.locator('input[name="start"]').fill(localInput(-60))
    await dialog.locator('input[name="end"]').fill(localInput(120))
    await dialog.locator('input[name="subject"]').fill(subject)
    await dialog.getByLabel(text.auto).uncheck()
    await shot(page, `activities-new-${lang}`)
    await dialog.getByTestId('activity-save').click()
    await expect(dialog).toHaveCount(0)

    const agent = await browser.newPage()
    await signIn(agent, DEMO.agent1, text.prefix)
    await menuItem(agent, 'activities').click()
    const row = rowOf(agent, subject)
    await expect(row).toBeVisible()
    await expect(row).toContainText(destination)
    await expect(row).toContainText(text.no)
    await expect(row.getByTestId('activity-attempts')).toHaveText('0/50')
    await shot(agent, `activities-agent-${lang}`)
    await row.getByTestId('activity-done').click()
    await expect(rowOf(agent, subject)).toHaveCount(0)
    await agent.close()
  })
}
