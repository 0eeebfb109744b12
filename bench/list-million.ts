import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { asc } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { sites } from '../server/db/schema/index.ts'
import { startServer } from '../server/startup.ts'
import { scratchDatabase, tokenFor } from './lib.ts'
import { insertBlocklistRows } from './list-rows.ts'

// The generic settings list over 1,000,000 rows (service blocklists): a first page in the default order, and a paged
// search, on PGlite and on PostgreSQL, 10 connections for BENCH_SECONDS each. The rows are inserted with one
// INSERT … SELECT generate_series, straight into the table the API reads (list-rows.ts).
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const QUERIES = {
  'first page': '/api/v1/service/blacklists/?limit=10&offset=0',
  'page 5,000': '/api/v1/service/blacklists/?limit=10&offset=50000&ordering=id',
  'page 5,000, default order': '/api/v1/service/blacklists/?limit=10&offset=50000',
  search: '/api/v1/service/blacklists/?limit=10&search=Bloqueio%20424242',
}

async function run(kind: 'pglite' | 'postgres', port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-list-'))
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', TELEPHONY: 'off' }
  const database = kind === 'postgres' ? await scratchDatabase('atende_bench_list') : null
  if (database) {
    env.DATABASE_URL = database.url
  } else {
    delete env.DATABASE_URL
  }
  const { app, url } = await startServer(loadConfig(env))
  try {
    const db = app.deps.db
    const [site] = await db.select().from(sites).orderBy(asc(sites.id)).limit(1)
    const started = Date.now()
    await insertBlocklistRows(db, site!.id, ROWS)
    const insertSeconds = (Date.now() - started) / 1000
    // PGlite's VACUUM of a million rows held the event loop: wait until the server stops answering 503 (under-pressure).
    for (const deadline = Date.now() + 60_000; (await fetch(`${url}/api/pre-session/`)).status === 503 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 200))
    }
    const token = await tokenFor(url)
    const results: Record<string, { rps: number; p50: number; p99: number; count: number }> = {}
    for (const [name, path] of Object.entries(QUERIES)) {
      const probe = await fetch(url + path, { headers: { authorization: `Token ${token}` } })
      const body = (await probe.json()) as { count: number }
      const r = await autocannon({ url: url + path, connections: 10, duration: DURATION, headers: { authorization: `Token ${token}` } })
      if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx answers`)
      results[name] = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, count: body.count }
    }
    return { insertSeconds, results }
  } finally {
    // Let the requests autocannon abandoned at its deadline finish before the pool closes.
    await new Promise((r) => setTimeout(r, 1000))
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
    await database?.drop()
  }
}

const out: Record<string, Awaited<ReturnType<typeof run>>> = {}
const print = (kind: string, r: Awaited<ReturnType<typeof run>>) => {
  console.log(`${kind}: ${ROWS.toLocaleString('en')} rows inserted in ${r.insertSeconds.toFixed(1)} s`)
  for (const [name, q] of Object.entries(r.results)) {
    console.log(`  ${name.padEnd(25)}: ${q.rps.toFixed(0)} req/s, p50 ${q.p50} ms, p99 ${q.p99} ms (count ${q.count})`)
  }
}
out.postgres = await run('postgres', 8294)
print('postgres', out.postgres)
out.pglite = await run('pglite', 8295)
print('pglite', out.pglite)
for (const name of Object.keys(QUERIES)) {
  console.log(`PostgreSQL / PGlite ${name}: ${(out.postgres!.results[name]!.rps / out.pglite!.results[name]!.rps).toFixed(1)}x`)
}
process.exit(0)
