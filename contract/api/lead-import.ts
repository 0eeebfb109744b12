import * as v from 'valibot'
import { Id } from './agent.ts'

// CSV import of leads into a mailing by a saved layout (issue 17; the spec names no path, these are ours). The upload
// answers at once with the import's id; the import runs as a durable job (server/crm/lead-import/) and the page polls
// its progress. Rows that fail (a required field missing, a phone contract/phone.ts cannot make complete) are
// skipped and listed in an error file; a failure of the file itself (unreadable CSV, a column the layout names and
// the header lacks, the database) keeps nothing of it.
export const LEAD_IMPORT_PATHS = {
  /** POST multipart: `file` (CSV), `mailing` (id), `layout` (id) → 202 LeadImport. GET: the site's last imports. */
  list: '/v1/crm/lead-imports/',
  /** GET: one import, with its progress. */
  detail: '/v1/crm/lead-imports/:id/',
  /** GET: the rejected rows as CSV (line, field, message, then the row as it was). */
  errors: '/v1/crm/lead-imports/:id/errors/',
} as const

/** Largest CSV accepted: a million leads with a few columns is ~100 MB. */
export const LEAD_IMPORT_MAX_BYTES = 512 * 1024 * 1024

/** How often the import page asks for progress while an import runs. */
export const LEAD_IMPORT_POLL_MS = 500

export const LeadImportFields = v.object({ mailing: Id, layout: Id })

export const LeadImportParams = v.object({ id: Id })

export const LEAD_IMPORT_STATUS = ['queued', 'running', 'done', 'failed'] as const
export type LeadImportState = (typeof LEAD_IMPORT_STATUS)[number]

export type LeadImport = {
  id: number
  mailing: number
  layout: number | null
  file_name: string
  status: LeadImportState
  total_bytes: number
  read_bytes: number
  rows_read: number
  rows_imported: number
  rows_failed: number
  /** 0 to 1: the share of the file read (and, once done, 1). */
  progress: number
  /** Why a failed import failed, already in the caller's language. */
  error: string | null
  created_at: string
  finished_at: string | null
}

export type LeadImportListResponse = { count: number; results: LeadImport[] }

/** The import's own messages (the field ones are the entities' messages: required, invalidPhone, csv…). */
export const LEAD_IMPORT_MESSAGES = {
  failed: {
    'pt-BR': 'A importação falhou; nenhum lead foi importado.',
    'en-US': 'The import failed; no lead was imported.',
    'es-ES': 'La importación falló; no se importó ningún lead.',
  },
  interrupted: {
    'pt-BR': 'A importação foi interrompida várias vezes; nenhum lead foi importado.',
    'en-US': 'The import was interrupted several times; no lead was imported.',
    'es-ES': 'La importación se interrumpió varias veces; no se importó ningún lead.',
  },
  errorHeader: {
    'pt-BR': 'linha;campo;mensagem',
    'en-US': 'line;field;message',
    'es-ES': 'línea;campo;mensaje',
  },
} as const
