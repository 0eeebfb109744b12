import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { openDatabase } from '../db/client.ts'
import { rebuildHours } from '../reports/hours.ts'

// Rebuilds the reports' pre-aggregated call hours (server/reports/hours.ts) of a site for a period, on demand: calls
// written before the table existed, or a repair. The days are UTC; the server may keep running meanwhile.
//   npm exec -- node server/cli/rebuild-report-hours.ts --site 1 --from 2025-03-01 --to 2025-03-31
const { values } = parseArgs({ options: { site: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } })
const day = /^\d{4}-\d{2}-\d{2}$/
if (!values.site || !/^\d+$/.test(values.site) || !values.from || !day.test(values.from) || !values.to || !day.test(values.to)) {
  console.error('usage: rebuild-report-hours.ts --site <id> --from <YYYY-MM-DD> --to <YYYY-MM-DD> (UTC days, inclusive)')
  process.exit(2)
}
const config = loadConfig()
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir })
try {
  const from = new Date(`${values.from}T00:00:00Z`)
  const to = new Date(Date.parse(`${values.to}T00:00:00Z`) + 86_400_000)
  const started = performance.now()
  const hours = await rebuildHours(database.db, Number(values.site), from, to)
  console.log(`${hours} hours rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`)
} finally {
  await database.close()
}
