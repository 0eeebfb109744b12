import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { apiAs } from './chat-helpers.ts'
import { shot, signIn } from './helpers.ts'
import type { DashboardToday } from '../contract/api/dashboard.ts'
import { formatDuration } from '../contract/format/duration.ts'

// The home page's day (issue 19 item 2): the figures are the server's (GET /v1/dashboard/today/ in the browser's time
// zone), the hour chart is drawn, and a supervisor switches between their own day and the site's.

// The first page load builds the query client and fetches the profile: minutes on a loaded machine, not seconds.
test.describe.configure({ timeout: 180_000 })
const LOAD = { timeout: 90_000 }

const today = async (send: (method: 'GET', path: string) => Promise<unknown>, scope: 'me' | 'site', tz: string) =>
  (await send('GET', `/api/v1/dashboard/today/?scope=${scope}&tz=${encodeURIComponent(tz)}`)) as DashboardToday

test("the home page shows the agent's day and a supervisor's site", async ({ page, browser }) => {
  await signIn(page, DEMO.supervisor)
  await page.goto('/')
  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
  const { send, close } = await apiAs(browser, DEMO.supervisor)
  try {
    const mine = await today(send, 'me', tz)
    const day = page.getByTestId('my-day')
    await expect(day.getByText('Seu dia')).toBeVisible(LOAD)
    await expect(page.getByTestId('my-day-inbound')).toContainText(`${mine.calls.inbound_answered} / ${mine.calls.inbound}`)
    await expect(page.getByTestId('my-day-talk')).toContainText(formatDuration(mine.calls.talk_seconds))
    await expect(page.getByTestId('my-day-pauses')).toContainText(`${mine.pauses.count} pausas`)
    // The chart's canvas (Chart.js, loaded on first use) says what it shows.
    const total = mine.calls.inbound + mine.calls.outbound + mine.calls.internal
    await expect(page.getByRole('img', { name: `Chamadas por hora: ${total} chamadas hoje` })).toBeVisible(LOAD)
    await shot(page, 'home-my-day')

    const site = await today(send, 'site', tz)
    await page.getByTestId('my-day-scope-site').click()
    await expect(day.getByText('O dia do site')).toBeVisible()
    await expect(page.getByTestId('my-day-inbound')).toContainText(`${site.calls.inbound_answered} / ${site.calls.inbound}`)
    await expect(page.getByTestId('my-day-activities')).toContainText(`${site.activities.due_today} para hoje · ${site.activities.overdue} atrasadas`)
    await shot(page, 'home-site-day')
  } finally {
    await close()
  }
})

test('an agent sees only their own day', async ({ page }) => {
  await signIn(page, DEMO.agent1)
  await page.goto('/')
  await expect(page.getByTestId('my-day')).toBeVisible(LOAD)
  await expect(page.getByTestId('my-day-scope-site')).toHaveCount(0)
  await expect(page.getByRole('img', { name: /^Chamadas por hora: \d+ chamadas hoje$/ })).toBeVisible(LOAD)
})
