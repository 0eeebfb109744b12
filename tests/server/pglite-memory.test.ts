import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/client.ts'
import { preparePgliteDir } from '../../server/db/pglite-prepare.ts'

// The embedded database is set for a small box (server/db/client.ts): small buffers, and a fresh directory is
// created and migrated in a child process so initdb's memory never stays in the server.
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function freshDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'atende-pglite-mem-'))
  dirs.push(dir)
  return path.join(dir, 'pgdata')
}

describe('the embedded database', () => {
  it('creates and migrates a fresh directory in a child process; the server then opens it ready', async () => {
    const dir = await freshDir()
    await preparePgliteDir(dir)
    expect((await stat(path.join(dir, 'PG_VERSION'))).isFile()).toBe(true)
    const database = await openDatabase({ pgliteDir: dir, prepared: true })
    try {
      const one = async (query: string) => ((await database.db.execute(sql.raw(query))) as unknown as { rows: Record<string, string>[] }).rows[0]!
      expect(Number((await one('SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).n)).toBeGreaterThan(0)
      expect((await one(`SELECT to_regclass('public.users')::text AS t`)).t).toBe('users')
    } finally {
      await database.close()
    }
  }, 120_000)

  it('runs with the small-site memory settings', async () => {
    const database = await openDatabase({ pgliteDir: await freshDir() })
    try {
      const show = async (name: string) => {
        const { rows } = (await database.db.execute(sql.raw(`SHOW ${name}`))) as unknown as { rows: Record<string, string>[] }
        return rows[0]![name]
      }
      expect(await show('shared_buffers')).toBe('16MB')
      expect(await show('maintenance_work_mem')).toBe('16MB')
      expect(await show('work_mem')).toBe('2MB')
    } finally {
      await database.close()
    }
  }, 120_000)
})
