import type { FastifyRequest } from 'fastify'
import { entityMessage } from '../../../contract/entities/index.ts'
import { HttpError, fieldErrors } from '../../http/errors.ts'
import { MEDIA_KINDS } from '../media-store.ts'
import { CsvParser } from './csv-parser.ts'

// Reads an import request: a CSV file part (stream-parsed while it arrives, within the size and row caps) and the
// text fields beside it (`mapping`, or `params` holding {mapping}). A CSV has no magic bytes, so it is checked the
// other way round: UTF-8 text without NUL bytes that is none of the binary types uploads know (a spreadsheet saved
// as .xlsx is a ZIP).

export const CSV_MAX_BYTES = 20 * 1024 * 1024
export const CSV_MAX_ROWS = 50_000

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
  const fields: Record<string, string> = {}
  let table: string[][] | null = null
  try {
    for await (const part of request.parts({ limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 * 1024 } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value)
        continue
      }
      const parser = new CsvParser()
      const decoder = new TextDecoder('utf-8', { fatal: true })
      const rows: string[][] = []
      let first = true
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        if (first && looksBinary(chunk)) throw invalid()
        if (chunk.includes(0)) throw invalid()
        first = false
        rows.push(...parser.push(decode(decoder, chunk, invalid)))
        // The header is one row more than the data.
        if (rows.length > maxRows + 1) throw fieldErrors({ file: [entityMessage('csvTooManyRows', lang, { n: maxRows })] })
      }
      rows.push(...parser.push(decode(decoder, undefined, invalid)), ...parser.end())
      if (rows.length > maxRows + 1) throw fieldErrors({ file: [entityMessage('csvTooManyRows', lang, { n: maxRows })] })
      table = rows
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fieldErrors({ file: [entityMessage('fileTooLarge', lang, { n: CSV_MAX_BYTES / (1024 * 1024) })] })
    }
    throw error
  }
  if (!table || table.length === 0 || table[0]!.every((h) => h.trim() === '')) throw invalid()
  const [header, ...rows] = table
  return { header: header!.map((h) => h.trim()), rows, fields }
}

function decode(decoder: TextDecoder, chunk: Buffer | undefined, invalid: () => HttpError): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
  } catch {
    throw invalid()
  }
}
