import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { asc, sql } from 'drizzle-orm'
import { loadConfig } from '../server/config.ts'
import { sites } from '../server/db/schema/index.ts'
import { startServer } from '../server/startup.ts'
import { scratchDatabase, tokenFor } from './lib.ts'

// CRM figures on PostgreSQL: the clients list searched by name, document and phone over 1,000,000 clients, the
// client a number belongs to, and the timeline of one client with 10,000 events (calls, chats, activities), first
// page and a channel filter. Rows go in by INSERT … SELECT generate_series; 10 connections for BENCH_SECONDS each.
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000)
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const PORT = Number(process.env.BENCH_PORT ?? 8370)

const dataDir = mkdtempSync(join(tmpdir(), 'atende-bench-crm-'))
const database = await scratchDatabase('atende_bench_crm')
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', TELEPHONY: 'off', WA_SIMULATOR: 'off' }
env.DATABASE_URL = database.url
const { app, url } = await startServer(loadConfig(env))
try {
  const db = app.deps.db
  const [site] = await db.select().from(sites).orderBy(asc(sites.id)).limit(1)
  const siteId = site!.id
  let started = Date.now()
  await db.execute(sql`INSERT INTO crm_clients (site_id, name, phones, documents)
    SELECT ${siteId}, 'Cliente ' || g, '+55119' || lpad(g::text, 8, '0'), lpad(g::text, 11, '0') FROM generate_series(1, ${ROWS}) g`)
  await db.execute(sql`INSERT INTO crm_client_keys (site_id, client_id, kind, value)
    SELECT site_id, id, 'phone', phones FROM crm_clients UNION ALL SELECT site_id, id, 'document', documents FROM crm_clients`)
  await db.execute(sql`VACUUM ANALYZE crm_clients`)
  await db.execute(sql`VACUUM ANALYZE crm_client_keys`)
  const insertSeconds = (Date.now() - started) / 1000
  const client = Math.floor(ROWS / 2)
  started = Date.now()
  const third = Math.floor(EVENTS / 3)
  await db.execute(sql`INSERT INTO call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, started_at, decision, client_id)
    SELECT ${siteId}, 'bench-' || g, 1, gen_random_uuid(), 'inbound', 1, 'queue', '5511900000000', now() - g * interval '1 hour', '{}'::jsonb, ${client}
    FROM generate_series(1, ${EVENTS - 2 * third}) g`)
  await db.execute(sql`INSERT INTO chat_rooms (uid, site_id, channel_id, contact, address, phone, started_at, ended_at, client_id)
    SELECT gen_random_uuid(), ${siteId}, (SELECT id FROM chat_channels WHERE site_id = ${siteId} LIMIT 1), 'bench-' || g, 'x', '5511900000000',
      now() - g * interval '1 hour' - interval '20 minutes', now(), ${client} FROM generate_series(1, ${third}) g`)
  await db.execute(sql`INSERT INTO activities (site_id, user_id, destination, client_id, start, subject)
    SELECT ${siteId}, (SELECT id FROM users WHERE site_id = ${siteId} ORDER BY id LIMIT 1), '11900000000', ${client}, now() - g * interval '1 hour' - interval '40 minutes', 'Retorno'
    FROM generate_series(1, ${third}) g`)
  for (const table of ['call_records', 'chat_rooms', 'activities']) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`))
  const eventSeconds = (Date.now() - started) / 1000
  for (const deadline = Date.now() + 60_000; (await fetch(`${url}/api/pre-session/`)).status === 503 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200))
  const token = await tokenFor(url)
  const queries: Record<string, string> = {
    'clients, first page': '/api/v1/crm/clients/?limit=10&offset=0',
    'clients, search name': '/api/v1/crm/clients/?limit=10&search=Cliente%20424242',
    'clients, search phone': '/api/v1/crm/clients/?limit=10&search=%2B5511900424242',
    'clients, search typed phone': '/api/v1/crm/clients/?limit=10&search=(11)%2090042-4242',
    'clients, search document': '/api/v1/crm/clients/?limit=10&search=00000424242',
    'client by number (match)': '/api/v1/crm/clients/match/?phone=(11)%2090042-4242',
    'timeline 10k, first page': `/api/v1/crm/clients/${client}/timeline/`,
    'timeline 10k, chats only': `/api/v1/crm/clients/${client}/timeline/?channel=chat`,
  }
  console.log(`postgres: ${ROWS.toLocaleString('en')} clients in ${insertSeconds.toFixed(1)} s; ${EVENTS.toLocaleString('en')} events of client ${client} in ${eventSeconds.toFixed(1)} s`)
  for (const [name, path] of Object.entries(queries)) {
    const probe = await fetch(url + path, { headers: { authorization: `Token ${token}` } })
    const body = (await probe.json()) as { count?: number; results?: unknown[]; client?: unknown }
    const r = await autocannon({ url: url + path, connections: 10, duration: DURATION, headers: { authorization: `Token ${token}` } })
    if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx answers`)
    const shown = body.count ?? body.results?.length ?? (body.client ? 1 : 0)
    console.log(`  ${name.padEnd(28)}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms (${shown})`)
  }
} finally {
  await new Promise((r) => setTimeout(r, 1000))
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
  await database.drop()
}
process.exit(0)
