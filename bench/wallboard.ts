import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { connect, memoryOf, mb, percentile, postgresAvailable, prepare, serve, sleep, startChild } from './ws-fleet.ts'
import type { Client, Memory } from './ws-fleet.ts'
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
const SELF = fileURLToPath(import.meta.url)

async function run(backend: 'pglite' | 'postgres') {
  const prepared = await prepare(backend, { name: 'wallboard', agents: AGENTS, supervisors: SUPERVISORS, agentsSignInTelephony: true })
  const { child, port } = await startChild(SELF, prepared.env)
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

if (process.argv[2] === 'serve') await serve()
else await main()
