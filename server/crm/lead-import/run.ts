import { createReadStream, createWriteStream } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { once } from 'node:events'
import { CsvError, parse } from 'csv-parse'
import { eq } from 'drizzle-orm'
import { LEAD_IMPORT_MESSAGES } from '../../../contract/api/lead-import.ts'
import { entityMessage } from '../../../contract/entities/index.ts'
import type { Db } from '../../db/client.ts'
import { crmLeadImports } from '../../db/schema/index.ts'
import { errorFile, uploadFile } from './store.ts'
import type { Layout, LeadValues, RowError } from './rows.ts'
import { leadOf, planColumns } from './rows.ts'
import { openLeadWriter } from './writer.ts'

// Runs one import: the stored CSV is read as a stream (csv-parse, with back-pressure: the next rows are parsed only
// after the batch before them is written), each row checked (rows.ts), good ones written in batches (writer.ts),
// bad ones appended to the error file, progress saved every PROGRESS_MS. Anything that stops the file itself rolls
// every lead of it back and marks the import failed with the reason.

export const BATCH_ROWS = 5000
const PROGRESS_MS = 500
const MAX_LINE_CHARS = 64 * 1024

export type ImportJob = {
  id: number
  siteId: number
  mailingId: number
  storedName: string
  lang: string
  layout: Layout
}

/** A failure of the file, reported to the uploader; anything else is the server's and logged. */
export class ImportFailure extends Error {
  readonly text: string
  constructor(text: string) {
    super(text)
    this.text = text
  }
}

function lineOf(error: unknown): number | undefined {
  return (error as { lines?: number }).lines
}

async function headerLine(file: string): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(MAX_LINE_CHARS)
    const { bytesRead } = await handle.read(buffer, 0, MAX_LINE_CHARS, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '')
    const end = text.search(/[\r\n]/)
    return end < 0 ? text : text.slice(0, end)
  } finally {
    await handle.close()
  }
}

function csvCell(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

class ErrorLog {
  private stream: WriteStream | null = null
  private readonly path: string
  private readonly job: ImportJob
  header: string[] = []
  count = 0
  constructor(path: string, job: ImportJob) {
    this.path = path
    this.job = job
  }

  async add(line: number, row: string[], errors: RowError[]) {
    if (!this.stream) {
      this.stream = createWriteStream(this.path)
      await this.put(`\uFEFF${LEAD_IMPORT_MESSAGES.errorHeader[this.job.lang as 'pt-BR'] ?? LEAD_IMPORT_MESSAGES.errorHeader['pt-BR']};${this.header.map(csvCell).join(';')}\n`)
    }
    this.count++
    for (const error of errors) {
      const text = entityMessage(error.code, this.job.lang) + (error.value ? `: ${error.value}` : '')
      await this.put(`${line};${error.field};${csvCell(text)};${row.map(csvCell).join(';')}\n`)
    }
  }

  private async put(text: string) {
    if (!this.stream!.write(text)) await once(this.stream!, 'drain')
  }

  async close() {
    if (!this.stream) return
    const stream = this.stream
    stream.end()
    await once(stream, 'close')
  }
}

export type RunOptions = { batchRows?: number; signal?: AbortSignal }

/** Imports the job's file; resolves with the counts, or throws (ImportFailure for the file's own faults). */
export async function runImport(db: Db, dataDir: string, job: ImportJob, options: RunOptions = {}) {
  const batchRows = options.batchRows ?? BATCH_ROWS
  const file = uploadFile(dataDir, job.storedName)
  const first = await headerLine(file)
  const delimiter = first.split(';').length > first.split(',').length ? ';' : ','
  const source = createReadStream(file)
  const parser = parse({
    delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_LINE_CHARS,
    info: true,
  })
  source.pipe(parser)
  const writer = await openLeadWriter(db, { siteId: job.siteId, mailingId: job.mailingId, importId: job.id })
  const errors = new ErrorLog(errorFile(dataDir, job.storedName), job)
  let header: string[] | null = null
  let plan: ReturnType<typeof planColumns> | null = null
  let batch: LeadValues[] = []
  let rowsRead = 0
  let lastSaved = Date.now()
  const saveProgress = async () => {
    lastSaved = Date.now()
    await db
      .update(crmLeadImports)
      .set({ readBytes: source.bytesRead, rowsRead, rowsFailed: errors.count, heartbeatAt: new Date() })
      .where(eq(crmLeadImports.id, job.id))
  }
  try {
    try {
      for await (const record of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        options.signal?.throwIfAborted()
        const row = record.record
        if (row.length === 1 && row[0]!.trim() === '') continue
        if (!header) {
          header = row.map((h) => h.trim())
          plan = planColumns(header, job.layout)
          if ('missing' in plan) throw new ImportFailure(entityMessage('csvUnknownColumn', job.lang, { column: plan.missing }))
          errors.header = header
          continue
        }
        rowsRead++
        const result = leadOf(row, plan as Exclude<typeof plan, { missing: string } | null>)
        if ('errors' in result) await errors.add(record.info.lines, row, result.errors)
        else batch.push(result.lead)
        if (batch.length >= batchRows) {
          await writer.write(batch)
          batch = []
        }
        if (Date.now() - lastSaved >= PROGRESS_MS) await saveProgress()
      }
    } catch (error) {
      if (error instanceof CsvError) {
        if (error.code === 'CSV_MAX_RECORD_SIZE') throw new ImportFailure(entityMessage('csvLineTooLong', job.lang, { line: lineOf(error) ?? 1, n: MAX_LINE_CHARS }))
        throw new ImportFailure(entityMessage('csvInvalid', job.lang) + (lineOf(error) ? ` (${lineOf(error)})` : ''))
      }
      throw error
    }
    if (!header) throw new ImportFailure(entityMessage('csvInvalid', job.lang))
    if (batch.length) await writer.write(batch)
    await errors.close()
    const imported = await writer.commit()
    return { readBytes: source.bytesRead, rowsRead, rowsImported: imported, rowsFailed: errors.count }
  } catch (error) {
    await writer.abort()
    await errors.close().catch(() => {})
    throw error
  } finally {
    source.destroy()
  }
}
