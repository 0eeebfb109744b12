import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { count } from 'drizzle-orm'
import { REPO_ROOT, loadConfig } from '../../server/config.ts'
import type { Config } from '../../server/config.ts'
import { openDatabase } from '../../server/db/client.ts'
import type { Db } from '../../server/db/client.ts'
import { sites, users } from '../../server/db/schema/index.ts'
import { startServer } from '../../server/startup.ts'
import { createAdmin } from '../../server/users/create-admin.ts'
import { findSiteByDomain } from '../../server/sites/site-repo.ts'
import { findUserByUsername, loadRoles } from '../../server/users/user-repo.ts'
import { ALL_PERMISSIONS } from '../../contract/all-permissions.ts'
import { DEMO_PASSWORDS } from './helper.ts'
import { openTestDatabase } from './helper.ts'
import type { TestDatabase } from './helper.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atende-start-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function configIn(dataDir: string, env: Record<string, string> = {}): Config {
  // Tones: the spoken demo prompts have their own test (tests/server/media/demo-sounds.test.ts).
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_SOUNDS: 'tones', ...env })
  return { ...config, spaDir: path.join(dataDir, 'dist') }
}

async function tokenLogin(url: string, username: string, password: string): Promise<Response> {
  return fetch(`${url}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
}

const userCount = async (db: Db) => (await db.select({ n: count() }).from(users))[0]!.n

describe('npm start on PGlite', () => {
  it('seeds the demo once, and a second start on the same DATA_DIR keeps every row', async () => {
    const config = configIn(path.join(dir, 'restart'))
    const first = await startServer(config, { logger: false })
    try {
      expect(first.demo?.map((a) => a.username)).toEqual(['admin', 'supervisor', 'agent1', 'agent2'])
      const login = await tokenLogin(first.url, 'agent1', DEMO_PASSWORDS.agent1)
      expect(login.status).toBe(200)
      const { token } = (await login.json()) as { token: string }
      const patch = await fetch(`${first.url}/api/v1/business/profile/`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
        body: JSON.stringify({ avatar_message: 'survives a restart' }),
      })
      expect(patch.status).toBe(200)
    } finally {
      await first.app.close()
    }

    const second = await startServer(config, { logger: false })
    try {
      expect(second.demo).toBeNull()
      expect(await userCount(second.app.deps.db)).toBe(4)
      const login = await tokenLogin(second.url, 'agent1', DEMO_PASSWORDS.agent1)
      const { token } = (await login.json()) as { token: string }
      const profile = await fetch(`${second.url}/api/v1/business/profile/`, { headers: { authorization: `Token ${token}` } })
      expect(((await profile.json()) as { avatar_message: string }).avatar_message).toBe('survives a restart')
    } finally {
      await second.app.close()
    }
    // Two cold starts (migrations, argon2 for the demo passwords): 30 s on a loaded 2-core machine; a ceiling, not a goal.
  }, 180_000)
})

describe('production mode', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('is switched on by ATENDE_ENV or NODE_ENV', () => {
    expect(loadConfig({ ATENDE_ENV: 'production' }).production).toBe(true)
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true)
    expect(loadConfig({}).production).toBe(false)
  })

  it('never seeds, and create-admin makes an administrator with every permission who can sign in', async () => {
    const started = await startServer(configIn(path.join(dir, 'prod'), { ATENDE_ENV: 'production' }), { db: database.db, logger: false })
    try {
      expect(started.demo).toBeNull()
      expect(await userCount(database.db)).toBe(0)
      expect((await tokenLogin(started.url, 'admin', DEMO_PASSWORDS.admin)).status).toBe(400)

      const { site, user } = await createAdmin(database.db, { username: 'root', password: 'Strong-pass-42', domain: 'contact.example' })
      expect(site.domain).toBe('contact.example')
      expect(await loadRoles(database.db, site.id, user.id)).toEqual([...ALL_PERMISSIONS].sort())
      // The new site is the only one, hence the default for any Host.
      expect((await tokenLogin(started.url, 'root', 'Strong-pass-42')).status).toBe(200)
      await expect(createAdmin(database.db, { username: 'root', password: 'Strong-pass-42' })).rejects.toThrow(/already exists/)
      await expect(createAdmin(database.db, { username: 'weak', password: 'short' })).rejects.toThrow(/8 caracteres/)
    } finally {
      await started.app.close()
    }
  })
})

describe('npm run create-admin', () => {
  function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'create-admin', '--', ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env },
      })
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      child.on('exit', (code) => resolve({ code, output }))
    })
  }

  it('creates the site and the administrator in the configured database', async () => {
    // The child process reaches the same kind of database the suite runs on: PostgreSQL, or PGlite in a DATA_DIR.
    const database = process.env.TEST_DATABASE_URL ? await openTestDatabase() : null
    const dataDir = path.join(dir, 'cli')
    const env: Record<string, string> = database?.url ? { DATABASE_URL: database.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir }
    try {
      const created = await run(['--username', 'chief', '--password', 'Boss-pass-77', '--domain', 'cc.example'], env)
      expect(created.output).toContain('Created administrator "chief"')
      expect(created.code).toBe(0)
      const refused = await run(['--username', 'weak', '--password', 'weak'], env)
      expect(refused.code).toBe(1)
      expect(refused.output).toMatch(/create-admin: .*8/)
      expect((await run(['--username', 'nopass'], env)).code).toBe(2)

      const check = database ?? (await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') }))
      try {
        const site = await findSiteByDomain(check.db, 'cc.example')
        expect(site).not.toBeNull()
        const chief = await findUserByUsername(check.db, site!.id, 'chief')
        expect(chief?.password.startsWith('$argon2id$')).toBe(true)
        expect(await loadRoles(check.db, site!.id, chief!.id)).toEqual([...ALL_PERMISSIONS].sort())
        expect((await check.db.select({ n: count() }).from(sites))[0]!.n).toBe(1)
      } finally {
        await check.close()
      }
    } finally {
      if (database) await database.close().catch(() => {})
    }
    // Three `npm run` processes, the first migrating a fresh database: 35 s on a loaded 2-core machine, over 60 s
    // beside the whole suite.
  }, 180_000)
})
