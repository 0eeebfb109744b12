import type { Entity } from '../../../contract/entities/index.ts'
import { api } from '../../api/client.ts'
import { isApiError } from '../../api/errors.ts'
import { clientPath } from '../api.ts'

// CSV import of importable entities (server/entities/import):
//   POST {api}import/preview/  file → {columns, rows (first 10), count, mapping: {column: field} (suggested)}
//   POST {api}import/          file + mapping (JSON {column: field}) → 201 {created: n}, or 400 {errors: [{row, field,
//                              messages}]} with nothing written (row = the file's line, the header being line 1).

export type ImportPreview = {
  /** The file's header. */
  readonly columns: string[]
  /** The first rows, as the file has them. */
  readonly rows: string[][]
  /** Target field → file column, as the server guesses it. */
  readonly suggestion: Record<string, string>
  readonly total?: number
}

export type RowError = { readonly row: number; readonly field: string; readonly message: string }
export type ImportResult = { readonly created: number }

/** The dialog's choices: target field → file column (a field left out is not imported). */
export type Mapping = Record<string, string>

/** What the server reads: file column → target field. */
export function columnMapping(mapping: Mapping): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).map(([field, column]) => [column, field]))
}

function fileForm(file: Blob, mapping?: Mapping): FormData {
  const form = new FormData()
  if (mapping) form.append('mapping', JSON.stringify(columnMapping(mapping)))
  form.append('file', file, 'name' in file ? String((file as File).name) : 'import.csv')
  return form
}

function asRows(value: unknown): string[][] {
  return Array.isArray(value)
    ? value.map((row) => (Array.isArray(row) ? row.map((c) => String(c ?? '')) : Object.values(row ?? {}).map((c) => String(c ?? ''))))
    : []
}

/** The preview as the dialog uses it: the suggested mapping turned to field → column. */
export function toPreview(body: unknown): ImportPreview {
  const b = (body ?? {}) as Record<string, unknown>
  const suggestion: Record<string, string> = {}
  for (const [column, field] of Object.entries((b.mapping ?? {}) as Record<string, unknown>)) if (typeof field === 'string' && field) suggestion[field] = column
  return { columns: ((b.columns ?? []) as unknown[]).map(String), rows: asRows(b.rows), suggestion, total: typeof b.count === 'number' ? b.count : undefined }
}

export function previewImport(entity: Entity, file: Blob): Promise<ImportPreview> {
  return api.post<unknown>(clientPath(`${entity.api}import/preview/`), fileForm(file)).then(toPreview)
}

export function runImport(entity: Entity, file: Blob, mapping: Mapping): Promise<ImportResult> {
  return api.post<ImportResult>(clientPath(`${entity.api}import/`), fileForm(file, mapping))
}

/** The per-row errors of a refused import ({errors: [{row, field, message}]}), or [] for any other failure. */
export function rowErrors(error: unknown): RowError[] {
  if (!isApiError(error)) return []
  const body = error.body as { errors?: unknown } | undefined
  const list = Array.isArray(body?.errors) ? body.errors : []
  return list.flatMap((e: unknown) => {
    const item = (e ?? {}) as Record<string, unknown>
    const messages = Array.isArray(item.messages) ? item.messages : [item.message ?? item.detail ?? '']
    return messages.map((message) => ({ row: Number(item.row ?? item.line ?? 0), field: String(item.field ?? ''), message: String(message) }))
  })
}
