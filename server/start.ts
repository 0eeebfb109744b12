import { loadConfig } from './config.ts'
import { ensureSpaBuilt } from './spa-build.ts'
import { startServer } from './startup.ts'
import { users } from './db/schema/index.ts'
import { DEMO_ACCOUNTS } from './seed/demo-seed.ts'
import { startDemoSimulator } from './seed/demo-simulator.ts'

// `npm start`: the built SPA and the API from one process.
const config = loadConfig()
await ensureSpaBuilt(config.spaDir)
const { app, url, demo } = await startServer(config)

const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.pgliteDir}`
console.log(`\nAtende is running at ${url}  (${config.production ? 'production' : 'development'} mode, ${database})`)
if (!config.production) {
  console.log(demo ? 'Demo data created. Sign in with:' : 'Demo sign-ins (unless changed since the demo was created):')
  for (const account of DEMO_ACCOUNTS) console.log(`  ${account.username.padEnd(11)} ${account.password.padEnd(12)} (${account.group})`)
}
const simulator = await startDemoSimulator(app, config)
if (simulator) console.log(`WhatsApp simulator (play the customer): ${simulator.url}/`)
const [anyUser] = await app.deps.db.select({ id: users.id }).from(users).limit(1)
if (!anyUser) console.log('No users yet: npm run create-admin -- --username <name> --password <password> [--domain <host>]')

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([simulator?.stop(), app.close()]).then(() => process.exit(0))
  })
}
