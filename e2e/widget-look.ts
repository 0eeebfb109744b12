// A look at the website chat widget in Chromium (not a Playwright spec): starts the app on 127.0.0.1:8320 with the demo
// data and the chat core, opens /widget-demo, chats as a visitor while this script plays agent1 through the core, and
// writes PNGs to e2e/screenshots/widget-*.png. Run: npm exec -- node e2e/widget-look.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { crc32, deflateSync } from 'node:zlib'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/client.ts'
import { seedDemoIfEmpty } from '../server/seed/demo-seed.ts'
import { and, eq } from 'drizzle-orm'
import { publishChatEvent } from '../server/chat/events.ts'
import { closeRoom } from '../server/chat/lifecycle.ts'
import { sendAgentMessage } from '../server/chat/outbound.ts'
import { chatRoomMessages, chatRooms, users } from '../server/db/schema/index.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts'

const PORT = Number(process.env.LOOK_PORT ?? 8320)
const out = path.join(import.meta.dirname, 'screenshots')
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atende-widget-look-'))
const config = { ...loadConfig({ DATA_DIR: dataDir, TELEPHONY: 'off' }), spaDir: path.join(dataDir, 'dist') }
const database = await openDatabase({})
const app = await buildApp(config, { db: database.db, logger: false })
await seedDemoIfEmpty(database.db, { port: PORT, mediaDir: config.mediaDir })
await app.listen({ port: PORT, host: '127.0.0.1' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
try {
  for (const [lang, viewport] of [
    ['pt-BR', { width: 1280, height: 800 }],
    ['en-US', { width: 390, height: 760 }],
  ] as const) {
    const page = await browser.newPage({ viewport, locale: lang, extraHTTPHeaders: { 'Accept-Language': lang } })
    page.on('console', (m) => console.log(`[${lang}] console.${m.type()}: ${m.text()}`))
    page.on('pageerror', (e) => console.log(`[${lang}] page error: ${e.message}`))
    page.on('response', (r) => r.status() >= 400 && console.log(`[${lang}] ${r.status()} ${r.url()}`))
    const shot = (name: string) => page.screenshot({ path: path.join(out, `widget-${lang}-${name}.png`) })
    await page.goto(`http://127.0.0.1:${PORT}/widget-demo`)
    const launcher = page.locator('#atende-chat-widget').locator('button.launcher')
    await launcher.waitFor()
    await page.waitForTimeout(300)
    await shot('1-closed')
    await launcher.click()
    await shot('2-prechat')
    const root = page.locator('#atende-chat-widget')
    await root.locator('button.primary').click()
    await shot('3-prechat-errors')
    await root.locator('input[name=name]').fill('Ana Souza')
    await root.locator('input[name=email]').fill('ana@example.com')
    await root.locator('button.primary').click()
    const input = root.locator('textarea')
    await input.waitFor()
    await input.fill('Olá! Vocês entregam no sábado?')
    await input.press('Enter')
    await root.locator('.row.client .tick.sent').first().waitFor()
    const visitorId = await page.evaluate(() => JSON.parse(Object.entries(localStorage).find(([k]) => k.startsWith('atende-widget:'))![1]).visitor_id as string)
    const db = database.db
    const [room] = await db.select().from(chatRooms).where(eq(chatRooms.contact, visitorId))
    const [agent] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'agent1'))
    // The ACD's answer, by hand: the room is agent1's; agent1 renamed for the picture.
    await db.update(users).set({ firstName: 'Maria', lastName: 'Oliveira' }).where(eq(users.id, agent!.id))
    await db.update(chatRooms).set({ userId: agent!.id, state: 'active', answeredAt: new Date() }).where(eq(chatRooms.id, room!.id))
    const [first] = await db
      .select()
      .from(chatRoomMessages)
      .where(and(eq(chatRoomMessages.roomId, room!.id), eq(chatRoomMessages.sentBy, 'client')))
    const event = { site_id: room!.siteId, users: [agent!.id], room_id: room!.id }
    await publishChatEvent(app.deps.bus, { ...event, type: 'status', message: { id: first!.id, sent_by: 'client', read: true } as never })
    await publishChatEvent(app.deps.bus, { ...event, type: 'typing', from: 'agent' })
    await root.locator('.typing').waitFor()
    await shot('4-typing')
    const agentSays = (content: string) => sendAgentMessage(app.deps, { siteId: room!.siteId, userId: agent!.id, roomId: room!.id, body: { content } })
    await agentSays('Olá, Ana! Entregamos sim, das 8h às 14h. Qual é o seu endereço?')
    await root.locator('.row.agent').first().waitFor()
    await input.fill('Rua das Flores, 123')
    await input.press('Shift+Enter')
    await input.type('Apto 42')
    await shot('5-multiline')
    await input.press('Enter')
    const png = gradientPng(160, 120)
    const file = path.join(dataDir, 'bolo.png')
    await writeFile(file, png)
    await root.locator('input[type=file]').setInputFiles(file)
    await root.locator('.row.client img').first().waitFor()
    await page.waitForTimeout(300)
    await shot('6-conversation')
    await page.reload()
    await launcher.waitFor()
    await launcher.click()
    await root.locator('.row.agent').first().waitFor()
    await page.waitForTimeout(300)
    await shot('7-after-reload')
    await closeRoom(app.deps, { siteId: room!.siteId, roomId: room!.id, byUserId: agent!.id })
    await root
      .locator('.notice')
      .getByText(/encerrada|ended/)
      .waitFor()
    await page.waitForTimeout(300)
    await shot('8-ended')
    await page.close()
  }
} finally {
  await browser.close()
  await app.close()
  await database.close()
  await rm(dataDir, { recursive: true, force: true })
}

/** A small RGB gradient as a PNG (a real photo-like image for the bubble). */
function gradientPng(width: number, height: number): Buffer {
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) row.set([230 - y, 150 + (x % 60), 80 + x / 2], 1 + x * 3)
    rows.push(row)
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
