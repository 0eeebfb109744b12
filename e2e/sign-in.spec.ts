import { expect, test } from '@playwright/test'
import { DEMO } from './fixtures/users.ts'
import { E2E_PORT } from './env.ts'
import { fillLogin, menuItem, shot, signIn, visibleTestId } from './helpers.ts'

// Sign in as every demo user in every language; the shell is the right language and shows the user.
const LANGUAGES = [
  { prefix: '', lang: 'pt-BR', home: 'Início', profile: 'Meu perfil' },
  { prefix: '/en-us', lang: 'en-US', home: 'Home', profile: 'My profile' },
  { prefix: '/es-es', lang: 'es-ES', home: 'Inicio', profile: 'Mi perfil' },
] as const

const NAMES = { admin: 'Administrador Demo', supervisor: 'Sofia Supervisora', agent1: 'Ana Agente', agent2: 'Bruno Agente' } as const

for (const [key, account] of Object.entries(DEMO)) {
  for (const language of LANGUAGES) {
    test(`${key} signs in at ${language.prefix || '/'} and sees the shell in ${language.lang}`, async ({ page }) => {
      await signIn(page, account, language.prefix)
      await expect(page).toHaveURL(new RegExp(`${language.prefix}/?$`))
      await expect(page.locator('html')).toHaveAttribute('lang', language.lang)
      await expect(visibleTestId(page, 'menu-user')).toContainText(NAMES[key as keyof typeof NAMES])
      await expect(menuItem(page, 'home')).toContainText(language.home)
      await expect(menuItem(page, 'my-profile')).toContainText(language.profile)
      if (key === 'admin') await shot(page, `shell-${language.lang}`)
    })
  }
}

test('agent1 shows its voip endpoint under the name, linking to the profile', async ({ page }) => {
  await signIn(page, DEMO.agent1)
  const user = visibleTestId(page, 'menu-user')
  await expect(user).toContainText('10001')
  await user.click()
  await expect(page).toHaveURL(/\/profile\/?$/)
})

test('a wrong password and an unknown user get the same message, in the page language', async ({ page }) => {
  await page.goto('/en-us/login')
  await fillLogin(page, { username: 'admin', password: 'wrong-password1' })
  const errors = page.getByTestId('form-errors')
  await expect(errors).toContainText('Invalid username or password.')
  const wrongPassword = await errors.textContent()
  await fillLogin(page, { username: 'nobody-here', password: 'wrong-password1' })
  await expect(errors).toHaveText(wrongPassword!)
  await expect(page).toHaveURL(/\/en-us\/login/)
  await shot(page, 'login-error-en-US')
})

test('the language of an unprefixed page follows the i18n_redirected cookie, then the browser', async ({ browser }) => {
  const spanish = await browser.newContext({ locale: 'es-ES' })
  const page = await spanish.newPage()
  await page.goto('/login')
  await expect(page).toHaveURL(/\/es-es\/login/)
  await spanish.close()

  const cookie = await browser.newContext({ locale: 'es-ES' })
  await cookie.addCookies([{ name: 'i18n_redirected', value: 'en-us', url: `http://127.0.0.1:${E2E_PORT}` }])
  const page2 = await cookie.newPage()
  await page2.goto('/login')
  await expect(page2).toHaveURL(/\/en-us\/login/)
  await cookie.close()
})
