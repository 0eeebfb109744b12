import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/client.ts'
import { createBus } from '../bus/bus.ts'
import { announceSitesChanged, changeSiteDomain, createTenant, listSites, OperatorError } from '../platform/operator.ts'

// The platform operator's tenant commands (no site role can do these through the API):
//   npm run site -- list
//   npm run site -- create --domain D --name N --username U --password P
//   npm run site -- set-domain --domain OLD --to NEW
// Uses the same DATA_DIR / DATABASE_URL (and REDIS_URL, to tell running servers) as `npm start`.
const USAGE = `usage:
  npm run site -- list
  npm run site -- create --domain D --name N --username U --password P
  npm run site -- set-domain --domain OLD --to NEW`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    domain: { type: 'string' },
    name: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    to: { type: 'string' },
  },
})
const [command] = positionals
const ready =
  (command === 'list' && positionals.length === 1) ||
  (command === 'create' && values.domain && values.username && values.password) ||
  (command === 'set-domain' && values.domain && values.to)
if (!ready) {
  console.error(USAGE)
  process.exit(2)
}

const config = loadConfig()
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir })
// Servers sharing a Redis bus hear of the change at once (their Host cache, Kamailio's realm tables).
async function announce(): Promise<void> {
  if (!config.redisUrl) return
  const bus = await createBus(config.redisUrl)
  await announceSitesChanged(database.db, bus)
  await bus.close()
}
try {
  if (command === 'list') {
    for (const site of await listSites(database.db)) {
      const flags = [site.isDefault ? 'default' : '', site.isActive ? '' : 'inactive'].filter(Boolean).join(', ')
      console.log(`${site.id}\t${site.domain}\t${site.name}\t${site.users} users${flags ? `\t(${flags})` : ''}`)
    }
  } else if (command === 'create') {
    const { site, user } = await createTenant(database.db, {
      domain: values.domain!,
      name: values.name ?? '',
      username: values.username!,
      password: values.password!,
    })
    await announce()
    console.log(`Created site ${site.domain} (id ${site.id}) with administrator "${user.username}" (id ${user.id}).`)
  } else {
    const site = await changeSiteDomain(database.db, values.domain!, values.to!)
    await announce()
    console.log(`Site ${site.id} now answers on ${site.domain}.`)
  }
} catch (error) {
  console.error(`site: ${error instanceof OperatorError ? error.message : (error as Error).stack}`)
  process.exitCode = 1
} finally {
  await database.close()
}
