import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { CsvError, parse } from 'csv-parse'

// CSV rows from streamed text (RFC 4180 plus what spreadsheets export), parsed by csv-parse: quoted fields with ""
// escapes and line breaks, CRLF, LF or CR line ends, a UTF-8 BOM, and ',' or ';' as the delimiter (whichever the
// header line uses more; Excel in pt-BR writes ';'). Blank lines are skipped. Rows leave as soon as they end, so a
// large file is never held as one string, and every character is looked at a bounded number of times: a line longer
// than `maxLineChars` stops the reading at once (a 16 MB one-line file used to take seconds of the event loop).

export class CsvLineTooLong extends Error {
  readonly line: number
  constructor(line: number) {
    super(`CSV line ${line} is too long`)
    this.line = line
  }
}

/** The text is not CSV csv-parse can read (an unclosed or misplaced quote). */
export class CsvMalformed extends Error {}

/** Work done, for the tests that keep it linear: characters received and characters scanned for the header line. */
export type CsvStats = { received: number; scanned: number }

export type CsvOptions = { maxLineChars: number; stats?: CsvStats }

function detectDelimiter(header: string): string {
  const count = (c: string) => header.split(c).length - 1
  return count(';') > count(',') ? ';' : ','
}

/** Reads chunks up to the end of the first line (each chunk scanned once), for the delimiter. */
async function readHeaderLine(chunks: AsyncIterator<string>, options: CsvOptions): Promise<{ head: string[]; line: string }> {
  const head: string[] = []
  let length = 0
  for (;;) {
    const next = await chunks.next()
    if (next.done) return { head, line: head.join('') }
    const chunk = next.value
    if (options.stats) options.stats.received += chunk.length
    const end = chunk.search(/[\r\n]/)
    if (options.stats) options.stats.scanned += end < 0 ? chunk.length : end + 1
    head.push(chunk)
    if (end >= 0) return { head, line: head.slice(0, -1).join('') + chunk.slice(0, end) }
    length += chunk.length
    if (length > options.maxLineChars) throw new CsvLineTooLong(1)
  }
}

/** Calls `onRow` with every non-blank row of the text, in order; `onRow` may throw to stop the reading. */
export async function readCsv(text: AsyncIterable<string>, onRow: (row: string[]) => void, options: CsvOptions): Promise<void> {
  const chunks = text[Symbol.asyncIterator]()
  const { head, line } = await readHeaderLine(chunks, options)
  const parser = parse({
    delimiter: detectDelimiter(line.replace(/^\uFEFF/, '')),
    bom: true,
    // A quote opens a field only at its start; elsewhere it is text, as spreadsheets write it.
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: options.maxLineChars,
  })
  async function* source() {
    try {
      yield* head
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        if (options.stats) options.stats.received += next.value.length
        yield next.value
      }
    } finally {
      await chunks.return?.()
    }
  }
  try {
    await pipeline(Readable.from(source(), { objectMode: false }), parser, async (rows: AsyncIterable<string[]>) => {
      for await (const row of rows) if (row.length > 1 || row[0]!.trim() !== '') onRow(row)
    })
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    if (error.code === 'CSV_MAX_RECORD_SIZE') throw new CsvLineTooLong((error as CsvError & { lines?: number }).lines ?? 1)
    throw new CsvMalformed(error.message)
  }
}
