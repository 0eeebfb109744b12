import { randomUUID } from 'node:crypto'
import { readdir, writeFile, mkdir } from 'node:fs/promises'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ReportJob } from '../../../contract/api/reports.ts'
import { pauseReports, reportJobs } from '../../../server/db/schema/index.ts'
import { CSV_BATCH, reportCsv, resolveReport } from '../../../server/reports/engine.ts'
import { reportsDir } from '../../../server/reports/jobs.ts'
import { csvCell } from '../../../server/reports/csv.ts'
import { demo } from '../call-control-helper.ts'
import { TestClient, signedIn, useTestApp } from '../helper.ts'

// The CSV: its cells (time zone, durations, yes/no, the language's separator, formula cells neutralised), the streaming
// (keyset batches, memory flat over 50,001 rows), the limit above which it goes to the processing queue, and the
// queue's jobs (progress, download as an attachment, delete, a job a dead process left running finished by the next).

const t = useTestApp()
const at = (iso: string) => new Date(iso)
const BULK = 50_001
const BULK_DAY = 'date_from=2025-01-10&date_to=2025-01-10'
let siteId = 0
let agent1 = 0

beforeAll(async () => {
  const db = t.database.db
  const d = await demo(db)
  siteId = d.site.id
  agent1 = d.agent1.id
  await db.insert(pauseReports).values([
    {
      siteId,
      userId: d.agent1.id,
      description: 'Banheiro; "longo"',
      startedAt: at('2025-03-04T02:30:00Z'),
      endedAt: at('2025-03-04T03:30:00Z'),
      duration: 3600,
      exceeded: true,
      justification: '=HYPERLINK("http://x";"clique")',
    },
    {
      siteId,
      userId: d.agent1.id,
      description: '@soma',
      startedAt: at('2025-03-03T15:00:00Z'),
      endedAt: at('2025-03-03T15:00:42Z'),
      duration: 42,
      justification: '-2+3',
    },
  ])
  // 50,001 call steps on 10 January (UTC), one every half second from noon.
  await db.execute(sql`insert into call_records (site_id, call_id, step, uid, direction, call_type, kind, phone, started_at, decision)
    select ${siteId}, 'bulk-' || g, 1, gen_random_uuid()::text, 'inbound', 20, 'queue', '1199' || lpad(g::text, 7, '0'),
      '2025-01-10T12:00:00Z'::timestamptz + g * interval '500 milliseconds', '{"action":"relay"}'::jsonb
    from generate_series(1, ${BULK}) g`)
  // Every third of them was answered by agent1.
  await db.execute(sql`update call_records set user_id = ${agent1} where site_id = ${siteId} and call_id like 'bulk-%' and substr(call_id, 6)::int % 3 = 0`)
})

function parse(body: string, sep: string): string[][] {
  // Enough for these files: quoted cells may hold the separator and doubled quotes, never a line break.
  return body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const cells: string[] = []
      let cell = ''
      let quoted = false
      for (let i = 0; i < line.length; i++) {
        const c = line[i]!
        if (quoted) {
          if (c === '"' && line[i + 1] === '"') ((cell += '"'), i++)
          else if (c === '"') quoted = false
          else cell += c
        } else if (c === '"') quoted = true
        else if (c === sep) (cells.push(cell), (cell = ''))
        else cell += c
      }
      cells.push(cell)
      return cells
    })
}

describe('csvCell', () => {
  it('quotes what needs quoting and neutralises formulas', () => {
    expect(csvCell('plain', ';', true)).toBe('plain')
    expect(csvCell('a;b', ';', true)).toBe('"a;b"')
    expect(csvCell('a,b', ';', true)).toBe('a,b')
    expect(csvCell('a,b', ',', true)).toBe('"a,b"')
    expect(csvCell('say "hi"', ',', true)).toBe('"say ""hi"""')
    expect(csvCell('two\nlines', ',', true)).toBe('"two\nlines"')
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(formula, ',', true).replace(/^"/, '')).toMatch(/^'/)
    expect(csvCell('-1', ',', false)).toBe('-1')
  })
})

describe('GET /api/v1/report/pages/{id}/csv/', () => {
  it("writes the rows in the user's time zone and language, as an attachment", async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const res = await supervisor.get('/api/v1/report/pages/pauses/csv/?tz=America/Sao_Paulo&date_from=2025-03-03')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-disposition']).toBe('attachment; filename="pauses_2025-03-03_2025-03-03.csv"')
    expect(res.body.startsWith('\uFEFF')).toBe(true)
    const rows = parse(res.body, ';')
    expect(rows[0]).toEqual(['Início', 'Fim', 'Agente', 'Equipe', 'Motivo', 'Duração', 'Excedida', 'Justificativa'])
    expect(rows).toHaveLength(3)
    // Newest first; 23:30 local to 00:30 local, an hour, exceeded; the formula kept as text.
    expect(rows[1]).toEqual([
      '2025-03-03 23:30:00',
      '2025-03-04 00:30:00',
      expect.any(String),
      expect.any(String),
      'Banheiro; "longo"',
      '01:00:00',
      'Sim',
      `'=HYPERLINK("http://x";"clique")`,
    ])
    expect(rows[2]!.slice(4)).toEqual(["'@soma", '00:00:42', 'Não', "'-2+3"])
    // The raw text: the cell with the separator and quotes is quoted.
    expect(res.body).toContain(`;"Banheiro; ""longo""";01:00:00;Sim;"'=HYPERLINK(""http://x"";""clique"")"\r\n`)

    const english = await supervisor.get('/api/v1/report/pages/pauses/csv/?tz=America/Sao_Paulo&date_from=2025-03-03&lang=en-US')
    const en = parse(english.body, ',')
    expect(en[0]!.slice(0, 2)).toEqual(['Start', 'End'])
    expect(en[1]!.slice(5, 7)).toEqual(['01:00:00', 'Yes'])
  })

  it('streams in keyset batches with flat memory', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const report = await resolveReport(t.database.db, siteId, 'call-steps', { tz: 'UTC', date_from: '2025-01-10', date_to: '2025-01-10' }, 'en-US')
    let chunks = 0
    let bytes = 0
    let lines = 0
    let baseline = 0
    let peak = 0
    let previous = Infinity
    let ordered = 0
    for await (const chunk of reportCsv(t.database.db, report, 'en-US')) {
      chunks++
      bytes += chunk.length
      const chunkLines = chunk.split('\r\n').filter(Boolean)
      lines += chunkLines.length
      if (chunks > 1) expect(chunkLines.length).toBeLessThanOrEqual(CSV_BATCH)
      // Every row once, newest first across batch boundaries (the call id, bulk-N, is the second column).
      if (chunks > 1)
        for (const line of chunkLines) {
          const n = Number(line.split(',')[1]!.slice(5))
          if (n === previous - 1 || previous === Infinity) ordered++
          previous = n
        }
      if (chunks === 8) {
        gc()
        baseline = process.memoryUsage().heapUsed
      } else if (chunks > 8 && chunks % 4 === 0) {
        gc()
        peak = Math.max(peak, process.memoryUsage().heapUsed)
      }
    }
    expect(lines).toBe(BULK + 1)
    expect(ordered).toBe(BULK)
    expect(previous).toBe(1)
    expect(chunks).toBe(1 + Math.ceil(BULK / CSV_BATCH))
    // Several MB written, while the heap stays within a fraction of it (nothing accumulates).
    expect(bytes).toBeGreaterThan(4_000_000)
    expect(peak - baseline).toBeLessThan(bytes / 4)
  })

  it('streams the calls (aggregated steps) batch by batch, filters applied in each', async () => {
    const count = async (filters: { agent?: number }) => {
      const report = await resolveReport(t.database.db, siteId, 'calls', { tz: 'UTC', date_from: '2025-01-10', date_to: '2025-01-10', ...filters }, 'en-US')
      let lines = 0
      let previous = Infinity
      let ordered = 0
      const agents = new Set<string>()
      let first = true
      for await (const chunk of reportCsv(t.database.db, report, 'en-US')) {
        if (first) {
          first = false
          continue
        }
        for (const line of chunk.split('\r\n').filter(Boolean)) {
          lines++
          const cells = line.split(',')
          const n = Number(cells[11]!.slice(5))
          if (n < previous) ordered++
          previous = n
          agents.add(cells[3]!)
        }
      }
      return { lines, ordered, agents: [...agents] }
    }
    expect(await count({})).toMatchObject({ lines: BULK, ordered: BULK })
    const mine = await count({ agent: agent1 })
    expect(mine).toEqual({ lines: Math.floor(BULK / 3), ordered: Math.floor(BULK / 3), agents: ['Ana Agente'] })
  })

  it('sends an export over the limit to the processing queue (409)', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const res = await supervisor.get(`/api/v1/report/pages/call-steps/csv/?${BULK_DAY}`)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'report_too_large', count: 50_001, limit: 50_000 })
    // The calls too (each bulk step is a call); agent1's third of them streams.
    const calls = await supervisor.get(`/api/v1/report/pages/calls/csv/?${BULK_DAY}`)
    expect(calls.statusCode).toBe(409)
    expect(calls.json()).toMatchObject({ count: 50_001 })
    const mine = await supervisor.get(`/api/v1/report/pages/calls/csv/?${BULK_DAY}&agent=${agent1}`)
    expect(mine.statusCode).toBe(200)
    expect(mine.body.split('\r\n').filter(Boolean)).toHaveLength(Math.floor(BULK / 3) + 1)
  })
})

async function waitForJob(client: TestClient, id: number, status: string): Promise<ReportJob> {
  for (;;) {
    const job = (await client.get(`/api/v1/report/processing-queue/${id}/`)).json() as ReportJob
    if (job.status === status) return job
    if (job.status === 'failed') throw new Error(`job failed: ${job.error}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('/api/v1/report/processing-queue/', () => {
  it('runs a large export as a job: progress, download, delete; only its owner sees it', async () => {
    const supervisor = await signedIn(t.app, 'supervisor')
    const created = await supervisor.post('/api/v1/report/processing-queue/', {
      report: 'call-steps',
      filters: { date_from: '2025-01-10', date_to: '2025-01-10', tz: 'UTC' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const job = created.json() as ReportJob
    expect(job).toMatchObject({ report: 'call-steps', title: 'Etapas das chamadas', file_name: 'call-steps_2025-01-10_2025-01-10.csv' })
    const done = await waitForJob(supervisor, job.id, 'done')
    expect(done).toMatchObject({ total_rows: BULK, rows_written: BULK, progress: 1 })
    expect(done.size).toBeGreaterThan(4_000_000)
    expect((await supervisor.get('/api/v1/report/processing-queue/')).json()).toMatchObject({ count: 1, results: [{ id: job.id, status: 'done' }] })

    const file = await supervisor.get(`/api/v1/report/processing-queue/${job.id}/download/`)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-disposition']).toBe('attachment; filename="call-steps_2025-01-10_2025-01-10.csv"')
    expect(file.headers['x-content-type-options']).toBe('nosniff')
    const lines = file.body.split('\r\n').filter(Boolean)
    expect(lines).toHaveLength(BULK + 1)
    expect(lines[0]).toBe(
      '\uFEFFInício;ID da chamada;Etapa;Destino;Sentido;Telefone;Agente;Fila;Status;Atendida em;Espera;Conversação;Duração;Desligada por;Classificação',
    )
    expect(lines[1]).toMatch(/^2025-01-10 18:56:40;bulk-50001;1;Fila;Entrada;11990050001;/)

    // Another supervisor of the site, and bad input.
    const admin = await signedIn(t.app, 'admin')
    expect((await admin.get(`/api/v1/report/processing-queue/${job.id}/`)).statusCode).toBe(404)
    expect((await admin.get(`/api/v1/report/processing-queue/${job.id}/download/`)).statusCode).toBe(404)
    expect((await supervisor.post('/api/v1/report/processing-queue/', { report: 'pauses', filters: { queue: '1' } })).statusCode).toBe(400)
    expect((await supervisor.post('/api/v1/report/processing-queue/', { report: 'nope' })).statusCode).toBe(400)
    expect((await supervisor.get('/api/v1/report/processing-queue/abc/')).statusCode).toBe(400)

    expect((await supervisor.delete(`/api/v1/report/processing-queue/${job.id}/`)).statusCode).toBe(204)
    expect((await supervisor.get(`/api/v1/report/processing-queue/${job.id}/`)).statusCode).toBe(404)
    expect((await readdir(reportsDir(t.dataDir))).filter((name) => name.endsWith('.csv'))).toEqual([])
  })

  it('finishes, after a restart, a job whose process died while it ran', async () => {
    // A process died while it ran this job: left 'running' with a heartbeat ten minutes old, its file half written.
    const supervisor = await signedIn(t.app, 'supervisor')
    const [me] = await t.database.db
      .execute(sql`select id from users where username = 'supervisor' and site_id = ${siteId}`)
      .then((r) => (r as unknown as { rows: { id: number }[] }).rows)
    const storedName = `${randomUUID().replace(/-/g, '')}.csv`
    await mkdir(reportsDir(t.dataDir), { recursive: true })
    await writeFile(`${reportsDir(t.dataDir)}/${storedName}.part`, 'half a file')
    const [row] = await t.database.db
      .insert(reportJobs)
      .values({
        siteId,
        userId: me!.id,
        report: 'pauses',
        filters: { tz: 'America/Sao_Paulo', date_from: '2025-03-03' },
        status: 'running',
        attempts: 1,
        rowsWritten: 1,
        totalRows: 2,
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
        storedName,
        fileName: 'pauses_2025-03-03_2025-03-03.csv',
      })
      .returning()
    expect((await supervisor.get(`/api/v1/report/processing-queue/${row!.id}/download/`)).statusCode).toBe(404)
    // The next start takes it again from the beginning.
    const restarted = await t.buildVariant({})
    const again = await signedIn(restarted, 'supervisor')
    const done = await waitForJob(again, row!.id, 'done')
    expect(done).toMatchObject({ rows_written: 2, total_rows: 2 })
    const file = await again.get(`/api/v1/report/processing-queue/${row!.id}/download/`)
    expect(file.body).not.toContain('half a file')
    expect(file.body.split('\r\n').filter(Boolean)).toHaveLength(3)
    const [after] = await t.database.db
      .select()
      .from(reportJobs)
      .where(sql`id = ${row!.id}`)
    expect(after!.attempts).toBe(2)
  })
})
