import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { MAIN_SCREENS } from './screens.ts'

// A phone's width (390 px, an iPhone 12 to 15): no main screen scrolls sideways, so the top bar's buttons and the
// page stay within reach.
test.use({ viewport: { width: 390, height: 844 } })

for (const screen of MAIN_SCREENS) {
  test(`${screen.name} fits a 390 px screen without horizontal scrolling`, async ({ page }) => {
    if (screen.account) await signIn(page, screen.account)
    await page.goto(screen.path)
    await expect(screen.ready(page)).toBeVisible()
    await shot(page, `narrow-${screen.name}`)
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }))
    expect(scrollWidth, `${screen.name} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth)
  })
}

test("the top bar's controls stay on screen at 390 px", async ({ page }) => {
  await signIn(page, DEMO.agent1)
  const header = page.locator('header')
  await expect(header.getByTestId('language-menu')).toBeVisible()
  await expect(header.getByTestId('pause-button')).toBeVisible()
  const controls = await header.locator('button:visible, a:visible').all()
  expect(controls.length).toBeGreaterThanOrEqual(6)
  for (const control of controls) {
    const box = (await control.boundingBox())!
    expect(box.x, (await control.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(0)
    expect(box.x + box.width, (await control.getAttribute('aria-label')) ?? '').toBeLessThanOrEqual(390)
  }
})
