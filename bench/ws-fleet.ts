import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import WebSocket from 'ws'

// A fleet of agents and supervisors on the service socket, for the realtime benches (ws-status.ts, wallboard.ts): a
// fresh database (PGlite or a scratch PostgreSQL one) seeded with the demo and N agent and M supervisor accounts signed
// in by API tokens, the real server in a child process on loopback (the bench forks itself with `serve`), and the
// socket, memory and percentile helpers both use.

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://atende:atende@127.0.0.1:5432/atende_test'

export type Memory = { heapUsed: number; external: number; arrayBuffers: number; rss: number }
export type ChildMessage = { type: 'listening'; port: number } | { type: 'memory'; memory: Memory; sockets: number }
export type Account = { id: number; token: string }
export type Prepared = { env: Record<string, string>; agents: Account[]; supervisors: Account[]; admins: Account[]; cleanup: () => Promise<void> }
/** Names the scratch folder and database; `agentsSignInTelephony`: the agents are signed in to the telephony channel. */
export type Fleet = { name: string; agents: number; supervisors: number; agentsSignInTelephony?: boolean; admins?: number }

export async function prepare(backend: 'pglite' | 'postgres', fleet: Fleet): Promise<Prepared> {
  const { openDatabase } = await import('../server/db/client.ts')
  const { seedDemoIfEmpty } = await import('../server/seed/demo-seed.ts')
  const schema = await import('../server/db/schema/index.ts')
  const { hashKey, randomKey } = await import('../server/auth/keys.ts')
  const { hashPassword } = await import('../server/auth/passwords.ts')

  const dataDir = mkdtempSync(join(tmpdir(), `atende-bench-${fleet.name}-`))
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  let dropDb = async () => {}
  let database
  if (backend === 'postgres') {
    const name = `atende_bench_${fleet.name}_${Date.now()}`
    await adminQuery(`CREATE DATABASE ${name}`)
    const url = new URL(PG_ADMIN_URL)
    url.pathname = `/${name}`
    env.DATABASE_URL = url.toString()
    dropDb = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    database = await openDatabase({ databaseUrl: env.DATABASE_URL })
  } else {
    delete env.DATABASE_URL
    database = await openDatabase({ pgliteDir: join(dataDir, 'pgdata') })
  }
  const { db } = database
  await seedDemoIfEmpty(db, { port: 8080 })
  const [site] = await db.select().from(schema.sites).limit(1)
  const groups = await db.select().from(schema.permissionGroups).where(eq(schema.permissionGroups.siteId, site!.id))
  const groupId = (name: string) => groups.find((g) => g.name === name)!.id
  // One argon2 hash for every bench user: 1,000 hashes would take longer than the bench.
  const password = await hashPassword(randomKey())
  const expiresAt = new Date(Date.now() + 86_400_000)

  async function createAccounts(prefix: string, count: number, group: string): Promise<Account[]> {
    const accounts: Account[] = []
    for (let start = 0; start < count; start += 250) {
      const size = Math.min(250, count - start)
      const rows = await db
        .insert(schema.users)
        .values(Array.from({ length: size }, (_, i) => ({ siteId: site!.id, username: `${prefix}${start + i}`, password })))
        .returning({ id: schema.users.id })
      await db.insert(schema.userGroups).values(rows.map((r) => ({ userId: r.id, groupId: groupId(group), siteId: site!.id })))
      await db
        .insert(schema.userExtras)
        .values(rows.map((r) => ({ userId: r.id, siteId: site!.id, loginChannelTelephony: fleet.agentsSignInTelephony === true && group === 'Agentes' })))
      const tokens = rows.map((r) => ({ id: r.id, token: randomKey() }))
      await db.insert(schema.authTokens).values(tokens.map((t) => ({ keyHash: hashKey(t.token), siteId: site!.id, userId: t.id, expiresAt })))
      accounts.push(...tokens)
    }
    return accounts
  }
  const agents = await createAccounts('bench-agent-', fleet.agents, 'Agentes')
  const supervisors = await createAccounts('bench-supervisor-', fleet.supervisors, 'Supervisores')
  const admins = await createAccounts('bench-admin-', fleet.admins ?? 0, 'Administradores')
  await database.close()
  return {
    env,
    agents,
    supervisors,
    admins,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      await dropDb()
    },
  }
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

export function startChild(self: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(self, ['serve'], { env, execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'listening') resolve({ child, port: message.port })
    })
  })
}

export function memoryOf(child: ChildProcess): Promise<{ memory: Memory; sockets: number }> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== 'memory') return
      child.off('message', onMessage)
      resolve(message)
    }
    child.on('message', onMessage)
    child.send({ type: 'memory' })
  })
}

export type Client = { ws: WebSocket; account: Account }

export function connect(port: number, account: Account, onMessage?: (data: WebSocket.RawData) => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/business/`, { headers: { authorization: `Token ${account.token}` } })
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
    if (onMessage) ws.on('message', onMessage)
    ws.once('open', () => {
      ws.send(JSON.stringify({ action: 'login' }))
      resolve({ ws, account })
    })
  })
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function postgresAvailable(): Promise<boolean> {
  try {
    await adminQuery('SELECT 1')
    return true
  } catch {
    return false
  }
}

// ------------------------------------------------------------------------------------------------ the server child
export async function serve() {
  const { loadConfig } = await import('../server/config.ts')
  const { startServer } = await import('../server/startup.ts')
  const config = { ...loadConfig({ ...process.env, TELEPHONY: 'off' }), port: 0, host: '127.0.0.1', logLevel: 'warn' }
  const { app } = await startServer(config)
  const address = app.server.address()
  process.send!({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 } satisfies ChildMessage)
  process.on('message', (message: { type: string }) => {
    if (message.type === 'memory') {
      globalThis.gc?.()
      globalThis.gc?.()
      const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage()
      process.send!({ type: 'memory', memory: { heapUsed, external, arrayBuffers, rss }, sockets: app.realtime.registry.size } satisfies ChildMessage)
    }
    if (message.type === 'stop') void app.close().then(() => process.exit(0))
  })
}
