import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { mb, memoryOf, percentile, postgresAvailable, prepare, serve, sleep, startChild } from './ws-fleet.ts'
import type { Account } from './ws-fleet.ts'
// Issue 19 item 4: a live builder page (src/features/builder/liveRefresh.ts) asks the server again whenever the
// service socket announces a change, at most once per the page's `refresh` seconds. On a site of 1,000 agents
// something changes every second, so each viewer asks once per `refresh`: this bench is that load. The real server
// runs in a child process on a fresh PostgreSQL database (1,000 agents, 50 supervisors, one admin) with a day of calls
// (BENCH_CALLS_TODAY, 30,000 by default, two steps each, spread from midnight UTC until now); the admin builds a
// dashboard page through the API — calls today (number), calls by agent (bar), calls by hour (line), pauses today
// (number), the live agent grid — and 50 supervisors open it every `refresh` seconds (each starting at a random
// moment, as pages are opened), for BENCH_SECONDS, at each refresh in BENCH_REFRESH (seconds, comma-separated).
// Prints per refresh: pages asked and answered per second, p50/p99/max of the page's answer, the server's CPU share
// (user+system of the child over wall time) and RSS.
//
//   npm exec -- node bench/builder-live.ts
//   BENCH_REFRESH=1,5,30 BENCH_SECONDS=30 BENCH_CALLS_TODAY=30000 npm exec -- node bench/builder-live.ts

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000)
const VIEWERS = Number(process.env.BENCH_SUPERVISORS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30)
const CALLS_TODAY = Number(process.env.BENCH_CALLS_TODAY ?? 30_000)
const REFRESHES = (process.env.BENCH_REFRESH ?? '1,5,30').split(',').map(Number)
const SELF = fileURLToPath(import.meta.url)

type Json = Record<string, unknown>

async function api(port: number, account: Account, method: string, path: string, body?: Json): Promise<{ status: number; json: Json }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Token ${account.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  return { status: response.status, json: text ? (JSON.parse(text) as Json) : {} }
}

async function created(port: number, admin: Account, path: string, body: Json): Promise<number> {
  const answer = await api(port, admin, 'POST', path, body)
  if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.json)}`)
  return Number(answer.json.id)
}

/** A day of calls for the agents: step 1 rings one for 20 s, step 2 another answers and talks 90 s. */
async function seedToday(url: string, agents: Account[]) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const site = (await client.query<{ id: number }>('select id from sites order by id limit 1')).rows[0]!.id
    const ids = `{${agents.map((a) => a.id).join(',')}}`
    await client.query(
      `insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, user_id, started_at, ended_at, dial_status, decision)
       select $1, 'c' || g, 1, gen_random_uuid()::text, 'inbound', 20, 'queue', '119' || lpad(g::text, 8, '0'),
         ($2::int[])[1 + g % $3], date_trunc('day', now()) + (g::float8 / $4) * (now() - date_trunc('day', now()) - interval '3 minutes'),
         date_trunc('day', now()) + (g::float8 / $4) * (now() - date_trunc('day', now()) - interval '3 minutes') + interval '20 seconds', 480, '{}'::jsonb
       from generate_series(1, $4) g`,
      [site, ids, agents.length, CALLS_TODAY],
    )
    await client.query(
      `insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, user_id, started_at, answered_at, ended_at, answered_duration, dial_status, decision)
       select site_id, call_id, 2, gen_random_uuid()::text, direction, call_type, kind, phone, ($2::int[])[1 + (substr(call_id, 2)::int + 7) % $3],
         ended_at, ended_at + interval '3 seconds', ended_at + interval '93 seconds', 90, 200, decision
       from call_records where site_id = $1 and step = 1`,
      [site, ids, agents.length],
    )
    await client.query('analyze call_records')
  } finally {
    await client.end()
  }
}

/** user+system CPU seconds of a process, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function main() {
  if (!(await postgresAvailable())) throw new Error('PostgreSQL is needed (BENCH_PG_URL)')
  const prepared = await prepare('postgres', { name: 'builderlive', agents: AGENTS, supervisors: VIEWERS, agentsSignInTelephony: true, admins: 1 })
  const seeded = performance.now()
  await seedToday(prepared.env.DATABASE_URL!, prepared.agents)
  console.log(
    `builder live page, PostgreSQL: ${AGENTS} agents, ${CALLS_TODAY.toLocaleString('en')} calls today seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  )
  const { child, port } = await startChild(SELF, prepared.env)
  try {
    const admin = prepared.admins[0]!
    const query = (description: string, dataset: string, group_by: string, extra: Json = {}) =>
      created(port, admin, '/api/v1/builder/queries/', { description, dataset, period: 'today', measure: 'count', group_by, ...extra })
    const widget = (description: string, type: string, queryId?: number) =>
      created(port, admin, '/api/v1/builder/widgets/', { description, type, ...(queryId ? { query: queryId } : {}) })
    const widgets = [
      { widget: await widget('Chamadas hoje', 'number', await query('Chamadas hoje', 'calls', 'none')), width: 3, height: 1 },
      { widget: await widget('Pausas hoje', 'number', await query('Pausas hoje', 'pauses', 'none')), width: 3, height: 1 },
      { widget: await widget('Por agente', 'bar', await query('Por agente', 'calls', 'agent', { max_groups: 20 })), width: 6, height: 2 },
      { widget: await widget('Por hora', 'line', await query('Por hora', 'calls', 'hour')), width: 6, height: 2 },
      { widget: await widget('Agentes', 'agent-grid'), width: 12, height: 3 },
    ]
    const results: string[] = []
    for (const refresh of REFRESHES) {
      const page = await created(port, admin, '/api/v1/builder/dashboard-pages/', {
        description: `Operação ${refresh}s`,
        is_active: true,
        position: 0,
        permission: 'sites.view_dashboard_supervisor',
        refresh,
        widgets,
      })
      const path = `/api/v1/builder/pages/dashboards/${page}/?tz=UTC`
      // One warm answer, checked: the numbers are the seeded ones.
      const warm = await api(port, prepared.supervisors[0]!, 'GET', path)
      const first = (warm.json.widgets as { result?: { total?: number } }[] | undefined)?.[0]?.result?.total
      if (warm.status !== 200 || first !== CALLS_TODAY) throw new Error(`page ${warm.status}: calls today ${String(first)}, expected ${CALLS_TODAY}`)

      const latencies: number[] = []
      let failures = 0
      const cpuBefore = cpuSeconds(child.pid!)
      const started = performance.now()
      const end = started + SECONDS * 1000
      const viewer = async (account: Account) => {
        // Pages are opened at random moments; then each asks again every `refresh` seconds (never two at once).
        let next = started + Math.random() * refresh * 1000
        while (next < end) {
          await sleep(Math.max(0, next - performance.now()))
          const asked = performance.now()
          const answer = await api(port, account, 'GET', path)
          if (answer.status === 200) latencies.push(performance.now() - asked)
          else failures++
          next += refresh * 1000
          if (next < performance.now()) next = performance.now()
        }
      }
      await Promise.all(prepared.supervisors.map(viewer))
      const wall = (performance.now() - started) / 1000
      const cpu = (cpuSeconds(child.pid!) - cpuBefore) / wall
      const { memory } = await memoryOf(child)
      latencies.sort((a, b) => a - b)
      results.push(
        `  refresh ${String(refresh).padStart(2)} s: ${VIEWERS} viewers asked ${(latencies.length / wall).toFixed(1)} pages/s (${failures} failed); ` +
          `answer p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms; ` +
          `server CPU ${(cpu * 100).toFixed(0)} % of a core, RSS ${mb(memory.rss)}`,
      )
      console.log(results.at(-1))
    }
  } finally {
    child.send({ type: 'stop' })
    await new Promise((resolve) => child.once('exit', resolve))
    await prepared.cleanup()
  }
}

if (process.argv[2] === 'serve') await serve()
else await main()
