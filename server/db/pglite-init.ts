import { openDatabase } from './client.ts'

// `node server/db/pglite-init.ts <dir>`: creates and migrates a PGlite data directory, then exits (pglite-prepare.ts).
const database = await openDatabase({ pgliteDir: process.argv[2]!, prepared: true })
await database.close()
