import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import IconButton from '@mui/joy/IconButton'
import LinearProgress from '@mui/joy/LinearProgress'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import type { ReportJob, ReportJobStatus } from '../../../contract/api/reports.ts'
import { formatDate, formatDateTime } from '../../app/dates.ts'
import { useLocale } from '../../app/useLocale.ts'
import { DeleteIcon } from '../../components/icons/icons.tsx'
import { ButtonLink } from '../../components/links.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import type { Column } from '../../entities/list/DataTable.tsx'
import { DataTable } from '../../entities/list/DataTable.tsx'
import { DownloadIcon } from '../phonecalls/icons.tsx'
import { deleteReportJob, reportJobDownloadUrl, reportJobsQuery } from './reportsApi.ts'

// /reports/processing-queue (spec 000 §2): the user's large exports — queued, running with progress, done with a
// download, failed with why — read again every two seconds while one is in progress. They survive a restart (the
// server's runner takes an interrupted job again).

const STATUS_COLOR: Record<ReportJobStatus, 'neutral' | 'primary' | 'success' | 'danger'> = {
  queued: 'neutral',
  running: 'primary',
  done: 'success',
  failed: 'danger',
}

function size(bytes: number, locale: string): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString(locale, { maximumFractionDigits: 0 })} KB`
  return `${(bytes / (1024 * 1024)).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`
}

export function ProcessingQueuePage() {
  const { t, i18n } = useLingui()
  const { params } = useLocale()
  const queryClient = useQueryClient()
  const jobs = useQuery(reportJobsQuery())
  useErrorToast(jobs.error)
  const remove = useMutation({
    mutationFn: deleteReportJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reports', 'jobs'] }),
  })
  useErrorToast(remove.error)
  const statusLabel: Record<ReportJobStatus, string> = { queued: t`Na fila`, running: t`Gerando`, done: t`Pronto`, failed: t`Falhou` }
  const columns: Column<ReportJob>[] = [
    { key: 'created', header: t`Pedido em`, width: 160, cell: (job) => formatDateTime(job.created_at) },
    {
      key: 'report',
      header: t`Relatório`,
      cell: (job) => (
        <>
          {job.title}
          <Typography level="body-xs" textColor="text.tertiary">
            {job.filters.date_from ? formatDate(job.filters.date_from) : ''}
            {job.filters.date_to && job.filters.date_to !== job.filters.date_from ? ` → ${formatDate(job.filters.date_to)}` : ''}
          </Typography>
        </>
      ),
    },
    {
      key: 'status',
      header: t`Situação`,
      width: 260,
      cell: (job) => (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Chip size="sm" variant="soft" color={STATUS_COLOR[job.status]} data-testid="job-status">
            {statusLabel[job.status]}
          </Chip>
          {job.status === 'running' || job.status === 'queued' ? (
            <>
              <LinearProgress determinate={job.status === 'running'} value={Math.round(job.progress * 100)} aria-label={t`Progresso`} />
              <Typography level="body-xs" textColor="text.tertiary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {job.total_rows > 0 ? (
                  <Trans>
                    {job.rows_written.toLocaleString(i18n.locale)} de {job.total_rows.toLocaleString(i18n.locale)} linhas
                  </Trans>
                ) : null}
              </Typography>
            </>
          ) : null}
          {job.status === 'failed' && job.error ? (
            <Typography level="body-xs" color="danger">
              {job.error}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    {
      key: 'rows',
      header: t`Linhas`,
      align: 'right',
      width: 110,
      cell: (job) => (job.status === 'done' ? job.rows_written.toLocaleString(i18n.locale) : ''),
    },
    { key: 'size', header: t`Tamanho`, align: 'right', width: 100, cell: (job) => (job.status === 'done' ? size(job.size, i18n.locale) : '') },
    {
      key: 'actions',
      header: '',
      ariaLabel: t`Ações`,
      width: 190,
      align: 'right',
      cell: (job) => (
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          {job.status === 'done' ? (
            <Button
              size="sm"
              variant="soft"
              component="a"
              href={reportJobDownloadUrl(job.id)}
              download
              startDecorator={<DownloadIcon />}
              data-testid="job-download"
            >
              <Trans>Baixar</Trans>
            </Button>
          ) : null}
          <IconButton size="sm" variant="plain" color="danger" aria-label={t`Excluir ${job.title}`} onClick={() => remove.mutate(job.id)}>
            <DeleteIcon />
          </IconButton>
        </Box>
      ),
    },
  ]
  return (
    <>
      <PageHeader
        title={t`Fila de processamento`}
        subtitle={t`Relatórios grandes são gerados aqui; baixe-os quando estiverem prontos.`}
        actions={
          <ButtonLink to="/{-$locale}/reports/pages/{-$id}" params={{ ...params, id: undefined }} variant="plain" size="sm">
            <Trans>Relatórios</Trans>
          </ButtonLink>
        }
      />
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden' }} data-testid="processing-queue">
        <DataTable<ReportJob>
          columns={columns}
          rows={jobs.data?.results ?? []}
          rowKey={(job) => job.id}
          loading={jobs.isFetching}
          pending={jobs.isPending}
          minWidth={800}
          rowProps={() => ({ 'data-testid': 'job-row' })}
          regionLabel={t`Fila de processamento`}
        />
      </Sheet>
    </>
  )
}
