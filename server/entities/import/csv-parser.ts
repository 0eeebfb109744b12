// A streaming CSV reader (RFC 4180 plus what spreadsheets export): quoted fields with "" escapes and line breaks,
// CRLF, LF or CR line ends, a UTF-8 BOM, and ',' or ';' as the delimiter (whichever the header line uses more; Excel
// in pt-BR writes ';'). Text arrives in chunks and complete rows leave as soon as they end, so a large file is never
// held as one string. Blank lines are skipped.

export class CsvParser {
  private delimiter: string | null = null
  private pending = ''
  private field = ''
  private row: string[] = []
  private inQuotes = false
  private quoteInQuotes = false
  private afterCr = false
  private started = false

  /** Feeds decoded text; answers the rows it completed. */
  push(text: string): string[][] {
    let chunk = text
    if (!this.started) {
      this.started = true
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1)
    }
    if (this.delimiter === null) {
      this.pending += chunk
      const end = this.pending.search(/[\r\n]/)
      if (end < 0) return []
      this.delimiter = detectDelimiter(this.pending.slice(0, end))
      chunk = this.pending
      this.pending = ''
    }
    return this.consume(chunk)
  }

  /** Ends the input; answers the last row, if the text did not end with a line break. */
  end(): string[][] {
    const rows: string[][] = []
    if (this.delimiter === null) {
      this.delimiter = detectDelimiter(this.pending)
      rows.push(...this.consume(this.pending))
      this.pending = ''
    }
    this.quoteInQuotes = false
    if (this.field !== '' || this.row.length > 0) this.finishRow(rows)
    return rows
  }

  private consume(text: string): string[][] {
    const rows: string[][] = []
    const delimiter = this.delimiter!
    for (const char of text) {
      if (this.quoteInQuotes) {
        this.quoteInQuotes = false
        if (char === '"') {
          this.field += '"'
          continue
        }
        this.inQuotes = false
      }
      if (this.inQuotes) {
        if (char === '"') this.quoteInQuotes = true
        else this.field += char
        continue
      }
      if (this.afterCr) {
        this.afterCr = false
        if (char === '\n') continue
      }
      if (char === '"' && this.field === '') this.inQuotes = true
      else if (char === delimiter) this.finishField()
      else if (char === '\r' || char === '\n') {
        this.afterCr = char === '\r'
        this.finishRow(rows)
      } else this.field += char
    }
    return rows
  }

  private finishField(): void {
    this.row.push(this.field)
    this.field = ''
  }

  private finishRow(rows: string[][]): void {
    this.finishField()
    const row = this.row
    this.row = []
    if (row.length === 1 && row[0]!.trim() === '') return
    rows.push(row)
  }
}

function detectDelimiter(header: string): string {
  const count = (c: string) => header.split(c).length - 1
  return count(';') > count(',') ? ';' : ','
}
