import { expect, test } from '@playwright/test'
import { DEMO, E2E_USERS } from './fixtures/users.ts'
import { fillLogin, menuItem, shot, signIn, visibleTestId } from './helpers.ts'

test('an unauthenticated visit goes to the login of the same language and returns to the target', async ({ page }) => {
  await page.goto('/en-us/profile/change-personal-data')
  await expect(page).toHaveURL(/\/en-us\/login\?redirect=/)
  await fillLogin(page, DEMO.agent1)
  await expect(page).toHaveURL(/\/en-us\/profile\/change-personal-data\/?$/)
})

test('an unknown page shows the 404 page in every language', async ({ page }) => {
  const titles = { '': 'Esta página não foi encontrada', '/en-us': 'This page could not be found', '/es-es': 'No se encontró esta página' }
  for (const [prefix, title] of Object.entries(titles)) {
    await page.goto(`${prefix}/nao-existe-esta-pagina`)
    await expect(page.getByRole('heading', { name: title })).toBeVisible()
  }
  // An unknown language prefix: the language of the browser (pt-BR in these tests).
  await page.goto('/xx-yy/profile')
  await expect(page.getByRole('heading', { name: titles[''] })).toBeVisible()
  await shot(page, '404')
})

test('a user without the permission gets the no-permission page and only their profile in the menu', async ({ page }) => {
  await page.goto('/login')
  await fillLogin(page, E2E_USERS.nobody)
  await expect(page).toHaveURL(/\/403/)
  await expect(page.getByText('Sem permissão')).toBeVisible()
  await expect(page.getByText('Você não tem permissão para acessar esta página')).toBeVisible()
  await shot(page, '403-pt-BR')
  await page.goto('/profile')
  await expect(menuItem(page, 'my-profile')).toBeVisible()
  await expect(menuItem(page, 'home')).toHaveCount(0)
  await page.goto('/es-es/403')
  await expect(page.getByText('Sin permiso')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Volver a la página de inicio' })).toHaveAttribute('href', /^\/es-es\/?$/)
})

test('every user sees only the menu entries their permissions allow', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await expect(menuItem(page, 'home')).toBeVisible()
  await expect(page.getByTestId('fullscreen')).toBeVisible()
  await expect(page.getByTestId('notifications')).toBeVisible()
})

test('a 401 answer to an action leads to the 401 page', async ({ page }) => {
  await signIn(page, DEMO.supervisor)
  await page.goto('/en-us/profile/change-personal-data')
  // The server ends sessions with 401 (tests/server cover when); here the browser's handling of that answer is tested.
  await page.route('**/api/v1/business/profile/', (route) =>
    route.request().method() === 'GET' ? route.continue() : route.fulfill({ status: 401, json: { detail: 'expired' } }),
  )
  await page.getByTestId('personal-submit').click()
  await expect(page).toHaveURL(/\/en-us\/401/)
  await shot(page, '401-en-US')
})

test('the 500 page exists', async ({ page }) => {
  await page.goto('/500')
  await expect(page.locator('body')).toContainText('500')
})

test('an expired password forces the change-password page, other pages redirect back', async ({ page }) => {
  await page.goto('/login')
  await fillLogin(page, E2E_USERS.expired)
  await expect(page).toHaveURL(/\/profile\/change-password\/?$/)
  await expect(page.getByText('Sua senha expirou, por favor, crie uma nova senha.')).toBeVisible()
  await page.goto('/')
  await expect(page).toHaveURL(/\/profile\/change-password\/?$/)
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/profile\/?$/)
  await expect(visibleTestId(page, 'menu-user')).toContainText('Elisa Expirada')
  await shot(page, 'password-expired')
})

test('a password inside the notification window warns right after sign-in', async ({ page }) => {
  await signIn(page, DEMO.agent2)
  await expect(page.getByText('Sua senha irá expirar em breve.')).toBeVisible()
})
