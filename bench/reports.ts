// Reports (issue 19 item 3) on PostgreSQL (BENCH_PG_URL): BENCH_REPORT_CALLS (1,000,000) calls of 20 agents over 30
// days, two steps each in one queue with a 25 s target (a member who let it ring 20 s, then the one who answered 0–9 s
// later). Prints the calls CSV export's wall time, time to the first rows, bytes and the process's peak RSS (goal:
// ≤ 300 MB, first byte < 1 s), and p50/p99 of three builder queries (calls by day, average wait by agent, the queues'
// service level) and of a report page over the 30 days: calls (by day), agent productivity (by agent), KPI (by day
// and agent), queue service level (by queue) — BENCH_REPORT_IDS picks the reports: first from the raw rows
// (call_records only), then after rebuilding the pre-aggregated hours (server/reports/hours.ts; its time is printed)
// from the hours, then with the last 2 hours written to again (dirty: read raw) as a live site has them.
//   npm exec -- node bench/reports.ts
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../server/db/client.ts'
import { pabxQueues, users } from '../server/db/schema/index.ts'
import { createSite } from '../server/sites/site-repo.ts'
import { reportCsv, reportPage, resolveReport } from '../server/reports/engine.ts'
import { rebuildHours } from '../server/reports/hours.ts'
import { runQuery } from '../server/reports/builder.ts'
import type { BuilderQuery } from '../contract/api/builder.ts'
import type { ReportId } from '../contract/api/reports.ts'
import pg from 'pg'
import type { Db } from '../server/db/client.ts'
import { PG_ADMIN_URL, mb, scratchDatabase } from './lib.ts'

const CALLS = Number(process.env.BENCH_REPORT_CALLS ?? 1_000_000)
const PAGE_RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 20)
const AGENTS = 20
const DAYS = 30

function peakRss() {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
  return () => {
    clearInterval(timer)
    return Math.max(peak, process.memoryUsage.rss())
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function main() {
  // BENCH_REPORT_KEEP=<name>: seed that database once and keep it (repeated runs measure without seeding again).
  const keep = process.env.BENCH_REPORT_KEEP
  const scratch = keep ? await keptDatabase(keep) : await scratchDatabase(`atende_bench_reports_${randomBytes(3).toString('hex')}`)
  const database = await openDatabase({ databaseUrl: scratch.url })
  try {
    const db = database.db
    const existing = keep
      ? ((await db.execute(sql`select id from sites where domain = 'reports.example'`)) as unknown as { rows: { id: number }[] }).rows[0]
      : undefined
    const site = existing ? { id: Number(existing.id) } : await seed(db)
    await measure(db, site.id)
  } finally {
    await database.close()
    if (!keep) await scratch.drop?.()
  }
}

async function keptDatabase(name: string): Promise<{ url: string; drop?: () => Promise<void> }> {
  const url = new URL(PG_ADMIN_URL)
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name.replace(/\W/g, '')}`)
  } finally {
    await client.end()
  }
  url.pathname = `/${name}`
  return { url: url.toString() }
}

async function seed(db: Db): Promise<{ id: number }> {
  {
    const site = await createSite(db, { domain: 'reports.example', name: 'Bench' })
    const agents = await db
      .insert(users)
      .values(
        Array.from({ length: AGENTS }, (_, i) => ({
          siteId: site.id,
          username: `agent${i}`,
          password: 'not-a-hash',
          firstName: 'Agente',
          lastName: String(i),
        })),
      )
      .returning({ id: users.id })
    const ids = agents.map((a) => a.id)
    // One queue with a 20 s target: every call enters it (step 1 rings for 20 s, step 2 answers 0–9 s later).
    const [queue] = await db.insert(pabxQueues).values({ siteId: site.id, description: 'Fila', serviceLevel: 25 }).returning({ id: pabxQueues.id })
    const seeded = performance.now()
    // Calls spread evenly over the 30 days ending today (UTC): step 1 rings one agent 20 s, step 2 another answers.
    await db.execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, user_id, queue_id, queue_started_at, started_at, ended_at, dial_status, decision)
      select ${site.id}, 'c' || g, 1, gen_random_uuid()::text, 'inbound', 20, 'queue', '119' || lpad(g::text, 8, '0'),
        (${sql.raw(`'{${ids.join(',')}}'`)}::int[])[1 + g % ${AGENTS}], ${queue!.id},
        date_trunc('day', now()) - interval '${sql.raw(String(DAYS - 1))} days' + (g::float8 / ${CALLS}) * interval '${sql.raw(String(DAYS))} days',
        date_trunc('day', now()) - interval '${sql.raw(String(DAYS - 1))} days' + (g::float8 / ${CALLS}) * interval '${sql.raw(String(DAYS))} days',
        date_trunc('day', now()) - interval '${sql.raw(String(DAYS - 1))} days' + (g::float8 / ${CALLS}) * interval '${sql.raw(String(DAYS))} days' + interval '20 seconds',
        480, '{}'::jsonb
      from generate_series(1, ${CALLS}) g`)
    await db.execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, user_id, queue_id, queue_started_at, started_at, answered_at, ended_at, answered_duration, dial_status, decision)
      select site_id, call_id, 2, gen_random_uuid()::text, direction, call_type, kind, phone,
        (${sql.raw(`'{${ids.join(',')}}'`)}::int[])[1 + (substr(call_id, 2)::int + 7) % ${AGENTS}], queue_id, queue_started_at,
        ended_at, ended_at + (substr(call_id, 2)::int % 10) * interval '1 second', ended_at + interval '93 seconds', 90, 200, decision
      from call_records where site_id = ${site.id} and step = 1`)
    await db.execute(sql`analyze call_records`)
    console.log(
      `reports, PostgreSQL: ${CALLS.toLocaleString('en')} calls (${(CALLS * 2).toLocaleString('en')} steps) seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`,
    )
    return site
  }
}

async function measure(db: Db, siteId: number) {
  {
    const site = { id: siteId }

    const today = new Date().toISOString().slice(0, 10)
    const first = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
    const period = { tz: 'UTC', date_from: first, date_to: today }

    // The CSV of every call of the 30 days, as the processing queue writes it (BENCH_REPORT_CSV=0 skips it).
    if (process.env.BENCH_REPORT_CSV !== '0') {
      const report = await resolveReport(db, site.id, 'calls', period, 'pt-BR')
      const before = process.memoryUsage.rss()
      const stop = peakRss()
      const started = performance.now()
      let firstRows = 0
      let bytes = 0
      let chunks = 0
      for await (const chunk of reportCsv(db, report, 'pt-BR')) {
        bytes += Buffer.byteLength(chunk)
        if (++chunks === 2) firstRows = performance.now() - started
      }
      const seconds = (performance.now() - started) / 1000
      const rss = stop()
      console.log(
        `  calls CSV: ${seconds.toFixed(1)} s (${Math.round(CALLS / seconds).toLocaleString('en')} rows/s), first rows after ${firstRows.toFixed(0)} ms, ${mb(bytes)}, peak RSS ${mb(rss)} (${mb(before)} before it; goal ≤ 300 MB)`,
      )
    }

    // BENCH_REPORT_IDS: the reports measured (default all four); builder queries over the calls and queues follow.
    const ids = (process.env.BENCH_REPORT_IDS ?? 'calls,agent-productivity,kpi,queue-service-level').split(',') as ReportId[]
    const queries: [string, BuilderQuery][] = [
      ['builder calls by day', { dataset: 'calls', measure: 'count', group_by: 'day', period: 'last_30_days', limit: 10 } as BuilderQuery],
      [
        'builder calls by agent, average wait',
        { dataset: 'calls', measure: 'avg', measure_field: 'wait', group_by: 'agent', period: 'last_30_days', limit: 30 } as BuilderQuery,
      ],
      [
        'builder queues service level',
        { dataset: 'queues', measure: 'avg', measure_field: 'service_level', group_by: 'queue', period: 'last_30_days', limit: 10 } as BuilderQuery,
      ],
    ]
    const pages = async (label: string, hourly: boolean) => {
      for (const [name, query] of queries) {
        const times: number[] = []
        for (let i = 0; i < PAGE_RUNS; i++) {
          const t0 = performance.now()
          await runQuery(db, site.id, query, 'UTC', 'pt-BR', new Date(), { hourly })
          times.push(performance.now() - t0)
        }
        console.log(
          `  ${label}: ${name} over ${DAYS} days: p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms (load ${loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')})`,
        )
      }
      for (const id of ids) {
        const resolved = await resolveReport(db, site.id, id, period, 'pt-BR', new Date(), { hourly })
        const times: number[] = []
        for (let i = 0; i < PAGE_RUNS; i++) {
          const t0 = performance.now()
          await reportPage(db, resolved, 'pt-BR', { offset: 0, limit: 25 })
          times.push(performance.now() - t0)
        }
        console.log(
          `  ${label}: ${id} page over ${DAYS} days (totals, chart, count, 25 rows): p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms (load ${loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')})`,
        )
      }
    }
    // BENCH_REPORT_RAW=0 skips the raw figures (they take minutes).
    if (process.env.BENCH_REPORT_RAW !== '0') await pages('raw rows', false)
    const from = new Date(`${first}T00:00:00Z`)
    const to = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000)
    // BENCH_REPORT_REBUILD=0 keeps the hours a previous run built (a kept database).
    if (process.env.BENCH_REPORT_REBUILD !== '0') {
      const t0 = performance.now()
      const cleaned = await rebuildHours(db, site.id, from, to)
      console.log(`  hours rebuilt: ${cleaned} hours in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    }
    await pages('hours', true)
    // A live site: the calls of the last two hours are still being written (their hours dirty, read from call_records).
    await db.execute(
      sql`update call_records set dial_status_text = dial_status_text where site_id = ${site.id} and started_at >= (select max(started_at) from call_records where site_id = ${site.id}) - interval '2 hours'`,
    )
    await pages('hours, last 2 h dirty', true)
  }
}

await main()
