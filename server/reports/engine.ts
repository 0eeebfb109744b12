import { sql } from 'drizzle-orm'
import type { SQL } from 'drizzle-orm'
import type { ReportChart, ReportFilters, ReportId, ReportPage, ReportSummary } from '../../contract/api/reports.ts'
import { REPORT_FILTERS, REPORT_IDS, REPORT_MAX_DAYS, REPORT_TEXTS, reportText } from '../../contract/api/reports.ts'
import type { ReportTextKey } from '../../contract/api/reports.ts'
import { formatDuration } from '../../contract/format/duration.ts'
import type { Db } from '../db/client.ts'
import { fieldErrors } from '../http/errors.ts'
import { csvCell, csvSeparator } from './csv.ts'
import { DATASETS } from './datasets.ts'
import type { Dataset, DatasetContext } from './datasets.ts'
import { periodBounds, rawRanges } from './hours.ts'
import { todayIn } from './today.ts'

// Runs a dataset (datasets.ts): checks the filters against it, computes the period's bounds in PostgreSQL, and reads
// totals, the chart, one page of rows, or every row in keyset batches for CSV (no OFFSET, no cursor held open: each
// batch is one short query that continues after the last row written, so memory stays flat, the embedded engine is
// never held for the whole export, and the first bytes leave after the first batch).

type Raw = Record<string, unknown>
const rows = async (db: Db, query: SQL): Promise<Raw[]> => ((await db.execute(query)) as unknown as { rows: Raw[] }).rows

export const CSV_BATCH = 2_000

export function reportSummary(id: ReportId, lang: string): ReportSummary {
  return {
    id,
    title: reportText(`${id}.title` as ReportTextKey, lang),
    description: reportText(`${id}.description` as ReportTextKey, lang),
    filters: [...DATASETS[id].filters],
  }
}

export function reportList(lang: string): ReportSummary[] {
  return REPORT_IDS.map((id) => reportSummary(id, lang))
}

export type ResolvedReport = { dataset: Dataset; ctx: DatasetContext; dateFrom: string; dateTo: string }

/** The dataset and its context: 400 (field errors) for a filter the report does not take or a bad period. */
export async function resolveReport(
  db: Db,
  siteId: number,
  id: ReportId,
  filters: ReportFilters,
  lang: string,
  now = new Date(),
  options: { hourly?: boolean } = {},
): Promise<ResolvedReport> {
  const dataset = DATASETS[id]
  const errors: Record<string, string[]> = {}
  for (const name of REPORT_FILTERS) if (filters[name] !== undefined && !dataset.filters.includes(name)) errors[name] = [reportText('notForReport', lang)]
  const today = todayIn(filters.tz, now)
  const dateFrom = filters.date_from ?? filters.date_to ?? today
  const dateTo = filters.date_to ?? (filters.date_from ? filters.date_from : today)
  const days = (Date.parse(`${dateTo}T00:00:00Z`) - Date.parse(`${dateFrom}T00:00:00Z`)) / 86_400_000 + 1
  if (days < 1) errors.date_to = [reportText('periodOrder', lang)]
  else if (days > REPORT_MAX_DAYS) errors.date_to = [reportText('periodTooLong', lang, { n: REPORT_MAX_DAYS })]
  if (Object.keys(errors).length) throw fieldErrors(errors)
  // The bounds by PostgreSQL's time-zone rules, and whether the pre-aggregated hours can answer the period (hours.ts).
  const bounds = await periodBounds(db, dateFrom, dateTo, filters.tz)
  const hourly = (options.hourly ?? true) && bounds.wholeHours
  const ctx = { siteId, from: bounds.from, to: bounds.to, tz: filters.tz, filters, hourly }
  return { dataset, ctx, dateFrom, dateTo }
}

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString())
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/** A code of an enumerated column in the user's language (the code itself when the texts do not name it). */
function valueText(prefix: string, value: string, lang: string): string {
  const key = `${prefix}.${value}`
  return key in REPORT_TEXTS ? reportText(key as ReportTextKey, lang) : value
}

function jsonRow(dataset: Dataset, raw: Raw, lang: string): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {}
  for (const column of dataset.columns) {
    const value = raw[column.key]
    if (column.kind === 'datetime') out[column.key] = iso(value)
    else if (column.kind === 'number' || column.kind === 'duration' || column.kind === 'percent') out[column.key] = num(value)
    else if (column.kind === 'boolean') out[column.key] = value === null || value === undefined ? null : Boolean(value)
    else if (value === null || value === undefined) out[column.key] = ''
    else out[column.key] = column.values ? valueText(column.values, String(value), lang) : String(value)
  }
  return out
}

/** With the pre-aggregated hours: the hours to read raw, read now (hours.ts rawRanges). */
async function withRawRanges(db: Db, report: ResolvedReport): Promise<ResolvedReport> {
  if (!report.ctx.hourly) return report
  return { ...report, ctx: { ...report.ctx, rawRanges: await rawRanges(db, report.ctx.siteId, report.ctx.from, report.ctx.to) } }
}

const source = (report: ResolvedReport) => sql`(${report.dataset.source(report.ctx)}) x`
const orderBy = (dataset: Dataset) => (dataset.order === 'time' ? sql`x._t desc, x._k desc` : sql`x._k asc`)

/** Counts the rows, stopping at `max + 1` when given (deciding whether an export streams costs at most that). */
export async function countRows(db: Db, resolved: ResolvedReport, max?: number): Promise<number> {
  const report = await withRawRanges(db, resolved)
  const query =
    max === undefined
      ? sql`select count(*) as n from ${source(report)}`
      : // A source that can (calls) picks at most max + 1 rows before aggregating them.
        sql`select count(*) as n from (select 1 from ${source({ ...report, ctx: { ...report.ctx, batch: { limit: max + 1 } } })} limit ${max + 1}) y`
  const [row] = await rows(db, query)
  return Number(row?.n ?? 0)
}

/**
 * Totals, count and the chart's groups in one pass over the source: GROUPING SETS ((label), ()) gives a row per group
 * and the grand total row (`_all` = 1).
 */
async function summaryOf(db: Db, report: ResolvedReport, lang: string): Promise<{ totals: Raw | undefined; count: number; chart: ReportChart }> {
  const { dataset, ctx } = report
  const chart = dataset.chart
  const label = chart.by === 'day' ? sql`to_char((x._t at time zone ${ctx.tz})::date, 'YYYY-MM-DD')` : sql`coalesce(${chart.label!}, '')::text`
  const measures = sql.join(
    [
      ...dataset.totals.map((m, i) => sql`${m.sql} as ${sql.identifier(`t${i}`)}`),
      ...chart.series.map((m, i) => sql`${m.sql} as ${sql.identifier(`s${i}`)}`),
      sql`count(*) as _n`,
    ],
    sql`, `,
  )
  // From the pre-aggregated hours when the dataset can answer the filters from them (hours.ts), else the raw rows.
  const hourly = ctx.hourly ? dataset.hourlySummary?.(ctx) : undefined
  const data = await rows(
    db,
    hourly ??
      sql`select x._label as label, grouping(x._label) as _all, ${measures}
      from (select x.*, ${label} as _label from ${source(report)}) x
      group by grouping sets ((x._label), ())`,
  )
  const all = data.find((row) => Number(row._all) === 1)
  const groups = data.filter((row) => Number(row._all) === 0)
  const series = chart.series.map((m) => ({ key: m.key, label: reportText(m.key as ReportTextKey, lang), kind: m.kind, values: [] as number[] }))
  const labels: string[] = []
  if (chart.by === 'day') {
    // Every day of the period, in the user's time zone, with zeros where nothing happened.
    const byDay = new Map(groups.map((row) => [String(row.label), row]))
    for (let day = new Date(`${report.dateFrom}T00:00:00Z`); day.toISOString().slice(0, 10) <= report.dateTo; day = new Date(day.getTime() + 86_400_000)) {
      const key = day.toISOString().slice(0, 10)
      labels.push(key)
      const row = byDay.get(key)
      series.forEach((s, i) => s.values.push(Number(row?.[`s${i}`] ?? 0)))
    }
  } else {
    // The 30 largest groups by the first measure (then by name), or the first 30 by name (numbers in their order).
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en', { numeric: true })
    const top = groups
      .map((row) => ({ row, first: Number(row.s0 ?? 0), name: String(row.label ?? '') }))
      .sort(chart.order === 'label' ? byName : (a, b) => b.first - a.first || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, 30)
    for (const { row, name } of top) {
      labels.push(name)
      series.forEach((s, i) => s.values.push(Number(row[`s${i}`] ?? 0)))
    }
  }
  return { totals: all, count: Number(all?._n ?? 0), chart: { type: chart.type, by: chart.by, labels, series } }
}

export async function reportPage(db: Db, resolved: ResolvedReport, lang: string, page: { offset: number; limit: number }): Promise<ReportPage> {
  const report = await withRawRanges(db, resolved)
  const { dataset, ctx } = report
  const summary = await summaryOf(db, report, lang)
  // The page's rows: a source that can (calls) picks only the newest offset + limit before aggregating.
  const newest = { ...report, ctx: { ...ctx, batch: { limit: page.offset + page.limit } } }
  const data = await rows(db, sql`select * from ${source(newest)} order by ${orderBy(dataset)} limit ${page.limit} offset ${page.offset}`)
  return {
    ...reportSummary(dataset.id, lang),
    date_from: report.dateFrom,
    date_to: report.dateTo,
    tz: ctx.tz,
    from: ctx.from.toISOString(),
    to: ctx.to.toISOString(),
    columns: dataset.columns.map((c) => ({ key: c.key, kind: c.kind, label: reportText(c.key as ReportTextKey, lang) })),
    totals: dataset.totals.map((m, i) => ({
      key: m.key,
      kind: m.kind,
      label: reportText(m.key as ReportTextKey, lang),
      value: num(summary.totals?.[`t${i}`]),
    })),
    chart: summary.chart,
    count: summary.count,
    results: data.map((raw) => jsonRow(dataset, raw, lang)),
  }
}

/**
 * The report as CSV text, in chunks: the header line first (before any query, so the download starts at once), then
 * one chunk per keyset batch. `onBatch` is told how many rows were written so far (the processing queue's progress).
 */
export async function* reportCsv(
  db: Db,
  resolved: ResolvedReport,
  lang: string,
  options: { onBatch?: (written: number) => Promise<void> | void; signal?: AbortSignal } = {},
): AsyncGenerator<string> {
  const { dataset } = resolved
  const sep = csvSeparator(lang)
  const yes = reportText('yes', lang)
  const no = reportText('no', lang)
  yield `${dataset.columns.map((c) => csvCell(reportText(c.key as ReportTextKey, lang), sep, true)).join(sep)}\r\n`
  const report = await withRawRanges(db, resolved)
  const { ctx } = report
  // Instants written in the user's time zone by PostgreSQL (to_char), durations as hh:mm:ss.
  const selected = sql.join(
    [
      sql`x._k`,
      sql`x._t::text as _tt`,
      ...dataset.columns.map((c) =>
        c.kind === 'datetime'
          ? sql`to_char(x.${sql.identifier(c.key)} at time zone ${ctx.tz}, 'YYYY-MM-DD HH24:MI:SS') as ${sql.identifier(c.key)}`
          : sql`x.${sql.identifier(c.key)}`,
      ),
    ],
    sql`, `,
  )
  let after: { t: string; k: string } | undefined
  let written = 0
  for (;;) {
    if (options.signal?.aborted) throw new Error('aborted')
    const keyset =
      after === undefined ? sql`true` : dataset.order === 'time' ? sql`(x._t, x._k) < (${after.t}::timestamptz, ${after.k})` : sql`x._k > ${after.k}`
    const batched = { ...report, ctx: { ...ctx, batch: { after, limit: CSV_BATCH } } }
    const batch = await rows(db, sql`select ${selected} from ${source(batched)} where ${keyset} order by ${orderBy(dataset)} limit ${CSV_BATCH}`)
    if (batch.length === 0) return
    let chunk = ''
    for (const raw of batch) {
      const cells = dataset.columns.map((c) => {
        const value = raw[c.key]
        if (value === null || value === undefined) return ''
        switch (c.kind) {
          case 'duration':
            return formatDuration(value as number)
          case 'boolean':
            return value ? yes : no
          case 'number':
          case 'percent':
            return sep === ';' ? String(value).replace('.', ',') : String(value)
          case 'datetime':
            return String(value)
          default:
            return csvCell(c.values ? valueText(c.values, String(value), lang) : String(value), sep, true)
        }
      })
      chunk += `${cells.join(sep)}\r\n`
    }
    const last = batch[batch.length - 1]!
    after = { t: String(last._tt), k: String(last._k) }
    written += batch.length
    yield chunk
    await options.onBatch?.(written)
    if (batch.length < CSV_BATCH) return
  }
}
