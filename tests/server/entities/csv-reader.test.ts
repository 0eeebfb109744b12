import { describe, expect, it } from 'vitest'
import type { CsvStats } from '../../../server/entities/import/csv-parser.ts'
import { CsvLineTooLong, CsvMalformed, readCsv } from '../../../server/entities/import/csv-parser.ts'

// The CSV reader behind imports (csv-parse under our delimiter detection): what spreadsheets export reads as rows,
// the work grows linearly with the file (counted, not timed), and a line past the cap stops the reading at once.

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

async function rows(text: string, options: { chunk?: number; maxLineChars?: number; stats?: CsvStats } = {}): Promise<string[][]> {
  const out: string[][] = []
  await readCsv(chunksOf(text, options.chunk ?? 7), (row) => out.push(row), { maxLineChars: options.maxLineChars ?? 1000, stats: options.stats })
  return out
}

describe('the CSV reader', () => {
  it('reads quoted fields, "" escapes, line breaks in quotes, a BOM, CRLF, LF or CR, and skips blank lines', async () => {
    expect(await rows('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n  \r\n"two\nlines",z\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ])
    expect(await rows('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(await rows('only\nlast,row')).toEqual([['only'], ['last', 'row']])
  })

  it("takes ';' when the header line has more of them than ',' (Excel in pt-BR), and keeps rows of empty cells", async () => {
    expect(await rows('Nome;Preço;Obs\nPlano A;49,90;\n;;\n')).toEqual([
      ['Nome', 'Preço', 'Obs'],
      ['Plano A', '49,90', ''],
      ['', '', ''],
    ])
  })

  it('keeps a quote inside a field as text, and refuses a quoted field that never closes', async () => {
    expect(await rows('a,b\n5" tela,x\n')).toEqual([
      ['a', 'b'],
      ['5" tela', 'x'],
    ])
    await expect(rows('a,b\n"never closed,x\n')).rejects.toBeInstanceOf(CsvMalformed)
  })

  it('looks at each character a bounded number of times: the work grows linearly with a long line', async () => {
    const work: number[] = []
    for (const size of [50_000, 100_000, 200_000]) {
      const stats: CsvStats = { received: 0, scanned: 0 }
      const header = 'x'.repeat(size)
      expect(await rows(`${header}\n1\n`, { chunk: 1024, maxLineChars: 1_000_000, stats })).toEqual([[header], ['1']])
      // The header line is scanned once for its end (the old reader rescanned all it held at every chunk).
      expect(stats.scanned).toBeLessThanOrEqual(stats.received)
      expect(stats.received).toBe(size + 3)
      work.push(stats.scanned)
    }
    expect(work[1]! / work[0]!).toBeLessThan(2.1)
    expect(work[2]! / work[1]!).toBeLessThan(2.1)
  })

  it('stops at the first line past the cap, having read little more than the cap', async () => {
    const stats: CsvStats = { received: 0, scanned: 0 }
    const oneLine = 'x,'.repeat(8 * 1024 * 1024)
    const error = await rows(oneLine, { chunk: 64 * 1024, maxLineChars: 64 * 1024, stats }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CsvLineTooLong)
    expect((error as CsvLineTooLong).line).toBe(1)
    expect(stats.received).toBeLessThanOrEqual(3 * 64 * 1024)
    const later = await rows(`a,b\n1,2\n${'y'.repeat(5000)}\n`, { maxLineChars: 1000 }).catch((e: unknown) => e)
    expect(later).toBeInstanceOf(CsvLineTooLong)
    expect((later as CsvLineTooLong).line).toBe(3)
  })
})
