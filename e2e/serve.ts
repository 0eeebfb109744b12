import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { asc } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/client.ts'
import { sites } from '../server/db/schema/index.ts'
import { seedDemoIfEmpty } from '../server/seed/demo-seed.ts'
import { startServer } from '../server/startup.ts'
import { startDemoSimulator } from '../server/seed/demo-simulator.ts'
import { E2E_TELEPHONY_ENV, E2E_WA_SIM_PORT } from './env.ts'
import { E2E_USERS, prepareE2eUsers } from './fixtures/users.ts'
import { prepareE2eCalls } from './fixtures/calls.ts'
import { prepareE2eChat } from './fixtures/chat.ts'
import { prepareE2eWallboard } from './fixtures/wallboard.ts'

// The browser tests' web server: a fresh PGlite DATA_DIR with the demo data plus the few accounts only the tests need
// (an expired password, one without any permission, one whose password a test changes) and a few finished calls
// (fixtures/calls.ts), then the real server on it,
// with the telephony engines on the e2e ports (env.ts), and the WhatsApp simulator (simulator/whatsapp/) on
// E2E_WA_SIM_PORT with the demo WhatsApp channel pointed at it, as `npm start` runs it (server/seed/demo-simulator.ts).
const config = loadConfig({ ...process.env, ...E2E_TELEPHONY_ENV, WA_SIMULATOR: 'demo', WA_SIM_PORT: String(E2E_WA_SIM_PORT) })
rmSync(config.dataDir, { recursive: true, force: true })

const database = await openDatabase({ pgliteDir: config.pgliteDir })
// As `npm start` seeds it: the demo's spoken prompts and music (espeak-ng, sox) with their files.
await seedDemoIfEmpty(database.db, {
  port: config.port,
  mediaDir: config.mediaDir,
  soundsDir: join(config.dataDir, 'demo-sounds'),
  whatsappGraphUrl: `http://127.0.0.1:${E2E_WA_SIM_PORT}`,
})
const [site] = await database.db.select().from(sites).orderBy(asc(sites.id)).limit(1)
await prepareE2eUsers(database.db, site!.id)
await prepareE2eCalls(database.db, site!.id, config.dataDir)
await prepareE2eChat(database.db, site!.id)
await prepareE2eWallboard(database.db, site!.id)
await database.close()

const { app, url } = await startServer(config)
const simulator = await startDemoSimulator(app, config)
console.log(`e2e server at ${url} with ${Object.keys(E2E_USERS).join(', ')}; WhatsApp simulator at ${simulator?.url ?? '(not started)'}`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void Promise.all([simulator?.stop(), app.close()]).then(() => process.exit(0)))
}
