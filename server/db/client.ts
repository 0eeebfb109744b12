import path from 'node:path'
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema/index.ts'
import { preparePgliteDir } from './pglite-prepare.ts'

// One database handle type for both engines: PGlite (embedded, the default) and PostgreSQL (DATABASE_URL). Both run
// the same generated SQL migrations before anything else touches the database.
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
}

/**
 * The embedded engine is for a demo or a small site: PostgreSQL's defaults (128 MB of shared buffers, 64 MB for
 * index builds) would grow the WASM heap past its 128 MB start, and a WASM heap never shrinks.
 */
const PGLITE_SETTINGS = ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'maintenance_work_mem = 16MB', 'work_mem = 2MB', 'temp_buffers = 2MB']

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * PostgreSQL when `databaseUrl` is given; otherwise PGlite in `pgliteDir` (in memory when that is undefined), started
 * from `pgliteTemplate` (a PGlite data dump) when given — tests start from an already migrated one.
 */
export async function openDatabase(options: { databaseUrl?: string; pgliteDir?: string; pgliteTemplate?: Blob; prepared?: boolean }): Promise<Database> {
  if (!options.databaseUrl && options.pgliteDir && !options.prepared) await preparePgliteDir(options.pgliteDir)
  const database = options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPglite(options.pgliteDir, options.pgliteTemplate)
  try {
    await database.migrate()
    // Imported here: data-steps.ts imports this module's types.
    const { runDataSteps } = await import('./data-steps.ts')
    await runDataSteps(database.db)
  } catch (error) {
    await database.close()
    throw error
  }
  return { db: database.db, kind: database.kind, close: database.close }
}

async function openPglite(dir: string | undefined, template: Blob | undefined) {
  // Imported lazily so a PostgreSQL deployment never loads the WASM engine.
  const { PGlite } = await import('@electric-sql/pglite')
  // pg_trgm: the trigram indexes behind the settings lists' search (server/db/entity-schema/render.ts).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migratePglite } = await import('./pglite-migrate.ts')
  if (dir) await mkdir(dir, { recursive: true })
  const client = new PGlite({
    ...(dir ? { dataDir: dir } : {}),
    ...(template ? { loadDataDir: template } : {}),
    extensions: { pg_trgm },
    postgresqlconf: PGLITE_SETTINGS,
  })
  const db = drizzle(client, { schema })
  return {
    db: db as unknown as Db,
    kind: 'pglite' as const,
    migrate: () => migratePglite(client, MIGRATIONS_DIR),
    close: () => client.close(),
  }
}

async function openPostgres(url: string) {
  const { default: pg } = await import('pg')
  const { drizzle } = await import('drizzle-orm/node-postgres')
  const { migrate } = await import('drizzle-orm/node-postgres/migrator')
  // A database that does not answer fails a request after 10 s (answered 503) rather than holding it forever.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 })
  // An idle connection the server closed (a PostgreSQL restart, a dropped test database) is discarded by the pool and
  // replaced on the next query; without a listener its 'error' event would crash the process.
  pool.on('error', () => {})
  const db = drizzle(pool, { schema })
  return {
    db: db as unknown as Db,
    kind: 'postgres' as const,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => pool.end(),
  }
}

type DbError = { code?: unknown; message?: unknown; cause?: unknown }

/** The error and its causes (drizzle wraps the driver's error in its own). */
function chain(error: unknown): DbError[] {
  const errors: DbError[] = []
  for (let e = error; e && typeof e === 'object' && errors.length < 5; e = (e as DbError).cause) errors.push(e as DbError)
  return errors
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE'])
// admin/crash shutdown, starting up, too many connections, database dropped.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '3D000'])
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|not queryable|PGlite is closed/i

/** Whether a failure means the database cannot be reached now (down, restarting, closed): the request may be retried. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return chain(error).some(({ code, message }) => {
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)
  })
}

/**
 * Whether the database refused a value a request carried (SQLSTATE class 22, data exception: out of range, invalid
 * text, NUL, bad encoding; 54001 nesting too deep). Validation should have caught it; answering it as the client's
 * error keeps an input no one validated from becoming a 500.
 */
export function isRefusedValue(error: unknown): boolean {
  return chain(error).some(({ code }) => typeof code === 'string' && (code.startsWith('22') || code === '54001'))
}
