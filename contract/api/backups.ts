import * as v from 'valibot'
import { message } from '../messages.ts'
import { ReportFilters } from './reports.ts'
import type { ReportJobStatus } from './reports.ts'

// Backups (spec 000 §2 /reports/backup and /chats-backup): a period's data as one .tar.gz archive, built by the
// processing queue's durable runner (server/reports/backup.ts), with progress, a download and its SHA-256.
// - reports: every report of the period as CSV (calls, call steps, chats, pauses, after-service, agent status, NPS,
//   …: one file per report, as its CSV download writes it), sites.view_reports;
// - chats: the chats that started in the period — rooms.csv (one row per chat) and messages.jsonl (one JSON object
//   per message, attachments by link) —, download_chat_conversation.
// Each archive also holds SHA256SUMS (one line per file). Paths relative to /api.

export const BACKUP_KINDS = ['reports', 'chats'] as const
export type BackupKind = (typeof BACKUP_KINDS)[number]

export const BACKUP_PATHS = {
  reports: { list: '/v1/report/backups/', one: '/v1/report/backups/:id/', download: '/v1/report/backups/:id/download/' },
  chats: { list: '/v1/chat/backups/', one: '/v1/chat/backups/:id/', download: '/v1/chat/backups/:id/download/' },
} as const satisfies Record<BackupKind, { list: string; one: string; download: string }>

const invalid = (issue: v.BaseIssue<unknown>) => message('invalidValue', issue.lang)

/** POST: the period (days in `tz`, both included; today by default). */
export const BackupCreate = v.object({
  date_from: ReportFilters.entries.date_from,
  date_to: ReportFilters.entries.date_to,
  tz: ReportFilters.entries.tz,
})
export type BackupCreate = v.InferOutput<typeof BackupCreate>

export const BackupParams = v.object({ id: v.pipe(v.string(invalid), v.regex(/^[1-9]\d{0,14}$/, invalid), v.transform(Number)) })

export type BackupJob = {
  id: number
  kind: BackupKind
  date_from: string
  date_to: string
  tz: string
  status: ReportJobStatus
  /** Rows written so far over the rows to write (counted when the job starts); progress 0..1. */
  total_rows: number
  rows_written: number
  progress: number
  error: string | null
  file_name: string
  size: number
  /** The archive's SHA-256 (hex), once done. */
  sha256: string
  created_at: string
  finished_at: string | null
}
