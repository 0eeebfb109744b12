import { queryOptions } from '@tanstack/react-query'
import type { ReportFilterChoices, ReportId, ReportJob, ReportPage, ReportSummary } from '../../../contract/api/reports.ts'
import { REPORT_PATHS } from '../../../contract/api/reports.ts'
import { api, buildUrl } from '../../api/client.ts'
import type { Query } from '../../api/client.ts'

// The report pages' requests (contract/api/reports.ts): the list, one page of a report with its filters, the filter
// bar's choices, the CSV link (a plain link: the browser downloads it with the session cookie) and the processing queue.

export type ReportFilterValues = {
  date_from: string
  date_to: string
  team: string
  agent: string
  queue: string
  campaign: string
  classification: string
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** The query string of a report: the filters that are set, and the browser's time zone. */
export function reportQuery(filters: ReportFilterValues): Record<string, string> {
  const out: Record<string, string> = { tz: browserTimeZone() }
  for (const [key, value] of Object.entries(filters)) if (value) out[key] = value
  return out
}

const withId = (path: string, id: string | number) => path.replace(':id', encodeURIComponent(String(id)))

export const reportListQuery = (locale: string) =>
  queryOptions({
    queryKey: ['reports', 'list', locale] as const,
    queryFn: ({ signal }) => api.get<{ count: number; results: ReportSummary[] }>(REPORT_PATHS.pages, undefined, { signal }),
    staleTime: 5 * 60_000,
  })

export const reportChoicesQuery = () =>
  queryOptions({
    queryKey: ['reports', 'choices'] as const,
    queryFn: ({ signal }) => api.get<ReportFilterChoices>(REPORT_PATHS.filters, undefined, { signal }),
    staleTime: 60_000,
  })

export function reportPageQuery(id: ReportId, filters: ReportFilterValues, page: number, pageSize: number, locale: string) {
  const query: Query = { ...reportQuery(filters), offset: page * pageSize, limit: pageSize }
  return queryOptions({
    queryKey: ['reports', 'page', id, query, locale] as const,
    queryFn: ({ signal }) => api.get<ReportPage>(withId(REPORT_PATHS.page, id), query, { signal }),
    placeholderData: (previous) => (previous?.id === id ? previous : undefined),
  })
}

export function reportCsvUrl(id: ReportId, filters: ReportFilterValues, lang: string): string {
  return buildUrl(withId(REPORT_PATHS.csv, id), { ...reportQuery(filters), lang })
}

export const reportJobsQuery = () =>
  queryOptions({
    queryKey: ['reports', 'jobs'] as const,
    queryFn: ({ signal }) => api.get<{ count: number; results: ReportJob[] }>(REPORT_PATHS.jobs, undefined, { signal }),
    // While an export is queued or running, its progress is read every two seconds.
    refetchInterval: (query) => (query.state.data?.results.some((job) => job.status === 'queued' || job.status === 'running') ? 2_000 : false),
  })

export const createReportJob = (report: ReportId, filters: ReportFilterValues) =>
  api.post<ReportJob>(REPORT_PATHS.jobs, { report, filters: reportQuery(filters) })

export const deleteReportJob = (id: number) => api.delete<void>(withId(REPORT_PATHS.job, id))

export const reportJobDownloadUrl = (id: number) => buildUrl(withId(REPORT_PATHS.jobDownload, id))
