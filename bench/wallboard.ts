import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import WebSocket from 'ws'

// Issue 19 item 1: "50 supervisors watching 1,000 agents on one server". Like ws-status.ts (which it follows), the
// real server runs in a child process on a fresh PostgreSQL database with 1,000 agents signed in to the telephony
// channel (so the wallboard lists them) and 50 supervisors, each subscribed to the wallboard feed
// (wallboard_subscribe → wallboardSnapshot). Agents report status changes; every supervisor times the wallboardDelta
// that carries each change (the feed coalesces reads to one per 250 ms per site, so the figure includes that wait).
//
//   node bench/wallboard.ts              PostgreSQL (BENCH_PG_URL or the default test role); BENCH_PGLITE=1 adds PGlite
//   BENCH_AGENTS=200 BENCH_SUPERVISORS=10 node bench/wallboard.ts

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000)
const SUPERVISORS = Number(process.env.BENCH_SUPERVISORS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
/** Paced phase: status changes per second, spread over the agents. */
const RATE = Number(process.env.BENCH_RATE ?? 20)
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

  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-wallboard-'))
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  let dropDb = async () => {}
  let database
  if (backend === 'postgres') {
    const name = `atende_bench_wallboard_${Date.now()}`
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
      await db.insert(schema.userExtras).values(rows.map((r) => ({ userId: r.id, siteId: site!.id, loginChannelTelephony: group === 'Agentes' })))
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

    // Supervisors time every wallboardDelta against the moment each change it carries was sent.
    const sentAt = new Map<string, number>()
    const latencies: number[] = []
    let deliveries = 0
    let snapshots = 0
    let deltaBytes = 0
    let deltaFrames = 0
    const onSupervisorFrame = (data: WebSocket.RawData) => {
      const text = data.toString()
      const frame = JSON.parse(text) as { action: string; agents?: { id: number; status: string | null }[] }
      if (frame.action === 'wallboardSnapshot') snapshots++
      if (frame.action !== 'wallboardDelta') return
      deltaFrames++
      deltaBytes += text.length
      const now = performance.now()
      for (const agent of frame.agents ?? []) {
        const t0 = sentAt.get(`${agent.id}:${agent.status}`)
        if (t0 === undefined) continue
        deliveries++
        latencies.push(now - t0)
      }
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
    const subscribeStart = performance.now()
    for (const supervisor of clients.slice(0, prepared.supervisors.length)) supervisor.ws.send('{"action":"wallboard_subscribe"}')
    while (snapshots < prepared.supervisors.length) await sleep(10)
    const snapshotMs = performance.now() - subscribeStart
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
      deltaBytes = 0
      deltaFrames = 0
      sentAt.clear()
      const changes = await send()
      const expected = changes * prepared.supervisors.length
      const deadline = Date.now() + 30_000
      while (deliveries < expected && Date.now() < deadline) await sleep(50)
      const sorted = [...latencies].sort((a, b) => a - b)
      return {
        label,
        changes,
        deliveries,
        expected,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
        frames: deltaFrames / prepared.supervisors.length,
        bytes: deltaBytes / Math.max(1, deltaFrames),
      }
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
      snapshotMs,
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
  const backends: ('pglite' | 'postgres')[] = process.env.BENCH_PGLITE === '1' ? ['pglite'] : []
  if (process.env.BENCH_PG !== '0' && (await postgresAvailable())) backends.push('postgres')
  for (const backend of backends) {
    const result = await run(backend)
    console.log(
      `wallboard on ${backend.padEnd(8)}: ${result.connected} sockets (${AGENTS} agents + ${SUPERVISORS} supervisors) connected in ` +
        `${(result.connectMs / 1000).toFixed(1)} s; ${SUPERVISORS} snapshots in ${result.snapshotMs.toFixed(0)} ms; ` +
        `server RSS ${mb(result.rssBefore)} → ${mb(result.rssAfter)}`,
    )
    for (const phase of result.phases) {
      console.log(
        `  ${phase.label.padEnd(20)}: change_state → wallboardDelta on ${SUPERVISORS} supervisor sockets: p50 ${phase.p50.toFixed(1)} ms, ` +
          `p99 ${phase.p99.toFixed(1)} ms, max ${phase.max.toFixed(1)} ms (${phase.deliveries}/${phase.expected} changes seen; ` +
          `${phase.frames.toFixed(0)} deltas per supervisor, ${(phase.bytes / 1024).toFixed(1)} KB each)`,
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
