import autocannon from 'autocannon'
import { startServer, tokenFor } from './lib.ts'

// Requests/s and latency of GET /api/v1/business/profile/ (token auth) on PGlite and on PostgreSQL, same machine,
// same run, 10 connections for 10 s each.
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)

async function run(postgres: boolean, port: number) {
  const server = await startServer({ port, postgres })
  try {
    const token = await tokenFor(server.url)
    const result = await autocannon({
      url: `${server.url}/api/v1/business/profile/`,
      connections: 10,
      duration: DURATION,
      headers: { authorization: `Token ${token}`, accept: 'application/json' },
    })
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`)
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total }
  } finally {
    await server.stop()
  }
}

export async function profileBench() {
  const pglite = await run(false, 8292)
  const postgres = await run(true, 8293)
  return { pglite, postgres }
}

if (import.meta.main) {
  const { pglite, postgres } = await profileBench()
  for (const [name, r] of Object.entries({ pglite, postgres })) {
    console.log(`GET profile on ${name.padEnd(8)}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.total} requests)`)
  }
  console.log(`PostgreSQL / PGlite throughput ratio: ${(postgres.rps / pglite.rps).toFixed(2)}x`)
}
