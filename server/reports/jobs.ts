import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import * as v from 'valibot'
import { and, eq, sql } from 'drizzle-orm'
import type { ReportId } from '../../contract/api/reports.ts'
import { REPORT_IDS, ReportFilters, reportText } from '../../contract/api/reports.ts'
import type { Db } from '../db/client.ts'
import { reportJobs } from '../db/schema/index.ts'
import { CSV_BOM } from './csv.ts'
import { countRows, reportCsv, resolveReport } from './engine.ts'
import { startJobLoop } from '../jobs/job-loop.ts'
import { BACKUP_KINDS } from '../../contract/api/backups.ts'
import type { BackupKind } from '../../contract/api/backups.ts'
import { recordingsDir } from '../telephony/control/routes.ts'
import { buildBackup } from './backup.ts'
import type { JobLoop } from '../jobs/job-loop.ts'

// The processing queue's runner, the lead imports' durable pattern (server/crm/lead-import/runner.ts): every instance
// takes queued jobs one at a time, claiming each with one UPDATE … FOR UPDATE SKIP LOCKED; a running job refreshes its
// heartbeat with its progress after each batch, and one whose heartbeat is older than STALE_MS lost its process (a
// crash, a restart) and is simply taken again from the start (the partial file is rewritten), at most MAX_ATTEMPTS
// times, then failed. The CSV is written to `<name>.part` and renamed when complete: a download never sees half a file.

const STALE_MS = 60_000
const MAX_ATTEMPTS = 3

export function reportsDir(dataDir: string): string {
  return path.join(dataDir, 'reports')
}

export function newReportFileName(ext: 'csv' | 'tar.gz' = 'csv'): string {
  return `${randomBytes(16).toString('hex')}.${ext}`
}

/** The stored file of a job: only names the runner made (32 hex digits) map to a path. */
export function reportFile(dataDir: string, storedName: string): string {
  if (!/^[0-9a-f]{32}\.(csv|tar\.gz)$/.test(storedName)) throw new Error('bad stored name')
  return path.join(reportsDir(dataDir), storedName)
}

/** report_jobs.report of a backup: `backup:<kind>`. */
export const backupReport = (kind: BackupKind) => `backup:${kind}`
export function backupKindOf(report: string): BackupKind | undefined {
  const kind = report.startsWith('backup:') ? report.slice('backup:'.length) : ''
  return (BACKUP_KINDS as readonly string[]).includes(kind) ? (kind as BackupKind) : undefined
}

type Claimed = { id: number; site_id: number; report: string; filters: Record<string, string>; lang: string; stored_name: string; attempts: number }

export type ReportJobRunner = { wake(): void; stop(): Promise<void>; idle(): Promise<void> }

export function startReportJobRunner(
  db: Db,
  dataDir: string,
  log: { error(o: unknown, m?: string): void },
  options: { staleMs?: number; heartbeatMs?: number } = {},
): ReportJobRunner {
  const staleMs = options.staleMs ?? STALE_MS

  async function claim(): Promise<Claimed | undefined> {
    const result = await db.execute(sql`
      UPDATE report_jobs SET status = 'running', heartbeat_at = now(), attempts = attempts + 1, rows_written = 0
      WHERE id = (SELECT id FROM report_jobs
        WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < now() - make_interval(secs => ${staleMs / 1000}))
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, site_id, report, filters, lang, stored_name, attempts`)
    return (result as unknown as { rows: Claimed[] }).rows[0]
  }

  /** False when the job is no longer there (deleted while it ran). */
  async function finish(id: number, values: Partial<typeof reportJobs.$inferInsert>): Promise<boolean> {
    const updated = await db
      .update(reportJobs)
      .set({ ...values, finishedAt: new Date(), heartbeatAt: null })
      .where(and(eq(reportJobs.id, id), eq(reportJobs.status, 'running')))
      .returning({ id: reportJobs.id })
    return updated.length > 0
  }

  async function work(job: Claimed, loop: JobLoop) {
    const file = reportFile(dataDir, job.stored_name)
    const partial = `${file}.part`
    if (job.attempts > MAX_ATTEMPTS) {
      await finish(job.id, { status: 'failed', error: { text: reportText('jobInterrupted', job.lang) } })
      await rm(partial, { force: true })
      return
    }
    try {
      const backup = backupKindOf(job.report)
      if (backup) {
        // A backup (server/reports/backup.ts): the period's archive, progress as rows written over rows to write.
        const period = v.parse(ReportFilters, job.filters)
        await mkdir(reportsDir(dataDir), { recursive: true })
        const checksum = await buildBackup(
          db,
          { kind: backup, siteId: job.site_id, lang: job.lang, period, recordingsDir: recordingsDir(dataDir) },
          partial,
          async (written, total) => {
            await db.update(reportJobs).set({ rowsWritten: written, totalRows: total, heartbeatAt: new Date() }).where(eq(reportJobs.id, job.id))
          },
          loop.signal,
        )
        if (loop.stopped) return
        await rename(partial, file)
        const size = (await stat(file)).size
        const kept = await finish(job.id, { status: 'done', size, checksum })
        if (!kept) await rm(file, { force: true })
        return
      }
      if (!(REPORT_IDS as readonly string[]).includes(job.report)) throw new Error(`unknown report ${job.report}`)
      const filters = v.parse(ReportFilters, job.filters)
      const report = await resolveReport(db, job.site_id, job.report as ReportId, filters, job.lang)
      const total = await countRows(db, report)
      await db.update(reportJobs).set({ totalRows: total, heartbeatAt: new Date() }).where(eq(reportJobs.id, job.id))
      await mkdir(reportsDir(dataDir), { recursive: true })
      async function* body() {
        yield CSV_BOM
        yield* reportCsv(db, report, job.lang, {
          signal: loop.signal,
          onBatch: async (written) => {
            await db.update(reportJobs).set({ rowsWritten: written, heartbeatAt: new Date() }).where(eq(reportJobs.id, job.id))
          },
        })
      }
      await pipeline(Readable.from(body()), createWriteStream(partial))
      if (loop.stopped) return
      await rename(partial, file)
      const size = (await stat(file)).size
      const [row] = await db.select({ rowsWritten: reportJobs.rowsWritten }).from(reportJobs).where(eq(reportJobs.id, job.id))
      const kept = await finish(job.id, { status: 'done', size, rowsWritten: row?.rowsWritten ?? 0, totalRows: Math.max(total, row?.rowsWritten ?? 0) })
      if (!kept) await rm(file, { force: true })
    } catch (error) {
      if (loop.stopped) return // shutting down: the next start takes it again
      log.error({ err: error, reportJobId: job.id }, 'report export failed')
      await finish(job.id, { status: 'failed', error: { text: reportText('jobFailed', job.lang) } }).catch(() => {})
      await rm(partial, { force: true })
    }
  }

  const jobs = startJobLoop({ claim, work, log, what: 'report job' })
  return { wake: jobs.wake, idle: jobs.idle, stop: jobs.stop }
}
