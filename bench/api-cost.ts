import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { mb, rssOf, startServer, tokenFor } from './lib.ts'

// What a request costs against a bare Fastify route, in the same run: GET /api/pre-session/ (no credential), the
// profile and the pause check (token auth), 10 connections for BENCH_SECONDS each, on PGlite and on PostgreSQL. Also
// the server's resident memory idle (after start and one sign-in) and after BENCH_REQUESTS (100,000) requests in all.
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const TOTAL_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000)
const CONNECTIONS = 10

export type Figures = { rps: number; p50: number; p99: number; requests: number }
export const ROUTES = {
  'pre-session': '/api/pre-session/',
  profile: '/api/v1/business/profile/',
  'pause check': '/api/v1/agent/pause/check/',
} as const
export type RouteName = keyof typeof ROUTES

async function load(url: string, headers: Record<string, string>, opts: { duration?: number; amount?: number }): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, headers, ...opts })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total }
}

/** The reference: a bare Fastify route in a process of its own. */
export async function bareRoute(port = 8290): Promise<Figures> {
  const child = fork(fileURLToPath(new URL('./bare-route.ts', import.meta.url)), { env: { ...process.env, PORT: String(port) } })
  try {
    await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('exit', (code) => reject(new Error(`bare route exited ${code}`)))
    })
    return await load(`http://127.0.0.1:${port}/`, {}, { duration: DURATION })
  } finally {
    child.kill('SIGTERM')
  }
}

export type ServerFigures = { routes: Record<RouteName, Figures>; rssIdle: number; rssAfter: number; requests: number }

export async function serverCost(postgres: boolean, port: number): Promise<ServerFigures> {
  const server = await startServer({ port, postgres })
  try {
    const token = await tokenFor(server.url)
    const headers = { authorization: `Token ${token}`, accept: 'application/json' }
    // Idle: started, signed in once, given a moment to settle.
    await new Promise((r) => setTimeout(r, 2000))
    const rssIdle = rssOf(server.pid)
    const routes = {} as Record<RouteName, Figures>
    let requests = 0
    for (const [name, path] of Object.entries(ROUTES) as [RouteName, string][]) {
      routes[name] = await load(server.url + path, headers, { duration: DURATION })
      requests += routes[name].requests
    }
    // Then up to TOTAL_REQUESTS in all, spread over the three routes by their rate (each takes about as long).
    const rest = Math.max(0, TOTAL_REQUESTS - requests)
    const rates = Object.values(routes).reduce((sum, f) => sum + f.rps, 0)
    for (const [name, path] of Object.entries(ROUTES) as [RouteName, string][]) {
      const amount = Math.ceil((rest * routes[name].rps) / rates)
      if (amount > 0) requests += (await load(server.url + path, headers, { amount })).requests
    }
    await new Promise((r) => setTimeout(r, 2000))
    return { routes, rssIdle, rssAfter: rssOf(server.pid), requests }
  } finally {
    await server.stop()
  }
}

export async function apiCost() {
  const bare = await bareRoute()
  const pglite = await serverCost(false, 8296)
  const postgres = await serverCost(true, 8297)
  return { bare, pglite, postgres }
}

const fmt = (f: Figures) => `${f.rps.toFixed(0).padStart(6)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms`

/** The lines `npm run bench` and this script print. */
export function apiCostLines(r: Awaited<ReturnType<typeof apiCost>>): string[] {
  const lines = [`bare Fastify route          : ${fmt(r.bare)} (the reference)`]
  for (const [kind, s] of [
    ['PGlite', r.pglite],
    ['PostgreSQL', r.postgres],
  ] as const) {
    for (const [name, f] of Object.entries(s.routes)) {
      lines.push(`${`${name} on ${kind}`.padEnd(28)}: ${fmt(f)}, ${((f.rps / r.bare.rps) * 100).toFixed(1)} % of the reference`)
    }
    lines.push(`${`RSS on ${kind}`.padEnd(28)}: ${mb(s.rssIdle)} idle, ${mb(s.rssAfter)} after ${s.requests.toLocaleString('en')} requests`)
  }
  return lines
}

if (import.meta.main) {
  for (const line of apiCostLines(await apiCost())) console.log(line)
}
