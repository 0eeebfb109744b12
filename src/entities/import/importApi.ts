import type { Entity } from '../../../contract/entities/index.ts'
import { api } from '../../api/client.ts'
import { isApiError } from '../../api/errors.ts'
import { clientPath } from '../api.ts'

// CSV import of importable entities: `{api}import/preview/` reads the file's header and first rows and suggests which
// column fills which field; `{api}import/` imports every row or none (a 400 lists the failing rows).

export type ImportPreview = {
  /** The file's header. */
  readonly columns: string[]
  /** The first rows, as the file has them. */
  readonly rows: string[][]
  /** Target field → file column, as the server guesses it. */
  readonly suggestion: Record<string, string | null>
  readonly total?: number
}

export type RowError = { readonly row: number; readonly field: string; readonly message: string }
export type ImportResult = { readonly imported: number }

/** Column → field choices as sent: `mapping` JSON of target field → file column (absent = not imported). */
export type Mapping = Record<string, string>

function fileForm(file: Blob, mapping?: Mapping): FormData {
  const form = new FormData()
  if (mapping) form.append('mapping', JSON.stringify(mapping))
  form.append('file', file, 'name' in file ? String((file as File).name) : 'import.csv')
  return form
}

function asRows(value: unknown): string[][] {
  return Array.isArray(value) ? value.map((row) => (Array.isArray(row) ? row.map((c) => String(c ?? '')) : Object.values(row ?? {}).map((c) => String(c ?? '')))) : []
}

/** Reads the server's answer leniently: `suggestion` or `mapping`, `rows` or `sample`. */
export function toPreview(body: unknown): ImportPreview {
  const b = (body ?? {}) as Record<string, unknown>
  const suggestion = (b.suggestion ?? b.mapping ?? {}) as Record<string, string | null>
  return { columns: ((b.columns ?? b.header ?? []) as unknown[]).map(String), rows: asRows(b.rows ?? b.sample), suggestion, total: typeof b.total === 'number' ? b.total : undefined }
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
