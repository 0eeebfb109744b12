import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts'

// Issue 14's bench: the agent's /chats room of BENCH_MESSAGES (5,000) messages in Debian's Chromium against the real
// server (PGlite in a temp DATA_DIR, TELEPHONY off, port BENCH_PORT 8350), the room seeded straight into the database
// before the server starts. It prints:
//   (a) time to first render: the room opened from the list (a click) until its last bubble is drawn, and a cold
//       page load of /chats?room= until the same; DOM bubbles drawn (the list is virtualised);
//   (b) the older pages: scrolling to the top loads the next page (200 messages) until all 5,000 are in; per page the
//       time from the request to the bubbles drawn, and how far the bubble the agent read moved (should be 0 px);
//   (c) scroll frame times, 5,000 messages in memory: a requestAnimationFrame loop scrolls BENCH_SCROLL_STEP (120) px a
//       frame from the bottom up for BENCH_MAX_FRAMES (1500) frames or to the top: p50 / p95 / p99 / max frame, frames over 50 ms;
//   (d) pinned to the bottom: the agent sends a message while at the bottom; the list still ends at the bottom.
// Needs `npm run build` first.   npm exec -- node bench/chat-render.ts

const PORT = Number(process.env.BENCH_PORT ?? 8350)
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000)
const SCROLL_STEP = Number(process.env.BENCH_SCROLL_STEP ?? 120)
const MAX_FRAMES = Number(process.env.BENCH_MAX_FRAMES ?? 1500)
const AGENT = { username: 'agent1', password: 'ramal1001' }
const WIDTH = 1440
const HEIGHT = 900

const LINES = [
  'Olá, tudo bem?',
  'Meu pedido ainda não chegou, já faz uma semana que comprei e o rastreio não atualiza desde segunda-feira.',
  'Pode verificar, por favor?',
  'Claro! Vou consultar o número do pedido agora mesmo e já retorno com a posição da transportadora.',
  'Obrigado 🙏',
  'O endereço de entrega é Rua das Laranjeiras, 145, apartamento 32, bloco B — Centro, Campinas/SP, CEP 13010-000. Se precisar de mais alguma informação é só falar.',
  'Ok',
]

async function prepare(dataDir: string): Promise<number> {
  const { loadConfig } = await import('../server/config.ts')
  const { openDatabase } = await import('../server/db/client.ts')
  const { seedDemoIfEmpty } = await import('../server/seed/demo-seed.ts')
  const schema = await import('../server/db/schema/index.ts')
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: String(PORT), TELEPHONY: 'off' })
  const database = await openDatabase({ pgliteDir: config.pgliteDir })
  const { db } = database
  await seedDemoIfEmpty(db, { port: PORT })
  const [site] = await db.select().from(schema.sites).orderBy(asc(schema.sites.id)).limit(1)
  const siteId = site!.id
  const [agent] = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(and(eq(schema.users.siteId, siteId), eq(schema.users.username, AGENT.username)))
  await db.update(schema.userExtras).set({ loginChannelChat: true }).where(eq(schema.userExtras.userId, agent!.id))
  const [channel] = await db
    .select()
    .from(schema.chatChannels)
    .where(and(eq(schema.chatChannels.siteId, siteId), eq(schema.chatChannels.type, 'whatsapp')))
  const [queue] = await db.select().from(schema.chatQueues).where(eq(schema.chatQueues.siteId, siteId)).limit(1)
  const start = Date.now() - MESSAGES * 60_000
  const [room] = await db
    .insert(schema.chatRooms)
    .values({
      uid: randomUUID(),
      siteId,
      channelId: channel!.id,
      contact: '5511900005000',
      address: '5511900005000',
      phone: '5511900005000',
      title: 'Cliente dos 5 mil',
      userId: agent!.id,
      queueId: queue?.id ?? null,
      state: 'active',
      offeredAt: new Date(start),
      answeredAt: new Date(start),
      lastClientMessageAt: new Date(),
    })
    .returning({ id: schema.chatRooms.id })
  for (let from = 0; from < MESSAGES; from += 500) {
    const rows = Array.from({ length: Math.min(500, MESSAGES - from) }, (_, k) => {
      const n = from + k
      const client = n % 3 !== 1
      return {
        uid: randomUUID(),
        siteId,
        roomId: room!.id,
        channelId: channel!.id,
        sentBy: client ? 'client' : 'agent',
        userId: client ? null : agent!.id,
        content: `#${n + 1} ${LINES[n % LINES.length]}`,
        status: client ? null : 'consumed',
        readByAgent: true,
        createdAt: new Date(start + n * 60_000),
      }
    })
    await db.insert(schema.chatRoomMessages).values(rows)
  }
  await database.close()
  return room!.id
}

function startServer(dataDir: string): Promise<ChildProcess> {
  const logFile = join(dataDir, 'server.log')
  const out = openSync(logFile, 'w')
  const env = { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, TELEPHONY: 'off', LOG_LEVEL: 'warn' }
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--optimize-for-size', 'server/start.ts'], { env, stdio: ['ignore', out, out] })
  closeSync(out)
  return (async () => {
    const deadline = Date.now() + 120_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${readFileSync(logFile, 'utf8').slice(-5000)}`)
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/api/pre-session/`)).ok) return child
      } catch {
        // not yet
      }
      if (Date.now() > deadline) throw new Error('server did not start')
      await new Promise((r) => setTimeout(r, 300))
    }
  })()
}

const lastBubble = (page: Page) => page.locator(`[data-testid="message-list"] [data-testid="message"]`, { hasText: `#${MESSAGES} ` })

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 }
}
const ms = (value: number) => `${value.toFixed(1)} ms`

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-chat-render-'))
  let server: ChildProcess | null = null
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
  try {
    const roomId = await prepare(dataDir)
    console.error(`seeded room ${roomId}`)
    server = await startServer(dataDir)
    console.error("server up")
    const base = `http://127.0.0.1:${PORT}`
    const context = await browser.newContext({ baseURL: base, viewport: { width: WIDTH, height: HEIGHT }, locale: 'pt-BR' })
    const page = await context.newPage()
    page.on('crash', () => console.error('the page crashed'))
    page.on('pageerror', (error) => console.error('page error:', error.message))
    await page.goto('/login')
    await page.locator('input[autocomplete="username"]').fill(AGENT.username, { timeout: 90_000 })
    await page.locator('input[autocomplete="current-password"]').fill(AGENT.password)
    await page.getByTestId('login-submit').click()
    await page.waitForURL((url) => !url.pathname.includes('login'))
    await page.goto('/chats')
    const row = page.locator(`[data-testid="room-row"][data-room-id="${roomId}"]`)
    await row.waitFor({ timeout: 30_000 })

    // (a) from a click on the row to the last bubble drawn
    const t0 = Date.now()
    await row.click()
    await lastBubble(page).waitFor({ timeout: 30_000 })
    const clickToRender = Date.now() - t0
    const drawn = await page.locator('[data-testid="message-list"] [data-testid="message"]').count()

    // (a') a cold load of the room's URL (the SPA, the shell, the socket, the room's first page)
    const t1 = Date.now()
    await page.goto(`/chats?room=${roomId}`)
    await lastBubble(page).waitFor({ timeout: 30_000 })
    const coldRender = Date.now() - t1

    // (b) the older pages: scroll to the top until every message is in, checking the read bubble stays put
    const list = page.getByTestId('message-list')
    const pages: number[] = []
    const jumps: number[] = []
    for (let guard = 0; guard < 100; guard++) {
      const count = Number(await list.getAttribute('data-count'))
      if (count >= MESSAGES) break
      const before = await page.evaluate(
        () =>
          new Promise<{ id: string; top: number; at: number }>((resolve) => {
            const box = document.querySelector('[data-testid="message-list"]') as HTMLElement
            const at = performance.now()
            box.scrollTop = 0
            // The bubble the agent reads: the first one wholly in view once the list has drawn the top.
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const edge = box.getBoundingClientRect().top
                const first = [...box.querySelectorAll<HTMLElement>('[data-testid="message"]')]
                  .filter((element) => element.getBoundingClientRect().top >= edge)
                  .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]!
                resolve({ id: first.dataset.messageId!, top: first.getBoundingClientRect().top, at })
              }),
            )
          }),
      )
      await page.waitForFunction((count) => Number(document.querySelector('[data-testid="message-list"]')?.getAttribute('data-count')) > count, count, {
        timeout: 30_000,
      })
      const after = await page.evaluate((id) => {
        const top = document.querySelector<HTMLElement>(`[data-testid="message"][data-message-id="${id}"]`)?.getBoundingClientRect().top ?? NaN
        return new Promise<{ top: number; at: number }>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve({ top, at: performance.now() }))))
      }, before.id!)
      pages.push(after.at - before.at)
      jumps.push(Math.abs(after.top - before.top))
    }
    const loaded = Number(await list.getAttribute('data-count'))
    console.error(`(a) ${clickToRender} / ${coldRender} ms, ${drawn} drawn; (b) ${pages.length} pages, ${loaded} loaded`)

    // (c) scroll frames, bottom to top, 5,000 messages in memory
    await page.evaluate(() => {
      const box = document.querySelector('[data-testid="message-list"]') as HTMLElement
      box.scrollTop = box.scrollHeight
    })
    await page.waitForTimeout(500)
    const frames = await page.evaluate(
      ({ step, max }) =>
        new Promise<number[]>((resolve) => {
          const box = document.querySelector('[data-testid="message-list"]') as HTMLElement
          const times: number[] = []
          let previous = performance.now()
          const tick = (now: number) => {
            times.push(now - previous)
            previous = now
            if (box.scrollTop <= 0 || times.length > max) return resolve(times.slice(1))
            box.scrollTop -= step
            requestAnimationFrame(tick)
          }
          requestAnimationFrame(tick)
        }),
      { step: SCROLL_STEP, max: MAX_FRAMES },
    )
    const domAtTop = await page.locator('[data-testid="message-list"] [data-testid="message"]').count()
    const scrolled = await page.evaluate(() => { const box = document.querySelector('[data-testid="message-list"]') as HTMLElement; return { top: box.scrollTop, height: box.scrollHeight } })

    // (d) pinned to the bottom: the agent writes at the bottom
    await page.evaluate(() => {
      const box = document.querySelector('[data-testid="message-list"]') as HTMLElement
      box.scrollTop = box.scrollHeight
    })
    await lastBubble(page).waitFor()
    const text = `Pinned ${Date.now()}`
    await page.getByTestId('message-input').locator('textarea').first().fill(text)
    await page.getByTestId('message-input').locator('textarea').first().press('Enter')
    await page.locator('[data-testid="message"]', { hasText: text }).waitFor()
    await page.waitForTimeout(300)
    const gap = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="message-list"]') as HTMLElement
      return box.scrollHeight - box.scrollTop - box.clientHeight
    })

    const frame = stats(frames)
    const page_ = stats(pages)
    const { loadavg, cpus } = await import('node:os')
    console.log(`chat room of ${MESSAGES} messages, Chromium ${browser.version()} headless, ${WIDTH}×${HEIGHT}; ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)}`)
    console.log(`(a) click on the room → last bubble drawn: ${clickToRender} ms; cold load of /chats?room= → last bubble: ${coldRender} ms; bubbles in the DOM: ${drawn}`)
    console.log(
      `(b) older pages: ${pages.length} pages to ${loaded} messages; request → drawn p50 ${ms(page_.p50)}, max ${ms(page_.max)}; the read bubble moved at most ${Math.max(0, ...jumps).toFixed(1)} px`,
    )
    console.log(
      `(c) scroll bottom → top at ${SCROLL_STEP} px/frame, ${frame.n} frames: p50 ${ms(frame.p50)}, p95 ${ms(frame.p95)}, p99 ${ms(frame.p99)}, max ${ms(frame.max)}; frames over 50 ms: ${frames.filter((f) => f > 50).length}; bubbles in the DOM at the top: ${domAtTop}; scrolled ${((1 - scrolled.top / scrolled.height) * 100).toFixed(0)} % of the room (${scrolled.height} px)`,
    )
    console.log(`(d) a message sent at the bottom: the list ends ${gap.toFixed(0)} px from the bottom`)
  } finally {
    await browser.close()
    if (server) {
      server.kill('SIGTERM')
      await new Promise((r) => server!.once('exit', r))
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
