import { rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { and, desc, eq, notLike, sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ReportFilterChoices, ReportId, ReportJob, ReportSummary } from '../../../contract/api/reports.ts'
import {
  REPORT_DIRECT_CSV_MAX_ROWS,
  REPORT_PATHS,
  ReportCsvQuery,
  ReportFilters,
  ReportJobCreate,
  ReportJobParams,
  ReportPageQuery,
  ReportParams,
  reportText,
} from '../../../contract/api/reports.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { reportJobs } from '../../db/schema/index.ts'
import { HttpError, detailError } from '../../http/errors.ts'
import { isFile, sendStoredFile } from '../../http/files.ts'
import { parseInput } from '../../http/validate.ts'
import { CSV_BOM } from '../../reports/csv.ts'
import { countRows, reportCsv, reportList, reportPage, reportSummary, resolveReport } from '../../reports/engine.ts'
import { startHourRefresher } from '../../reports/hours.ts'
import { backupKindOf, backupReport, newReportFileName, reportFile, startReportJobRunner } from '../../reports/jobs.ts'
import { BACKUP_KINDS, BACKUP_PATHS, BackupCreate, BackupParams } from '../../../contract/api/backups.ts'
import type { BackupJob } from '../../../contract/api/backups.ts'
import type { ReportJobRunner } from '../../reports/jobs.ts'

// The report pages and the processing queue (contract/api/reports.ts, server/reports/README.md). Everything needs
// sites.view_reports and reads only the signed-in user's site; a job is its requester's.

declare module 'fastify' {
  interface FastifyInstance {
    reportJobs: ReportJobRunner
  }
}

const HISTORY = 50
type JobRow = typeof reportJobs.$inferSelect

function serializeJob(row: JobRow, lang: string): ReportJob {
  const progress = row.status === 'done' ? 1 : row.totalRows > 0 ? Math.min(1, row.rowsWritten / row.totalRows) : 0
  return {
    id: row.id,
    report: row.report as ReportId,
    title: reportSummary(row.report as ReportId, lang).title,
    filters: row.filters,
    status: row.status,
    total_rows: row.totalRows,
    rows_written: row.rowsWritten,
    progress,
    error: row.error?.text ?? null,
    file_name: row.fileName,
    size: row.size,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    user: row.userId,
  }
}

function serializeBackup(row: JobRow): BackupJob {
  const progress = row.status === 'done' ? 1 : row.totalRows > 0 ? Math.min(1, row.rowsWritten / row.totalRows) : 0
  return {
    id: row.id,
    kind: backupKindOf(row.report)!,
    date_from: row.filters.date_from ?? '',
    date_to: row.filters.date_to ?? '',
    tz: row.filters.tz ?? 'UTC',
    status: row.status,
    total_rows: row.totalRows,
    rows_written: row.rowsWritten,
    progress,
    error: row.error?.text ?? null,
    file_name: row.fileName,
    size: row.size,
    sha256: row.checksum,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  }
}

/** The query string's filters as strings (what a job stores and parses again when it runs). */
function filterStrings(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of Object.keys(ReportFilters.entries)) {
    const value = query[key]
    if (typeof value === 'string' && value !== '') out[key] = value
  }
  return out
}

const downloadName = (id: string, from: string, to: string) => `${id}_${from}_${to}.csv`.replace(/[^\w.-]/g, '_')

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps
  const dataDir = app.deps.config.dataDir
  const reports = { config: { permission: PERMISSIONS.viewReports } } as const
  const runner = startReportJobRunner(db, dataDir, app.log)
  app.decorate('reportJobs', runner)
  app.addHook('onClose', () => runner.stop())
  // The pre-aggregated call hours (server/reports/hours.ts): the dirty ones recomputed every minute.
  const hours = startHourRefresher(db, app.log)
  app.addHook('onClose', () => hours.stop())

  app.get(REPORT_PATHS.pages, reports, async (request): Promise<{ count: number; results: ReportSummary[] }> => {
    const results = reportList(request.lang)
    return { count: results.length, results }
  })

  app.get(REPORT_PATHS.filters, reports, async (request): Promise<ReportFilterChoices> => {
    const siteId = request.auth!.user.siteId
    const list = async (query: SQL) =>
      ((await db.execute(query)) as unknown as { rows: { id: number; description: string }[] }).rows.map((r) => ({
        id: Number(r.id),
        description: String(r.description ?? ''),
      }))
    return {
      team: await list(sql`select id, name as description from teams where site_id = ${siteId} order by lower(name), id`),
      agent: await list(
        sql`select id, coalesce(nullif(trim(first_name || ' ' || last_name), ''), username) as description from users where site_id = ${siteId} order by 2, id`,
      ),
      queue: await list(sql`select id, description from pabx_queues where site_id = ${siteId} order by lower(description), id`),
      chat_queue: await list(sql`select id, description from chat_queues where site_id = ${siteId} order by lower(description), id`),
      campaign: await list(sql`select id, description from service_shipments_campaigns where site_id = ${siteId} order by lower(description), id`),
      classification: await list(sql`select id, description from service_classifications where site_id = ${siteId} order by lower(description), id`),
    }
  })

  app.get(REPORT_PATHS.page, reports, async (request) => {
    const { id } = parseInput(ReportParams, request.params, request.lang)
    const query = parseInput(ReportPageQuery, request.query, request.lang)
    const report = await resolveReport(db, request.auth!.user.siteId, id, query, request.lang)
    return reportPage(db, report, request.lang, { offset: query.offset ?? 0, limit: query.limit ?? 25 })
  })

  // The CSV, streamed as it is read (keyset batches); over REPORT_DIRECT_CSV_MAX_ROWS rows it answers 409 with the
  // count, and the client queues it in the processing queue instead.
  app.get(REPORT_PATHS.csv, reports, async (request, reply) => {
    const { id } = parseInput(ReportParams, request.params, request.lang)
    const query = parseInput(ReportCsvQuery, request.query, request.lang)
    const lang = query.lang ?? request.lang
    const report = await resolveReport(db, request.auth!.user.siteId, id, query, lang)
    const count = await countRows(db, report, REPORT_DIRECT_CSV_MAX_ROWS)
    if (count > REPORT_DIRECT_CSV_MAX_ROWS) {
      throw new HttpError(409, {
        detail: reportText('tooLarge', request.lang, { count: `${REPORT_DIRECT_CSV_MAX_ROWS}+`, limit: REPORT_DIRECT_CSV_MAX_ROWS }),
        code: 'report_too_large',
        count,
        limit: REPORT_DIRECT_CSV_MAX_ROWS,
      } as never)
    }
    async function* body() {
      yield CSV_BOM
      yield* reportCsv(db, report, lang)
    }
    const stream = Readable.from(body())
    request.raw.on('close', () => stream.destroy())
    reply
      .type('text/csv; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${downloadName(id, report.dateFrom, report.dateTo)}"`)
    return reply.send(stream)
  })

  // The processing queue: the requester's export jobs.
  const ownJob = async (request: FastifyRequest): Promise<JobRow> => {
    const { id } = parseInput(ReportJobParams, request.params, request.lang)
    const me = request.auth!.user
    const [row] = await db
      .select()
      .from(reportJobs)
      .where(and(eq(reportJobs.id, id), eq(reportJobs.siteId, me.siteId), eq(reportJobs.userId, me.id), notLike(reportJobs.report, 'backup:%')))
    if (!row) throw detailError(404, 'notFound', request.lang)
    return row
  }

  app.get(REPORT_PATHS.jobs, reports, async (request): Promise<{ count: number; results: ReportJob[] }> => {
    const me = request.auth!.user
    const rows = await db
      .select()
      .from(reportJobs)
      .where(and(eq(reportJobs.siteId, me.siteId), eq(reportJobs.userId, me.id), notLike(reportJobs.report, 'backup:%')))
      .orderBy(desc(reportJobs.id))
      .limit(HISTORY)
    return { count: rows.length, results: rows.map((row) => serializeJob(row, request.lang)) }
  })

  app.post(REPORT_PATHS.jobs, reports, async (request, reply): Promise<ReportJob> => {
    const input = parseInput(ReportJobCreate, request.body ?? {}, request.lang)
    // The filters are checked now (400 here rather than a failed job later), and stored as given.
    const filters = filterStrings(input.filters)
    const parsed = parseInput(ReportFilters, filters, request.lang)
    const me = request.auth!.user
    const report = await resolveReport(db, me.siteId, input.report, parsed, request.lang)
    const [row] = await db
      .insert(reportJobs)
      .values({
        siteId: me.siteId,
        userId: me.id,
        report: input.report,
        filters,
        lang: request.lang,
        storedName: newReportFileName(),
        fileName: downloadName(input.report, report.dateFrom, report.dateTo),
      })
      .returning()
    runner.wake()
    reply.code(201)
    return serializeJob(row!, request.lang)
  })

  app.get(REPORT_PATHS.job, reports, async (request): Promise<ReportJob> => serializeJob(await ownJob(request), request.lang))

  app.get(REPORT_PATHS.jobDownload, reports, async (request, reply) => {
    const row = await ownJob(request)
    const file = reportFile(dataDir, row.storedName)
    if (row.status !== 'done' || !(await isFile(file))) throw detailError(404, 'notFound', request.lang)
    return sendStoredFile(reply, file, { type: 'text/csv; charset=utf-8', filename: row.fileName })
  })

  // Backups (contract/api/backups.ts): the requester's archives of a period, built by the same runner.
  for (const kind of BACKUP_KINDS) {
    const paths = BACKUP_PATHS[kind]
    const guard = { config: { permission: kind === 'reports' ? PERMISSIONS.viewReports : PERMISSIONS.downloadChatConversation } } as const
    const ownBackup = async (request: FastifyRequest): Promise<JobRow> => {
      const { id } = parseInput(BackupParams, request.params, request.lang)
      const me = request.auth!.user
      const [row] = await db
        .select()
        .from(reportJobs)
        .where(and(eq(reportJobs.id, id), eq(reportJobs.siteId, me.siteId), eq(reportJobs.userId, me.id), eq(reportJobs.report, backupReport(kind))))
      if (!row) throw detailError(404, 'notFound', request.lang)
      return row
    }
    app.get(paths.list, guard, async (request): Promise<{ count: number; results: BackupJob[] }> => {
      const me = request.auth!.user
      const rows = await db
        .select()
        .from(reportJobs)
        .where(and(eq(reportJobs.siteId, me.siteId), eq(reportJobs.userId, me.id), eq(reportJobs.report, backupReport(kind))))
        .orderBy(desc(reportJobs.id))
        .limit(HISTORY)
      return { count: rows.length, results: rows.map(serializeBackup) }
    })
    app.post(paths.list, guard, async (request, reply): Promise<BackupJob> => {
      const input = parseInput(BackupCreate, request.body ?? {}, request.lang)
      const me = request.auth!.user
      // The period is checked now (400 here rather than a failed job later): the chats report takes the same one.
      const report = await resolveReport(db, me.siteId, 'chats', input, request.lang)
      const filters = { date_from: report.dateFrom, date_to: report.dateTo, tz: input.tz }
      const [row] = await db
        .insert(reportJobs)
        .values({
          siteId: me.siteId,
          userId: me.id,
          report: backupReport(kind),
          filters,
          lang: request.lang,
          storedName: newReportFileName('tar.gz'),
          fileName: `backup-${kind}_${report.dateFrom}_${report.dateTo}.tar.gz`,
        })
        .returning()
      runner.wake()
      reply.code(201)
      return serializeBackup(row!)
    })
    app.get(paths.one, guard, async (request): Promise<BackupJob> => serializeBackup(await ownBackup(request)))
    app.get(paths.download, guard, async (request, reply) => {
      const row = await ownBackup(request)
      const file = reportFile(dataDir, row.storedName)
      if (row.status !== 'done' || !(await isFile(file))) throw detailError(404, 'notFound', request.lang)
      reply.header('X-Checksum-SHA256', row.checksum)
      return sendStoredFile(reply, file, { type: 'application/gzip', filename: row.fileName })
    })
    app.delete(paths.one, guard, async (request, reply) => {
      const row = await ownBackup(request)
      await db.delete(reportJobs).where(eq(reportJobs.id, row.id))
      const file = reportFile(dataDir, row.storedName)
      await rm(file, { force: true })
      await rm(`${file}.part`, { force: true })
      reply.code(204)
      return reply.send()
    })
  }

  app.delete(REPORT_PATHS.job, reports, async (request, reply) => {
    const row = await ownJob(request)
    await db.delete(reportJobs).where(eq(reportJobs.id, row.id))
    const file = reportFile(dataDir, row.storedName)
    await rm(file, { force: true })
    await rm(`${file}.part`, { force: true })
    reply.code(204)
    return reply.send()
  })
}
