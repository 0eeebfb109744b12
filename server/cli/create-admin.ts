import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/client.ts'
import { createAdmin } from '../users/create-admin.ts'

// npm run create-admin -- --username X --password Y [--domain D]
// Uses the same DATA_DIR / DATABASE_URL as `npm start`.
const { values } = parseArgs({
  options: { username: { type: 'string' }, password: { type: 'string' }, domain: { type: 'string' } },
})

if (!values.username || !values.password) {
  console.error('usage: npm run create-admin -- --username X --password Y [--domain D]')
  process.exit(2)
}

const config = loadConfig()
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir })
try {
  const { site, user } = await createAdmin(database.db, { username: values.username, password: values.password, domain: values.domain })
  console.log(`Created administrator "${user.username}" (id ${user.id}) on site ${site.domain} (id ${site.id}).`)
} catch (error) {
  console.error(`create-admin: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  await database.close()
}
