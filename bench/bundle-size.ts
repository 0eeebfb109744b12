import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { startServer, kb } from './lib.ts'

// Gzipped initial JS of the sign-in page and of the signed-in shell: every script the browser fetched until the page is
// drawn (the sign-in button; the shell's menu and footer), gzipped at level 9 (what a static server would send).
// Budgets: sign-in ≤ 150 KB, console ≤ 300 KB. `later` adds what loads after that until the network is idle (sip.js,
// fetched when the webphone starts).
const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function bundleSizes(port = 8291) {
  const server = await startServer({ port })
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS })
  try {
    const context = await browser.newContext({ locale: 'pt-BR' })
    const measure = async (path: string, drawn: string[]) => {
      const page = await context.newPage()
      const scripts = new Map<string, Promise<number>>()
      let initial: string[] | null = null
      page.on('response', (res) => {
        if (res.request().resourceType() !== 'script') return
        scripts.set(res.url(), res.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0))
      })
      await page.goto(server.url + path)
      for (const selector of drawn) await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 })
      initial = [...scripts.keys()]
      await page.waitForLoadState('networkidle')
      const sizes = new Map(await Promise.all([...scripts].map(async ([url, size]) => [url, await size] as const)))
      await page.close()
      const sum = (urls: string[]) => urls.reduce((a, url) => a + (sizes.get(url) ?? 0), 0)
      const later = [...sizes.keys()].filter((url) => !initial!.includes(url))
      return { files: initial.length, gzip: sum(initial), later: { files: later.length, gzip: sum(later) } }
    }
    const login = await measure('/login', ['[data-testid="login-submit"]'])
    // Sign in through the API (the same cookies as the page), then load the shell.
    const api = context.request
    await api.get(`${server.url}/api/pre-session/`)
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? ''
    const res = await api.post(`${server.url}/api/session/login/`, {
      headers: { 'X-CSRFToken': csrf }, data: { username: 'admin', password: 'gestor2025' },
    })
    if (!res.ok()) throw new Error(`login failed ${res.status()}`)
    const shell = await measure('/', ['[data-testid="menu-user"]', '[data-testid="build-date"]'])
    return { login, shell }
  } finally {
    await browser.close()
    await server.stop()
  }
}

if (import.meta.main) {
  const { login, shell } = await bundleSizes()
  console.log(`initial JS /login       : ${kb(login.gzip)} gzip in ${login.files} files (budget 150 KB)`)
  console.log(`initial JS shell (/)    : ${kb(shell.gzip)} gzip in ${shell.files} files (budget 300 KB)`)
  console.log(`loaded after the shell  : ${kb(shell.later.gzip)} gzip in ${shell.later.files} files (the webphone's sip.js, …)`)
}
