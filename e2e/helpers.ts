import { expect, type Page } from '@playwright/test'

export type Account = { username: string; password: string }

/** Signs in through the login form at `prefix` ('' for pt-BR, '/en-us', '/es-es'). */
export async function signIn(page: Page, account: Account, prefix = ''): Promise<void> {
  await page.goto(`${prefix}/login`)
  await fillLogin(page, account)
  await expect(page).not.toHaveURL(/\/login/)
}

export async function fillLogin(page: Page, account: Account): Promise<void> {
  await page.locator('input[autocomplete="username"]').fill(account.username)
  await page.locator('input[autocomplete="current-password"]').fill(account.password)
  await page.getByTestId('login-submit').click()
}

/** Saves a full-page screenshot for a person to look at (e2e/screenshots/, not committed). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true })
}

/** A side-menu entry as the user sees it (the menu is also rendered, hidden, in the phone drawer). */
export const menuItem = (page: Page, id: string) => page.locator(`[data-menu="${id}"]:visible`)
export const visibleTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]:visible`)

/** Waits until the toasts' entrance animation has finished (a screenshot then shows them whole). */
export async function toastsShown(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSAnimation && a.animationName === 'atende-toast-in') || a.playState === 'finished'),
  )
}
