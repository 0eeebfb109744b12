import type { PGlite } from '@electric-sql/pglite'
import { readMigrationFiles } from 'drizzle-orm/migrator'

// Drizzle's migrator sends a migration one statement at a time; through PGlite's WASM boundary the settings schema
// (about a thousand statements) then takes seconds on every open, and every test file opens a database. This runs
// each pending migration file as one multi-statement exec, in one transaction, and keeps the bookkeeping Drizzle
// keeps (drizzle.__drizzle_migrations: hash, created_at = the folder's timestamp), so either migrator can follow.
export async function migratePglite(client: PGlite, migrationsFolder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder })
  await client.exec(`
    CREATE SCHEMA IF NOT EXISTS drizzle;
    CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);
  `)
  const { rows } = await client.query<{ created_at: string }>('SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1')
  const last = rows[0] ? Number(rows[0].created_at) : null
  const pending = migrations.filter((m) => last === null || last < m.folderMillis)
  if (pending.length === 0) return
  await client.transaction(async (tx) => {
    for (const migration of pending) {
      await tx.exec(migration.sql.join('\n'))
      await tx.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [migration.hash, migration.folderMillis])
    }
  })
}
