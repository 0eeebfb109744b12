import type { FastifyRequest } from 'fastify'
import { entityMessage } from '../../../contract/entities/index.ts'
import { HttpError, fieldErrors } from '../../http/errors.ts'
import { MEDIA_KINDS } from '../media-store.ts'
import { readMultipart } from '../../http/multipart.ts'
import { CsvLineTooLong, CsvMalformed, readCsv } from './csv-parser.ts'

// Reads an import request: a CSV file part (stream-parsed while it arrives, within the size and row caps) and the
// text fields beside it (`mapping`, or `params` holding {mapping}). A CSV has no magic bytes, so it is checked the
// other way round: UTF-8 text without NUL bytes that is none of the binary types uploads know (a spreadsheet saved
// as .xlsx is a ZIP).

export const CSV_MAX_BYTES = 20 * 1024 * 1024
export const CSV_MAX_ROWS = 50_000
/** No import needs a longer line; a longer one is refused as soon as it is seen, not after the whole file. */
export const CSV_MAX_LINE_CHARS = 64 * 1024

export type CsvUpload = { header: string[]; rows: string[][]; fields: Record<string, string> }

const ZIP = [0x50, 0x4b, 0x03, 0x04]

function looksBinary(bytes: Buffer): boolean {
  return bytes.includes(0) || ZIP.every((b, i) => bytes[i] === b) || MEDIA_KINDS.some((kind) => kind.matches(bytes))
}

export async function readCsvUpload(request: FastifyRequest, options: { maxRows?: number } = {}): Promise<CsvUpload> {
  const lang = request.lang
  const invalid = () => fieldErrors({ file: [entityMessage('csvInvalid', lang)] })
  if (!request.isMultipart()) throw invalid()
  const maxRows = options.maxRows ?? CSV_MAX_ROWS
  const tooManyRows = () => fieldErrors({ file: [entityMessage('csvTooManyRows', lang, { n: maxRows })] })
  const fields: Record<string, string> = {}
  let table: string[][] | null = null
  const tooLarge = () => fieldErrors({ file: [entityMessage('fileTooLarge', lang, { n: CSV_MAX_BYTES / (1024 * 1024) })] })
  await readMultipart(
    request,
    async () => {
      for await (const part of request.parts({ limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 * 1024 } })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value)
          continue
        }
        const rows: string[][] = []
        try {
          await readCsv(
            decodedText(part.file as AsyncIterable<Buffer>, invalid),
            (row) => {
              // The header is one row more than the data.
              if (rows.length > maxRows) throw tooManyRows()
              rows.push(row)
            },
            { maxLineChars: CSV_MAX_LINE_CHARS },
          )
        } catch (error) {
          if (error instanceof CsvLineTooLong) throw fieldErrors({ file: [entityMessage('csvLineTooLong', lang, { line: error.line, n: CSV_MAX_LINE_CHARS })] })
          if (error instanceof CsvMalformed) throw invalid()
          throw error
        }
        table = rows
      }
    },
    tooLarge,
  )
  const read = table as string[][] | null
  if (!read || read.length === 0 || read[0]!.every((h) => h.trim() === '')) throw invalid()
  const [header, ...rows] = read
  return { header: header!.map((h) => h.trim()), rows, fields }
}

/** The file's text, chunk by chunk: UTF-8 with no NUL byte, and not a known binary type. */
async function* decodedText(file: AsyncIterable<Buffer>, invalid: () => HttpError): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let first = true
  for await (const chunk of file) {
    if ((first && looksBinary(chunk)) || chunk.includes(0)) throw invalid()
    first = false
    yield decode(decoder, chunk, invalid)
  }
  const rest = decode(decoder, undefined, invalid)
  if (rest) yield rest
}

function decode(decoder: TextDecoder, chunk: Buffer | undefined, invalid: () => HttpError): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
  } catch {
    throw invalid()
  }
}
