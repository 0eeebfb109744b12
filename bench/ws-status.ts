import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import WebSocket from 'ws'

// QUALITY.md "realtime: agent status change → every supervisor socket, p99, with 1,000 connected agents on one
// server". The real server runs in a child process (loopback only) on a fresh database with 1,000 agents and a few
// supervisors, all signed in with API tokens; every agent opens /ws/business/, logs in and pings every 5 s as the
// console does. Then agents report status changes (change_state) and each supervisor socket times its agentStatus
// frames. Also prints the server's memory per connected socket (heap after GC, and RSS).
//
//   node bench/ws-status.ts            PGlite, then PostgreSQL when BENCH_PG_URL (or the default test role) answers
//   BENCH_AGENTS=200 node bench/ws-status.ts
//
// Bounded: connecting takes a few seconds, each measured phase at most BENCH_SECONDS (default 5) plus a drain.

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000)
const SUPERVISORS = Number(process.env.BENCH_SUPERVISORS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
/** Paced phase: status changes per second, spread over the agents. */
const RATE = Number(process.env.BENCH_RATE ?? 200)
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://atende:atende@127.0.0.1:5432/atende_test'
const SELF = fileURLToPath(import.meta.url)

type Memory = { heapUsed: number; external: number; arrayBuffers: number; rss: number }
type ChildMessage = { type: 'listening'; port: number } | { type: 'memory'; memory: Memory; sockets: number }

// ------------------------------------------------------------------------------------------------ the driver
type Account = { id: number; token: string }
type Prepared = { env: Record<string, string>; agents: Account[]; supervisors: Account[]; cleanup: () => Promise<void> }

async function prepare(backend: 'pglite' | 'postgres'): Promise<Prepared> {
  const { openDatabase } = await import('../server/db/client.ts')
  const { seedDemoIfEmpty } = await import('../server/seed/demo-seed.ts')
  const schema = await import('../server/db/schema/index.ts')
  const { hashKey, randomKey } = await import('../server/auth/keys.ts')
  const { hashPassword } = await import('../server/auth/passwords.ts')

  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-ws-'))
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  let dropDb = async () => {}
  let database
  if (backend === 'postgres') {
    const name = `atende_bench_ws_${Date.now()}`
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
      await db.insert(schema.userExtras).values(rows.map((r) => ({ userId: r.id, siteId: site!.id })))
      const tokens = rows.map((r) => ({ id: r.id, token: randomKey() }))
      await db.insert(schema.authTokens).values(tokens.map((t) => ({ keyHash: hashKey(t.token), siteId: site!.id, userId: t.id, expiresAt })))
      accounts.push(...tokens)
    }
    return accounts
  }
  const agents = await createAccounts('bench-agent-', AGENTS, 'Agentes')
  const supervisors = await createAccounts('bench-supervisor-', SUPERVISORS, 'Supervisores')
  await database.close()
  return {
    env,
    agents,
    supervisors,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      await dropDb()
    },
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(SELF, ['serve'], { env, execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'listening') resolve({ child, port: message.port })
    })
  })
}

function memoryOf(child: ChildProcess): Promise<{ memory: Memory; sockets: number }> {
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

type Client = { ws: WebSocket; account: Account }

function connect(port: number, account: Account, onMessage?: (data: WebSocket.RawData) => void): Promise<Client> {
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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function run(backend: 'pglite' | 'postgres') {
  const prepared = await prepare(backend)
  const { child, port } = await startChild(prepared.env)
  const clients: Client[] = []
  try {
    const before = await memoryOf(child)

    // Supervisors time every agentStatus frame against the moment the change was sent.
    const sentAt = new Map<string, number>()
    const latencies: number[] = []
    let deliveries = 0
    const onSupervisorFrame = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { action: string; user?: number; status?: string }
      if (frame.action !== 'agentStatus') return
      const t0 = sentAt.get(`${frame.user}:${frame.status}`)
      if (t0 === undefined) return
      deliveries++
      latencies.push(performance.now() - t0)
    }
    for (const account of prepared.supervisors) clients.push(await connect(port, account, onSupervisorFrame))

    const connectStart = performance.now()
    const agents: Client[] = []
    for (let i = 0; i < prepared.agents.length; i += 100) {
      agents.push(...(await Promise.all(prepared.agents.slice(i, i + 100).map((account) => connect(port, account)))))
    }
    clients.push(...agents)
    const connectMs = performance.now() - connectStart
    // The console pings every 5 s; so do the bench agents (it also keeps them from being dropped as idle).
    const pinger = setInterval(() => {
      for (const agent of agents) if (agent.ws.readyState === WebSocket.OPEN) agent.ws.send('{"action":"ping"}')
    }, 5000)
    await sleep(500)
    const after = await memoryOf(child)

    // Every agent flips between two statuses, so each frame is a real change.
    const statusOf = new Map<number, string>()
    const change = (agent: Client) => {
      const status = statusOf.get(agent.account.id) === 'not_inuse' ? 'busy' : 'not_inuse'
      statusOf.set(agent.account.id, status)
      sentAt.set(`${agent.account.id}:${status}`, performance.now())
      agent.ws.send(JSON.stringify({ action: 'change_state', channel: 'telephony', status }))
    }
    const measure = async (label: string, send: () => Promise<number>) => {
      latencies.length = 0
      deliveries = 0
      sentAt.clear()
      const changes = await send()
      const expected = changes * prepared.supervisors.length
      const deadline = Date.now() + 30_000
      while (deliveries < expected && Date.now() < deadline) await sleep(50)
      const sorted = [...latencies].sort((a, b) => a - b)
      return { label, changes, deliveries, expected, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN }
    }

    // Paced: RATE changes per second for SECONDS, round-robin over the agents.
    const paced = await measure(`paced ${RATE}/s`, async () => {
      const total = RATE * SECONDS
      const start = performance.now()
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / RATE
        const wait = due - performance.now()
        if (wait > 1) await sleep(wait)
        change(agents[i % agents.length]!)
      }
      return total
    })
    // Burst: every agent changes at once.
    const burst = await measure(`burst ${agents.length} at once`, async () => {
      for (const agent of agents) change(agent)
      return agents.length
    })
    clearInterval(pinger)

    const perSocket = (key: keyof Memory) => (after.memory[key] - before.memory[key]) / Math.max(1, after.sockets - before.sockets)
    return {
      backend,
      connected: after.sockets,
      connectMs,
      perSocketHeap: perSocket('heapUsed') + perSocket('external'),
      rssBefore: before.memory.rss,
      rssAfter: after.memory.rss,
      phases: [paced, burst],
    }
  } finally {
    for (const client of clients) client.ws.terminate()
    child.send({ type: 'stop' })
    await new Promise((resolve) => child.once('exit', resolve))
    await prepared.cleanup()
  }
}

async function postgresAvailable(): Promise<boolean> {
  try {
    await adminQuery('SELECT 1')
    return true
  } catch {
    return false
  }
}

async function main() {
  const backends: ('pglite' | 'postgres')[] = ['pglite']
  if (process.env.BENCH_PG !== '0' && (await postgresAvailable())) backends.push('postgres')
  for (const backend of backends) {
    const result = await run(backend)
    console.log(
      `ws status on ${backend.padEnd(8)}: ${result.connected} sockets (${AGENTS} agents + ${SUPERVISORS} supervisors) connected in ` +
        `${(result.connectMs / 1000).toFixed(1)} s; memory per socket ${(result.perSocketHeap / 1024).toFixed(1)} KB (heap+external after GC); ` +
        `server RSS ${mb(result.rssBefore)} → ${mb(result.rssAfter)} (RSS moves with the allocator and, on PGlite, the WASM heap)`,
    )
    for (const phase of result.phases) {
      console.log(
        `  ${phase.label.padEnd(20)}: change_state → ${SUPERVISORS} supervisor sockets: p50 ${phase.p50.toFixed(1)} ms, ` +
          `p99 ${phase.p99.toFixed(1)} ms, max ${phase.max.toFixed(1)} ms (${phase.deliveries}/${phase.expected} frames)`,
      )
    }
  }
}

// ------------------------------------------------------------------------------------------------ the server child
async function serve() {
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

if (process.argv[2] === 'serve') await serve()
else await main()
