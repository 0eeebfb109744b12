import { rm } from 'node:fs/promises'
import { and, eq, sql } from 'drizzle-orm'
import { LEAD_IMPORT_MESSAGES } from '../../../contract/api/lead-import.ts'
import type { Db } from '../../db/client.ts'
import { crmLeadImports } from '../../db/schema/index.ts'
import type { Layout } from './rows.ts'
import { ImportFailure, runImport } from './run.ts'
import { uploadFile } from './store.ts'

// The durable side of lead imports: every instance takes queued imports one at a time, claiming each with one UPDATE
// (FOR UPDATE SKIP LOCKED, so two instances never take the same); a running import refreshes its heartbeat with its
// progress, and one whose heartbeat is older than STALE_MS lost its process (a crash, a restart): its transaction
// died with it, so it is simply taken again from the start, at most MAX_ATTEMPTS times, then failed.

const STALE_MS = 60_000
const IDLE_POLL_MS = 5_000
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
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  let again = false
  let busy = false
  const abort = new AbortController()

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

  async function work(job: Claimed) {
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
        { signal: abort.signal },
      )
      await finish(job.id, { status: 'done', ...counts })
      await rm(uploadFile(dataDir, job.stored_name), { force: true })
    } catch (error) {
      if (stopped) return // shutting down: another start takes it again
      const text = error instanceof ImportFailure ? error.text : (LEAD_IMPORT_MESSAGES.failed[lang as 'pt-BR'] ?? LEAD_IMPORT_MESSAGES.failed['pt-BR'])
      if (!(error instanceof ImportFailure)) log.error({ err: error, importId: job.id }, 'lead import failed')
      await finish(job.id, { status: 'failed', error: { text: text }, rowsImported: 0 }).catch(() => {})
      await rm(uploadFile(dataDir, job.stored_name), { force: true })
    }
  }

  async function loop() {
    busy = true
    try {
      for (;;) {
        again = false
        if (stopped) return
        const job = await claim().catch((error: unknown) => {
          if (!stopped) log.error({ err: error }, 'lead import claim failed')
          return undefined
        })
        if (!job) {
          if (!again) return
          continue
        }
        await work(job)
      }
    } finally {
      busy = false
      if (!stopped) timer = setTimeout(wake, IDLE_POLL_MS)
    }
  }

  function wake() {
    if (stopped) return
    clearTimeout(timer)
    if (busy) {
      again = true
      return
    }
    running = loop()
  }

  wake()
  return {
    wake,
    async idle() {
      await running
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      abort.abort()
      await running.catch(() => {})
    },
  }
}
