import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import type { BrowserContext, Page } from 'playwright-core'
import { startServer, kb } from './lib.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts'

// Gzipped initial JS of the sign-in page and of the signed-in shell: every script the browser fetched until the page is
// drawn (the sign-in button; the shell's menu and footer), gzipped at level 9 (what a static server would send).
// Budgets: sign-in ≤ 150 KB, console ≤ 300 KB. `later` adds what loads after that until the network is idle (sip.js,
// fetched when the webphone starts). `settings` is what an admin's browser fetches on top of the settled shell as
// they open the settings overview, then a list (queues) and its create form, each step in the same page.

const SHELL_DRAWN = ['[data-testid="menu-user"]', '[data-testid="build-date"]']

export type Scripts = { files: number; gzip: number }

/** Every script a page fetches, gzipped as it arrives. */
function recordScripts(page: Page) {
  const sizes = new Map<string, Promise<number>>()
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return
    sizes.set(
      res.url(),
      res.body().then(
        (body) => gzipSync(body, { level: 9 }).length,
        () => 0,
      ),
    )
  })
  return {
    urls: () => [...sizes.keys()],
    async total(urls: string[]): Promise<Scripts> {
      const each = await Promise.all(urls.map((url) => sizes.get(url) ?? 0))
      return { files: urls.length, gzip: each.reduce((a, b) => a + b, 0) }
    },
    /** After a click the load state does not move again: wait until no new script has started for `quietMs`. */
    async quiet(quietMs = 1000) {
      for (let count = -1; count !== sizes.size;) {
        count = sizes.size
        await page.waitForTimeout(quietMs)
      }
    },
  }
}

async function drawn(page: Page, selectors: string[]) {
  for (const selector of selectors) await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 })
}

async function measure(context: BrowserContext, url: string, selectors: string[]) {
  const page = await context.newPage()
  const scripts = recordScripts(page)
  await page.goto(url)
  await drawn(page, selectors)
  const initial = scripts.urls()
  await page.waitForLoadState('networkidle')
  const later = scripts.urls().filter((u) => !initial.includes(u))
  const result = { ...(await scripts.total(initial)), later: await scripts.total(later) }
  await page.close()
  return result
}

type Step = { name: 'overview' | 'list' | 'form'; open: (page: Page) => Promise<void>; drawn: string }

const click = (page: Page, selector: string) => page.locator(`${selector}:visible`).first().click()

// In-app navigation, as a user clicks: the menu's Configurações group, its overview, the queues, their create form.
const SETTINGS_STEPS: Step[] = [
  {
    name: 'overview',
    open: async (page) => {
      await click(page, '[data-menu="settings"]')
      await click(page, '[data-menu="settings-index"]')
    },
    drawn: '[data-testid^="settings-section-"]',
  },
  { name: 'list', open: (page) => click(page, '[data-entity="pabx.queues"]'), drawn: '[data-testid="list-row"]' },
  { name: 'form', open: (page) => click(page, '[data-testid="list-new"]'), drawn: '[data-testid="form-save"]' },
]

/** From the settled shell, each settings step in the same page: the scripts no earlier step fetched. */
async function settingsSteps(context: BrowserContext, base: string): Promise<Record<Step['name'], Scripts>> {
  const page = await context.newPage()
  const scripts = recordScripts(page)
  await page.goto(base + '/')
  await drawn(page, SHELL_DRAWN)
  await page.waitForLoadState('networkidle')
  await scripts.quiet()
  const seen = new Set(scripts.urls())
  const result = {} as Record<Step['name'], Scripts>
  for (const step of SETTINGS_STEPS) {
    await step.open(page)
    await drawn(page, [step.drawn])
    await scripts.quiet()
    const fresh = scripts.urls().filter((url) => !seen.has(url))
    for (const url of fresh) seen.add(url)
    result[step.name] = await scripts.total(fresh)
  }
  await page.close()
  return result
}

export async function bundleSizes(port = 8291) {
  const server = await startServer({ port })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
  try {
    const context = await browser.newContext({ locale: 'pt-BR' })
    const login = await measure(context, server.url + '/login', ['[data-testid="login-submit"]'])
    // Sign in through the API (the same cookies as the page), then load the shell.
    const api = context.request
    await api.get(`${server.url}/api/pre-session/`)
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? ''
    const res = await api.post(`${server.url}/api/session/login/`, {
      headers: { 'X-CSRFToken': csrf },
      data: { username: 'admin', password: 'gestor2025' },
    })
    if (!res.ok()) throw new Error(`login failed ${res.status()}`)
    const shell = await measure(context, server.url + '/', SHELL_DRAWN)
    const settings = await settingsSteps(context, server.url)
    return { login, shell, settings }
  } finally {
    await browser.close()
    await server.stop()
  }
}

/** The settings lines `npm run bench` and this script print. */
export function settingsLines(settings: Awaited<ReturnType<typeof bundleSizes>>['settings']): string[] {
  const { overview, list, form } = settings
  const all = overview.gzip + list.gzip + form.gzip
  return [
    `  /settings overview : +${kb(overview.gzip)} gzip (${overview.files} files on top of the settled shell)`,
    `  then a list        : +${kb(list.gzip)} gzip (${list.files} files: /settings/service/queues/telephony)`,
    `  then its form      : +${kb(form.gzip)} gzip (${form.files} files: …/create)`,
    `  settings in all    : +${kb(all)} gzip over the shell`,
  ]
}

if (import.meta.main) {
  const { login, shell, settings } = await bundleSizes()
  console.log(`initial JS /login       : ${kb(login.gzip)} gzip in ${login.files} files (budget 150 KB)`)
  console.log(`initial JS shell (/)    : ${kb(shell.gzip)} gzip in ${shell.files} files (budget 300 KB)`)
  console.log(`loaded after the shell  : ${kb(shell.later.gzip)} gzip in ${shell.later.files} files (the webphone's sip.js, …)`)
  for (const line of settingsLines(settings)) console.log(line)
}
