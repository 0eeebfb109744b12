import { fork, type ChildProcess } from 'node:child_process'
import { createHmac, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import WebSocket from 'ws'

// Issue 13 "bench/chat.ts": the chat engine on one server against PostgreSQL (TELEPHONY off). The real server runs in a
// child process on a fresh database with BENCH_AGENTS (500) agents signed in to the chat channel, each holding
// BENCH_ROOMS_PER_AGENT (5) active WhatsApp rooms (team capacity 5) and a chat socket (/ws/chat/, token subprotocol).
// The WhatsApp channel's graph_url points at a minimal fake Graph API in this process (it answers a send at once with
// a wamid): the simulator (simulator/whatsapp/) enforces Meta's 80/s per number and posts status webhooks back, so it
// would measure itself and Meta's limits, not the engine.
//
//   (a) a signed webhook (Meta's envelope, X-Hub-Signature-256) for a customer's text → the 'message' frame on their
//       agent's chat socket: p50/p99 at BENCH_RATE (100) per second for BENCH_SECONDS (5);
//   (b) sustained inbound: the rate steps up (BENCH_STEPS) until p99 passes 100 ms or frames go missing;
//   (c) outbox sends/s: agents POST send-message to distinct customers; one number with the default throttle (80/s),
//       then the channel's messages_per_second raised to 1,000 (Meta's top tier) to see what the engine does there;
//   (d) memory per open room: the server's heap (after GC) and RSS before and after BENCH_NEW_ROOMS (1,000) new
//       customers open rooms (they wait in the chat queue: every agent is at capacity).
//
//   npm exec -- node bench/chat.ts                    (BENCH_PG_URL: the admin role, default the test role)
//   BENCH_CPU_PROF=1 npm exec -- node bench/chat.ts   also writes the server's CPU profile of (a) and (b) (not the
//                                                     set-up) into ./bench-profiles/ (node:inspector)

const AGENTS = Number(process.env.BENCH_AGENTS ?? 500)
const ROOMS_PER_AGENT = Number(process.env.BENCH_ROOMS_PER_AGENT ?? 5)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const RATE = Number(process.env.BENCH_RATE ?? 100)
const STEPS = (process.env.BENCH_STEPS ?? '50,100,150,200,300,500,750,1000,1250,1500').split(',').map(Number)
const OUTBOX_MESSAGES = Number(process.env.BENCH_OUTBOX ?? 1000)
const NEW_ROOMS = Number(process.env.BENCH_NEW_ROOMS ?? 1000)
const GOAL_P99_MS = 100
const GOAL_RATE = 1000
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://atende:atende@127.0.0.1:5432/atende_test'
const SELF = fileURLToPath(import.meta.url)

const PHONE_NUMBER_ID = '300000000000001'
const WABA_ID = '400000000000001'
const APP_SECRET = 'bench-app-secret'
const ACCESS_TOKEN = 'bench-access-token'

type Memory = { heapUsed: number; external: number; rss: number }
type ChildMessage =
  | { type: 'listening'; port: number }
  | { type: 'memory'; memory: Memory; queries: number; cpuMs: number }
  | { type: 'cpu'; queries: number; cpuMs: number }
  | { type: 'throttled' }
  | { type: 'profiled'; file: string | null }
type ParentMessage = { type: 'memory' } | { type: 'cpu' } | { type: 'stop' } | { type: 'throttle'; perSecond: number } | { type: 'profile'; on: boolean }

// ------------------------------------------------------------------------------------------------ a fake Graph API
type FakeGraph = { url: string; sends: number[]; close: () => Promise<void> }

async function startFakeGraph(): Promise<FakeGraph> {
  const sends: number[] = []
  let serial = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method === 'POST' && /\/messages$/.test(req.url ?? '')) {
        sends.push(performance.now())
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { to?: string }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.bench${++serial}` }] }))
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ data: [], paging: { cursors: {} } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return { url: `http://127.0.0.1:${address.port}`, sends, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

// ------------------------------------------------------------------------------------------------ the driver
type Agent = { id: number; token: string; rooms: Room[] }
type Room = { id: number; contact: string; agent: number }
type Prepared = { env: Record<string, string>; agents: Agent[]; channelId: number; siteId: number; databaseUrl: string; cleanup: () => Promise<void> }

const contactOf = (n: number) => `55119${String(10_000_000 + n)}`

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

async function prepare(graphUrl: string): Promise<Prepared> {
  const { openDatabase } = await import('../server/db/client.ts')
  const { seedDemoIfEmpty } = await import('../server/seed/demo-seed.ts')
  const schema = await import('../server/db/schema/index.ts')
  const { hashKey, randomKey } = await import('../server/auth/keys.ts')
  const { hashPassword } = await import('../server/auth/passwords.ts')

  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-chat-'))
  const name = `atende_bench_chat_${Date.now()}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: url.toString() }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL })
  const { db } = database
  await seedDemoIfEmpty(db, { port: 8080 })
  const [site] = await db.select().from(schema.sites).limit(1)
  const siteId = site!.id
  const groups = await db.select().from(schema.permissionGroups).where(eq(schema.permissionGroups.siteId, siteId))
  const agentsGroup = groups.find((g) => g.name === 'Agentes')!.id
  const [team] = await db.insert(schema.teams).values({ siteId, name: 'Bench chat', chatLimitPerUser: ROOMS_PER_AGENT }).returning()
  const [channel] = await db
    .insert(schema.chatChannels)
    .values({
      siteId,
      description: 'WhatsApp bench',
      type: 'whatsapp',
      phoneNumber: '5511999998888',
      phoneNumberId: PHONE_NUMBER_ID,
      wabaId: WABA_ID,
      accessToken: ACCESS_TOKEN,
      appSecret: APP_SECRET,
      verifyToken: 'bench-verify',
      apiVersion: 'v23.0',
      graphUrl,
    })
    .returning()
  const [queue] = await db.insert(schema.chatQueues).values({ siteId, description: 'Bench chat queue' }).returning()
  await db.insert(schema.chatQueuesTeams).values({ siteId, queueId: queue!.id, teamId: team!.id })
  await db
    .insert(schema.chatInbounds)
    .values({ siteId, channelId: channel!.id, description: 'Bench inbound', destinationApp: 'queue', destinationAppdata: String(queue!.id) })

  // One argon2 hash for every bench user: 500 hashes would take longer than the bench.
  const password = await hashPassword(randomKey())
  const expiresAt = new Date(Date.now() + 86_400_000)
  const agents: Agent[] = []
  let customer = 0
  for (let start = 0; start < AGENTS; start += 250) {
    const size = Math.min(250, AGENTS - start)
    const rows = await db
      .insert(schema.users)
      .values(
        Array.from({ length: size }, (_, i) => ({ siteId, username: `bench-chat-${start + i}`, password, firstName: `Agent ${start + i}`, teamId: team!.id })),
      )
      .returning({ id: schema.users.id })
    await db.insert(schema.userGroups).values(rows.map((r) => ({ userId: r.id, groupId: agentsGroup, siteId })))
    await db.insert(schema.userExtras).values(rows.map((r) => ({ userId: r.id, siteId, loginChannelChat: true })))
    const tokens = rows.map((r) => ({ id: r.id, token: randomKey(), rooms: [] as Room[] }))
    await db.insert(schema.authTokens).values(tokens.map((t) => ({ keyHash: hashKey(t.token), siteId, userId: t.id, expiresAt })))
    const now = new Date()
    const roomValues = tokens.flatMap((t) =>
      Array.from({ length: ROOMS_PER_AGENT }, () => {
        const contact = contactOf(++customer)
        return {
          uid: randomUUID(),
          siteId,
          channelId: channel!.id,
          contact,
          address: contact,
          phone: contact,
          title: `Cliente ${customer}`,
          userId: t.id,
          queueId: queue!.id,
          state: 'active',
          offeredAt: now,
          answeredAt: now,
          lastClientMessageAt: now,
        }
      }),
    )
    const inserted = await db
      .insert(schema.chatRooms)
      .values(roomValues)
      .returning({ id: schema.chatRooms.id, contact: schema.chatRooms.contact, userId: schema.chatRooms.userId })
    for (const r of inserted) tokens.find((t) => t.id === r.userId)!.rooms.push({ id: r.id, contact: r.contact, agent: r.userId! })
    agents.push(...tokens)
  }
  await database.close()
  return {
    env,
    agents,
    channelId: channel!.id,
    siteId,
    databaseUrl: env.DATABASE_URL,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

function startChild(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const execArgv = ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=8 --optimize-for-size').split(' ').filter(Boolean)]
  const child = fork(SELF, ['serve'], { env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'listening') resolve({ child, port: message.port })
    })
  })
}

function ask<T extends ChildMessage['type']>(child: ChildProcess, request: ParentMessage, answer: T): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== answer) return
      child.off('message', onMessage)
      resolve(message as Extract<ChildMessage, { type: T }>)
    }
    child.on('message', onMessage)
    child.send(request)
  })
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

type Frame = { action: string; step_id?: number; message?: { content?: string; sent_by?: string } }

/** A 503 (the server's back-pressure while a loaded machine lags its event loop) is tried again, as a client would. */
async function openChatSocket(port: number, agent: Agent, onFrame: (frame: Frame) => void): Promise<WebSocket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectChatSocket(port, agent, onFrame)
    } catch (error) {
      if (attempt >= 20 || !/refused: 503/.test(String(error))) throw error
      await sleep(500 * attempt)
    }
  }
}

function connectChatSocket(port: number, agent: Agent, onFrame: (frame: Frame) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat/`, ['token', agent.token])
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`chat socket refused: ${res.statusCode}`)))
    ws.on('message', (data) => onFrame(JSON.parse(data.toString()) as Frame))
    ws.once('open', () => resolve(ws))
  })
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 })

function post(port: number, path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: keepAlive,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

let wamids = 0
function webhookBody(contact: string, text: string): string {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '5511999998888', phone_number_id: PHONE_NUMBER_ID },
    contacts: [{ profile: { name: `Cliente ${contact.slice(-4)}` }, wa_id: contact }],
    messages: [
      { from: contact, id: `wamid.in.${Date.now()}.${++wamids}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } },
    ],
  }
  return JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: WABA_ID, changes: [{ field: 'messages', value }] }] })
}

async function run() {
  const graph = await startFakeGraph()
  const prepared = await prepare(graph.url)
  const { child, port } = await startChild(prepared.env).catch(async (error: unknown) => {
    await graph.close()
    await prepared.cleanup()
    throw error
  })
  const sockets: WebSocket[] = []
  let failedPosts = 0
  try {
    // Every inbound text is "bench <n>": the agent's socket times its 'message' frame against the POST.
    const sentAt = new Map<number, number>()
    const latencies: number[] = []
    const onFrame = (frame: Frame) => {
      if (frame.action !== 'message' || frame.message?.sent_by !== 'client') return
      const n = /^bench (\d+)$/.exec(frame.message.content ?? '')?.[1]
      if (n === undefined) return
      const t0 = sentAt.get(Number(n))
      if (t0 === undefined) return
      sentAt.delete(Number(n))
      latencies.push(performance.now() - t0)
    }
    const connectStart = performance.now()
    for (let i = 0; i < prepared.agents.length; i += 50) {
      sockets.push(...(await Promise.all(prepared.agents.slice(i, i + 50).map((agent) => openChatSocket(port, agent, onFrame)))))
    }
    const connectMs = performance.now() - connectStart
    const pinger = setInterval(() => {
      for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send('{"action":"ping"}')
    }, 5000)
    const rooms = prepared.agents.flatMap((a) => a.rooms)
    const webhookPath = `/webhooks/whatsapp/${prepared.channelId}/`
    let seq = 0
    // The load generator's own cost off the clock: a step's bodies are built and signed before it starts.
    type Signed = { n: number; body: string; signature: string }
    const sign = (count: number): Signed[] =>
      Array.from({ length: count }, () => {
        const n = ++seq
        const body = webhookBody(rooms[n % rooms.length]!.contact, `bench ${n}`)
        return { n, body, signature: `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}` }
      })
    const inbound = ({ n, body, signature }: Signed) => {
      sentAt.set(n, performance.now())
      post(port, webhookPath, body, { 'x-hub-signature-256': signature }).then(
        (status) => {
          if (status !== 200) failedPosts++
        },
        () => failedPosts++,
      )
    }
    /** `rate` inbound messages per second for `seconds`, round-robin over the rooms; then waits for the frames. */
    const paced = async (rate: number, seconds: number) => {
      latencies.length = 0
      sentAt.clear()
      failedPosts = 0
      const total = Math.round(rate * seconds)
      const signed = sign(total)
      const cpuBefore = await ask(child, { type: 'cpu' }, 'cpu')
      const start = performance.now()
      let sent = 0
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1)
        while (sent < due) (inbound(signed[sent]!), sent++)
        await sleep(2)
      }
      const sendMs = performance.now() - start
      const deadline = Date.now() + 20_000
      while (latencies.length < total && Date.now() < deadline) await sleep(20)
      const cpuAfter = await ask(child, { type: 'cpu' }, 'cpu')
      const sorted = [...latencies].sort((a, b) => a - b)
      return {
        cpuPerMessage: (cpuAfter.cpuMs - cpuBefore.cpuMs) / total,
        queriesPerMessage: (cpuAfter.queries - cpuBefore.queries) / total,
        load: loadavg()[0]!,
        rate,
        total,
        offered: (total * 1000) / sendMs,
        frames: latencies.length,
        failedPosts,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
      }
    }

    // Warm-up (JIT, pools), not reported.
    await paced(100, 2)
    const profiling = process.env.BENCH_CPU_PROF === '1'
    if (profiling) await ask(child, { type: 'profile', on: true }, 'profiled')
    const beforeA = await ask(child, { type: 'memory' }, 'memory')
    const a = await paced(RATE, SECONDS)
    const afterA = await ask(child, { type: 'memory' }, 'memory')
    const queriesPerMessage = (afterA.queries - beforeA.queries) / a.total
    // CPU time is what contention does not stretch: the ceiling of one core for this work.
    const cpuPerMessage = (afterA.cpuMs - beforeA.cpuMs) / a.total
    const steps: Awaited<ReturnType<typeof paced>>[] = []
    for (const rate of STEPS) {
      const step = await paced(rate, SECONDS)
      steps.push(step)
      // BENCH_ALL_STEPS=1: every step even past the goal (CPU per message at each rate on a machine others load).
      if (process.env.BENCH_ALL_STEPS !== '1' && (step.p99 > GOAL_P99_MS || step.frames < step.total || step.failedPosts > 0)) break
      await sleep(1000)
    }
    if (profiling) console.log(`server CPU profile of (a) and (b): ${(await ask(child, { type: 'profile', on: false }, 'profiled')).file}`)

    // (c) outbox: agents write to distinct customers (the pair limit is per customer).
    const outbox = async (label: string, messages: number) => {
      const before = graph.sends.length
      const start = performance.now()
      const posts: Promise<number>[] = []
      for (let i = 0; i < messages; i++) {
        const room = rooms[i % rooms.length]!
        const agent = prepared.agents.find((x) => x.id === room.agent)!
        posts.push(
          post(port, `/api/v1/chat/send-message/${room.id}/`, JSON.stringify({ content: `reply ${i}`, uid: randomUUID() }), {
            authorization: `Token ${agent.token}`,
          }),
        )
        if (posts.length % 100 === 0) await Promise.all(posts.slice(-100))
      }
      const statuses = await Promise.all(posts)
      const accepted = statuses.filter((s) => s >= 200 && s < 300).length
      const acceptMs = performance.now() - start
      const deadline = Date.now() + 60_000
      while (graph.sends.length - before < accepted && Date.now() < deadline) await sleep(20)
      const sent = graph.sends.slice(before)
      const spanMs = (sent.at(-1) ?? start) - start
      return {
        label,
        messages,
        accepted,
        refused: messages - accepted,
        acceptPerSecond: (accepted * 1000) / acceptMs,
        sent: sent.length,
        sendsPerSecond: (sent.length * 1000) / spanMs,
      }
    }
    const throttled = await outbox('default throttle (80/s per number)', Math.min(OUTBOX_MESSAGES, 800))
    await ask(child, { type: 'throttle', perSecond: 1000 }, 'throttled')
    const unthrottled = await outbox("per-number rate raised to 1,000/s (Meta's top tier)", OUTBOX_MESSAGES)

    // (d) memory per open room: new customers open rooms that wait in the queue.
    const roomsBefore = await ask(child, { type: 'memory' }, 'memory')
    const newRooms = NEW_ROOMS
    for (let i = 0; i < newRooms; i++) {
      const body = webhookBody(contactOf(1_000_000 + i), 'olá')
      await post(port, webhookPath, body, { 'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}` })
    }
    const check = new pg.Client({ connectionString: prepared.databaseUrl })
    await check.connect()
    const deadline = Date.now() + 60_000
    let open = 0
    for (;;) {
      const { rows } = await check.query('SELECT count(*)::int AS n FROM chat_rooms WHERE ended_at IS NULL AND user_id IS NULL')
      open = rows[0].n
      if (open >= newRooms || Date.now() > deadline) break
      await sleep(200)
    }
    await check.end()
    const roomsAfter = await ask(child, { type: 'memory' }, 'memory')
    clearInterval(pinger)

    const heap = (m: Memory) => m.heapUsed + m.external
    const line = (s: Awaited<ReturnType<typeof paced>>) =>
      `${String(s.rate).padStart(5)}/s (offered ${s.offered.toFixed(0)}/s): p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms, ` +
      `${s.frames}/${s.total} frames${s.failedPosts ? `, ${s.failedPosts} webhook POSTs not 200` : ''}; ` +
      `${s.cpuPerMessage.toFixed(2)} ms server CPU and ${s.queriesPerMessage.toFixed(2)} statements per message, load ${s.load.toFixed(1)}`
    console.log(
      `chat on postgres: ${AGENTS} agents × ${ROOMS_PER_AGENT} rooms, ${sockets.length} chat sockets connected in ${(connectMs / 1000).toFixed(1)} s; fake Graph API in the bench process`,
    )
    console.log(`  (a) webhook → agent's 'message' frame, paced ${line(a)}   [goal p99 ≤ ${GOAL_P99_MS} ms]`)
    console.log(
      `      ${queriesPerMessage.toFixed(1)} PostgreSQL statements and ${cpuPerMessage.toFixed(2)} ms of server CPU per inbound message ` +
        `(one core's ceiling ≈ ${(1000 / cpuPerMessage).toFixed(0)} messages/s); machine load average now ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    )
    console.log(`  (b) sustained inbound, stepping up:`)
    for (const s of steps) console.log(`        ${line(s)}`)
    const under = steps.filter((s) => s.p99 <= GOAL_P99_MS && s.frames === s.total && s.failedPosts === 0).at(-1)
    console.log(
      `      last rate with p99 ≤ ${GOAL_P99_MS} ms: ${under ? `${under.rate}/s (p99 ${under.p99.toFixed(1)} ms)` : 'none'}   [goal ≥ ${GOAL_RATE}/s: ${under && under.rate >= GOAL_RATE ? 'met' : 'NOT met'}]`,
    )
    for (const o of [throttled, unthrottled]) {
      console.log(
        `  (c) outbox, ${o.label}: ${o.accepted}/${o.messages} send-message accepted at ${o.acceptPerSecond.toFixed(0)}/s; ` +
          `${o.sent} reached the Graph API at ${o.sendsPerSecond.toFixed(0)} sends/s${o.refused ? ` (${o.refused} refused)` : ''}`,
      )
    }
    console.log(
      `  (d) ${open} new rooms open (waiting in the queue): heap+external ${mb(heap(roomsBefore.memory))} → ${mb(heap(roomsAfter.memory))} ` +
        `(${((heap(roomsAfter.memory) - heap(roomsBefore.memory)) / Math.max(1, open) / 1024).toFixed(2)} KB per room after GC), ` +
        `RSS ${mb(roomsBefore.memory.rss)} → ${mb(roomsAfter.memory.rss)}`,
    )
  } finally {
    for (const ws of sockets) ws.terminate()
    child.send({ type: 'stop' } satisfies ParentMessage)
    await new Promise((resolve) => child.once('exit', resolve))
    await graph.close()
    keepAlive.destroy()
    await prepared.cleanup()
  }
}

// ------------------------------------------------------------------------------------------------ the server child
let inspector: import('node:inspector/promises').Session | null = null
async function profile(on: boolean) {
  const { Session } = await import('node:inspector/promises')
  if (on) {
    inspector = new Session()
    inspector.connect()
    await inspector.post('Profiler.enable')
    await inspector.post('Profiler.start')
    return process.send!({ type: 'profiled', file: null } satisfies ChildMessage)
  }
  if (!inspector) return process.send!({ type: 'profiled', file: null } satisfies ChildMessage)
  const { profile: taken } = await inspector.post('Profiler.stop')
  inspector.disconnect()
  inspector = null
  const { mkdirSync, writeFileSync } = await import('node:fs')
  mkdirSync('bench-profiles', { recursive: true })
  const file = join('bench-profiles', `chat-${Date.now()}.cpuprofile`)
  writeFileSync(file, JSON.stringify(taken))
  process.send!({ type: 'profiled', file } satisfies ChildMessage)
}

async function serve() {
  const { loadConfig } = await import('../server/config.ts')
  const { startServer } = await import('../server/startup.ts')
  const { forgetWhatsAppChannel } = await import('../server/channels/whatsapp/channel.ts')
  const { chatChannels } = await import('../server/db/schema/index.ts')
  // Every statement the server sends to PostgreSQL is counted (queries per message).
  let queries = 0
  const query = pg.Client.prototype.query
  // BENCH_SQL_TOP=1: which statements, how often (printed when the server stops).
  const tally = new Map<string, number>()
  const top = process.env.BENCH_SQL_TOP === '1'
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    queries++
    if (top) {
      const first = args[0] as string | { text?: string }
      const text = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').slice(0, 140)
      tally.set(text, (tally.get(text) ?? 0) + 1)
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  const config = { ...loadConfig({ ...process.env, TELEPHONY: 'off', WA_SIMULATOR: 'off' }), port: 0, host: '127.0.0.1', logLevel: 'warn' }
  const { app } = await startServer(config)
  const address = app.server.address()
  process.send!({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 } satisfies ChildMessage)
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'memory') {
      globalThis.gc?.()
      globalThis.gc?.()
      const { heapUsed, external, rss } = process.memoryUsage()
      const cpu = process.cpuUsage()
      process.send!({ type: 'memory', memory: { heapUsed, external, rss }, queries, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies ChildMessage)
    }
    if (message.type === 'cpu') {
      const cpu = process.cpuUsage()
      process.send!({ type: 'cpu', queries, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies ChildMessage)
    }
    if (message.type === 'profile') void profile(message.on)
    if (message.type === 'throttle') {
      // The channel's own setting (messages_per_second), as an admin would raise it for an upgraded number.
      void app.deps.db
        .update(chatChannels)
        .set({ messagesPerSecond: message.perSecond })
        .where(eq(chatChannels.type, 'whatsapp'))
        .returning({ id: chatChannels.id })
        .then((rows) => {
          for (const row of rows) forgetWhatsAppChannel(row.id)
          process.send!({ type: 'throttled' } satisfies ChildMessage)
        })
    }
    if (message.type === 'stop') {
      if (top) for (const [text, n] of [...tally].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.error(`${String(n).padStart(7)}  ${text}`)
      void app.close().then(() => process.exit(0))
    }
  })
}

if (process.argv[2] === 'serve') await serve()
else await run()
