import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { kb, startServer } from './lib.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts'

// The first load, cold (a fresh browser profile: nothing cached): the bytes on the wire (every response, as the server
// sent it: compressed where the browser asked) against their decoded size, the first contentful paint, and the time
// until the page is usable, for `/login` and for a settings form opened directly (the queue create form, signed in).

const FORM_PATH = '/settings/service/queues/telephony/create'

export type FirstLoad = { requests: number; wire: number; decoded: number; firstPaint: number; usable: number }

/** Every response of the page: encoded bytes received and decoded bytes. */
function recordBytes(page: Page) {
  const pending: Promise<{ wire: number; decoded: number }>[] = []
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const sizes = await request.sizes()
        const body = await (await request.response())?.body().catch(() => null)
        return { wire: sizes.responseBodySize + sizes.responseHeadersSize, decoded: body?.length ?? 0 }
      })(),
    )
  })
  return async () => {
    const all = await Promise.all(pending)
    return { requests: all.length, wire: all.reduce((a, b) => a + b.wire, 0), decoded: all.reduce((a, b) => a + b.decoded, 0) }
  }
}

async function cold(browser: Browser, url: string, selector: string, signIn?: string): Promise<FirstLoad> {
  const context = await browser.newContext({ locale: 'pt-BR' })
  try {
    if (signIn) {
      const api = context.request
      await api.get(`${signIn}/api/pre-session/`)
      const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? ''
      const res = await api.post(`${signIn}/api/session/login/`, { headers: { 'X-CSRFToken': csrf }, data: { username: 'admin', password: 'gestor2025' } })
      if (!res.ok()) throw new Error(`login failed ${res.status()}`)
    }
    const page = await context.newPage()
    const bytes = recordBytes(page)
    const started = Date.now()
    await page.goto(url)
    await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60_000 })
    const usable = Date.now() - started
    await page.waitForLoadState('networkidle')
    const firstPaint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1)
    return { ...(await bytes()), firstPaint: Math.round(firstPaint), usable }
  } finally {
    await context.close()
  }
}

export async function firstLoad(port = 8298) {
  const server = await startServer({ port })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
  try {
    // One warm-up visit so the server's own first-request work (file handles, JIT) is not counted as the page's.
    await cold(browser, server.url + '/login', '[data-testid="login-submit"]')
    const login = await cold(browser, server.url + '/login', '[data-testid="login-submit"]')
    const form = await cold(browser, server.url + FORM_PATH, '[data-testid="form-save"]', server.url)
    return { login, form }
  } finally {
    await browser.close()
    await server.stop()
  }
}

export function firstLoadLines(r: Awaited<ReturnType<typeof firstLoad>>): string[] {
  const line = (name: string, f: FirstLoad) =>
    `${name.padEnd(28)}: ${kb(f.wire)} on the wire (${kb(f.decoded)} decoded) in ${f.requests} responses; ` +
    `first paint ${f.firstPaint} ms, usable after ${f.usable} ms`
  return [line('first load /login, cold', r.login), line('settings form, cold', r.form)]
}

if (import.meta.main) {
  for (const line of firstLoadLines(await firstLoad())) console.log(line)
}
