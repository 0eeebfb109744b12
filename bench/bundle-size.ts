import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { startServer, kb } from './lib.ts'

// Gzipped initial JS of the sign-in page and of the signed-in shell: every script the browser fetched to render the
// page, gzipped at level 9 (what a static server would send). Budgets: sign-in ≤ 150 KB, console ≤ 300 KB.
const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function bundleSizes(port = 8291) {
  const server = await startServer({ port })
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS })
  try {
    const context = await browser.newContext({ locale: 'pt-BR' })
    const measure = async (path: string) => {
      const page = await context.newPage()
      const scripts = new Map<string, number>()
      page.on('response', async (res) => {
        if (res.request().resourceType() !== 'script') return
        const body = await res.body().catch(() => null)
        if (body) scripts.set(res.url(), gzipSync(body, { level: 9 }).length)
      })
      await page.goto(server.url + path, { waitUntil: 'networkidle' })
      await page.close()
      return { files: scripts.size, gzip: [...scripts.values()].reduce((a, b) => a + b, 0) }
    }
    const login = await measure('/login')
    // Sign in through the API (the same cookies as the page), then load the shell.
    const api = context.request
    await api.get(`${server.url}/api/pre-session/`)
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? ''
    const res = await api.post(`${server.url}/api/session/login/`, {
      headers: { 'X-CSRFToken': csrf }, data: { username: 'admin', password: 'gestor2025' },
    })
    if (!res.ok()) throw new Error(`login failed ${res.status()}`)
    const shell = await measure('/')
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
}
