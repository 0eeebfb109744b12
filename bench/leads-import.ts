// Lead import of BENCH_LEAD_ROWS (1,000,000) CSV rows (issue 17): the job's own code (server/crm/lead-import/run.ts)
// against a bare PostgreSQL COPY of the same file into a table shaped and indexed like crm_leads (the same trigram
// indexes), both on a fresh database of BENCH_PG_URL; then the same import on PGlite (BENCH_PGLITE_ROWS, 100,000).
// Prints rows/s, wall time, the process's peak RSS during the import, and the ratio to COPY (goal: ≤ 2, ≤ 300 MB).
//   npm exec -- node bench/leads-import.ts
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { once } from 'node:events'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase } from '../server/db/client.ts'
import type { Database } from '../server/db/client.ts'
import { crmLeadImports, crmMailings } from '../server/db/schema/index.ts'
import { createSite } from '../server/sites/site-repo.ts'
import { runImport } from '../server/crm/lead-import/run.ts'
import { importsDir } from '../server/crm/lead-import/store.ts'

const ROWS = Number(process.env.BENCH_LEAD_ROWS ?? 1_000_000)
const PGLITE_ROWS = Number(process.env.BENCH_PGLITE_ROWS ?? 100_000)
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://atende:atende@127.0.0.1:5432/postgres'
const LAYOUT = { name: 'Nome', surname: 'Sobrenome', phones: ['Celular'] }

async function writeCsv(file: string, rows: number) {
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write('Nome;Sobrenome;Celular;Cidade\n')
  let chunk = ''
  for (let i = 0; i < rows; i++) {
    chunk += `Cliente ${i};Silva ${i % 997};(11) 9${String(10_000_000 + (i % 89_999_999)).padStart(8, '0')};Cidade ${i % 5570}\n`
    if (chunk.length > 1 << 16) {
      await write(chunk)
      chunk = ''
    }
  }
  await write(chunk)
  out.end()
  await once(out, 'close')
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

function peakRss() {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
  return () => {
    clearInterval(timer)
    return Math.max(peak, process.memoryUsage.rss())
  }
}

async function importInto(database: Database, dataDir: string, storedName: string, rows: number) {
  const site = await createSite(database.db, { domain: `bench-${randomBytes(3).toString('hex')}.example`, name: 'Bench' })
  const [mailing] = await database.db.insert(crmMailings).values({ siteId: site.id, description: 'Bench' }).returning()
  const [job] = await database.db
    .insert(crmLeadImports)
    .values({ siteId: site.id, mailingId: mailing!.id, layout: LAYOUT, storedName, status: 'running', totalBytes: 1 })
    .returning()
  const stop = peakRss()
  const started = performance.now()
  const counts = await runImport(database.db, dataDir, { id: job!.id, siteId: site.id, mailingId: mailing!.id, storedName, lang: 'pt-BR', layout: LAYOUT })
  const seconds = (performance.now() - started) / 1000
  const rss = stop()
  if (counts.rowsImported !== rows) throw new Error(`imported ${counts.rowsImported} of ${rows}`)
  return { seconds, rss, mailingId: mailing!.id, siteId: site.id }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atende-bench-leads-'))
  await mkdir(importsDir(dataDir), { recursive: true })
  const file = path.join(importsDir(dataDir), 'bench.csv')
  try {
    await writeCsv(file, ROWS)
    const name = `atende_bench_leads_${randomBytes(4).toString('hex')}`
    await adminQuery(`CREATE DATABASE ${name}`)
    const url = new URL(PG_URL)
    url.pathname = `/${name}`
    const database = await openDatabase({ databaseUrl: url.toString() })
    try {
      // The bare COPY: psql streams the same file into a table with crm_leads' columns, defaults and indexes.
      const site = await createSite(database.db, { domain: 'copy.example', name: 'Copy' })
      const [mailing] = await database.db.insert(crmMailings).values({ siteId: site.id, description: 'Copy' }).returning()
      await database.db.execute(sql.raw(`CREATE TABLE copy_leads (LIKE crm_leads INCLUDING DEFAULTS INCLUDING INDEXES)`))
      await database.db.execute(sql.raw(`ALTER TABLE copy_leads ALTER COLUMN site_id SET DEFAULT ${site.id}, ALTER COLUMN mailing_id SET DEFAULT ${mailing!.id}, ALTER COLUMN id SET DEFAULT nextval('crm_leads_id_seq'), ADD COLUMN city text`))
      const copyStarted = performance.now()
      execFileSync('psql', [url.toString(), '-q', '-c', `\\copy copy_leads (name, surname, phones, city) FROM '${file}' WITH (FORMAT csv, HEADER true, DELIMITER ';')`])
      const copySeconds = (performance.now() - copyStarted) / 1000
      const ours = await importInto(database, dataDir, 'bench.csv', ROWS)
      console.log(`leads import, PostgreSQL, ${ROWS.toLocaleString('en')} rows (${mb((await import('node:fs')).statSync(file).size)} file)`)
      console.log(`  bare COPY:   ${copySeconds.toFixed(1)} s, ${Math.round(ROWS / copySeconds).toLocaleString('en')} rows/s`)
      console.log(`  our import:  ${ours.seconds.toFixed(1)} s, ${Math.round(ROWS / ours.seconds).toLocaleString('en')} rows/s, peak RSS ${mb(ours.rss)}`)
      console.log(`  ratio to COPY: ${(ours.seconds / copySeconds).toFixed(2)} (goal ≤ 2), peak RSS goal ≤ 300 MB`)
    } finally {
      await database.close()
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
    if (PGLITE_ROWS > 0) {
      const small = path.join(importsDir(dataDir), 'small.csv')
      await writeCsv(small, PGLITE_ROWS)
      const pglite = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') })
      try {
        const ours = await importInto(pglite, dataDir, 'small.csv', PGLITE_ROWS)
        console.log(`leads import, PGlite, ${PGLITE_ROWS.toLocaleString('en')} rows: ${ours.seconds.toFixed(1)} s, ${Math.round(PGLITE_ROWS / ours.seconds).toLocaleString('en')} rows/s, peak RSS ${mb(ours.rss)}`)
      } finally {
        await pglite.close()
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
