import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { shot, signIn } from './helpers.ts'
import { MAIN_SCREENS } from './screens.ts'

// QUALITY.md §23: axe-core on every main screen, no serious or moderate violation of WCAG 2 A/AA (plus axe's
// best practices on landmarks, the skip link and headings). Each screen is checked once its content has loaded.

/** The violations that fail the check, one line each: rule, impact, and the first elements it names. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.impact === 'moderate')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`)
          .join(' | ')}`,
    )
}

for (const screen of MAIN_SCREENS) {
  test(`${screen.name} has no serious or moderate accessibility violation`, async ({ page }) => {
    if (screen.account) await signIn(page, screen.account)
    await page.goto(screen.path)
    await expect(screen.ready(page)).toBeVisible()
    await shot(page, `a11y-${screen.name}`)
    expect(await seriousViolations(page)).toEqual([])
  })
}

test('the skip link is the first stop of the keyboard and takes it to the page', async ({ page }) => {
  await signIn(page, DEMO.agent1)
  await page.goto('/profile')
  await expect(page.locator('main h1').first()).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByTestId('skip-link')
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await shot(page, 'a11y-skip-link')
  await page.keyboard.press('Enter')
  await expect(page.locator('main')).toBeFocused()
})
