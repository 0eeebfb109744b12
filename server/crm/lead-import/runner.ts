import { rm } from 'node:fs/promises'
import { and, eq, sql } from 'drizzle-orm'
import { LEAD_IMPORT_MESSAGES } from '../../../contract/api/lead-import.ts'
import type { Db } from '../../db/client.ts'
import { crmLeadImports } from '../../db/schema/index.ts'
import type { Layout } from './rows.ts'
import { ImportFailure, runImport } from './run.ts'
import { uploadFile } from './store.ts'
import { startJobLoop } from '../../jobs/job-loop.ts'
import type { JobLoop } from '../../jobs/job-loop.ts'

// The durable side of lead imports: every instance takes queued imports one at a time, claiming each with one UPDATE
// (FOR UPDATE SKIP LOCKED, so two instances never take the same); a running import refreshes its heartbeat with its
// progress, and one whose heartbeat is older than STALE_MS lost its process (a crash, a restart): its transaction
// died with it, so it is simply taken again from the start, at most MAX_ATTEMPTS times, then failed.

const STALE_MS = 60_000
const MAX_ATTEMPTS = 3

type Claimed = {
  id: number
  site_id: number
  mailing_id: number
  stored_name: string
  lang: string
  layout: Layout
  attempts: number
}

export type ImportRunner = { wake(): void; stop(): Promise<void>; idle(): Promise<void> }

export function startImportRunner(db: Db, dataDir: string, log: { error(o: unknown, m?: string): void }, options: { staleMs?: number } = {}): ImportRunner {
  const staleMs = options.staleMs ?? STALE_MS

  async function claim(): Promise<Claimed | undefined> {
    const result = await db.execute(sql`
      UPDATE crm_lead_imports SET status = 'running', heartbeat_at = now(), attempts = attempts + 1,
        read_bytes = 0, rows_read = 0, rows_failed = 0
      WHERE id = (SELECT id FROM crm_lead_imports
        WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < now() - make_interval(secs => ${staleMs / 1000}))
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, site_id, mailing_id, stored_name, lang, layout, attempts`)
    const rows = (result as unknown as { rows: Claimed[] }).rows
    return rows[0]
  }

  async function finish(id: number, values: Partial<typeof crmLeadImports.$inferInsert>) {
    await db
      .update(crmLeadImports)
      .set({ ...values, finishedAt: new Date(), heartbeatAt: null })
      .where(and(eq(crmLeadImports.id, id), eq(crmLeadImports.status, 'running')))
  }

  async function work(job: Claimed, loop: JobLoop) {
    const lang = job.lang
    if (job.attempts > MAX_ATTEMPTS) {
      await finish(job.id, { status: 'failed', error: { text: LEAD_IMPORT_MESSAGES.interrupted[lang as 'pt-BR'] ?? LEAD_IMPORT_MESSAGES.interrupted['pt-BR'] } })
      return
    }
    try {
      const counts = await runImport(
        db,
        dataDir,
        { id: job.id, siteId: job.site_id, mailingId: job.mailing_id, storedName: job.stored_name, lang, layout: job.layout },
        { signal: loop.signal },
      )
      await finish(job.id, { status: 'done', ...counts })
      await rm(uploadFile(dataDir, job.stored_name), { force: true })
    } catch (error) {
      if (loop.stopped) return // shutting down: another start takes it again
      const text = error instanceof ImportFailure ? error.text : (LEAD_IMPORT_MESSAGES.failed[lang as 'pt-BR'] ?? LEAD_IMPORT_MESSAGES.failed['pt-BR'])
      if (!(error instanceof ImportFailure)) log.error({ err: error, importId: job.id }, 'lead import failed')
      await finish(job.id, { status: 'failed', error: { text: text }, rowsImported: 0 }).catch(() => {})
      await rm(uploadFile(dataDir, job.stored_name), { force: true })
    }
  }

  const jobs = startJobLoop({ claim, work, log, what: 'lead import' })
  return { wake: jobs.wake, idle: jobs.idle, stop: jobs.stop }
}
