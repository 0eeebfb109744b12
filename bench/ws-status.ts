import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { connect, memoryOf, mb, percentile, postgresAvailable, prepare, serve, sleep, startChild } from './ws-fleet.ts'
import type { Client, Memory } from './ws-fleet.ts'
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
const SELF = fileURLToPath(import.meta.url)

async function run(backend: 'pglite' | 'postgres') {
  const prepared = await prepare(backend, { name: 'ws', agents: AGENTS, supervisors: SUPERVISORS })
  const { child, port } = await startChild(SELF, prepared.env)
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

if (process.argv[2] === 'serve') await serve()
else await main()
