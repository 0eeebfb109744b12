import { useState } from 'react'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import IconButton from '@mui/joy/IconButton'
import Input from '@mui/joy/Input'
import LinearProgress from '@mui/joy/LinearProgress'
import Sheet from '@mui/joy/Sheet'
import Typography from '@mui/joy/Typography'
import type { BackupJob, BackupKind } from '../../../contract/api/backups.ts'
import { BACKUP_PATHS } from '../../../contract/api/backups.ts'
import type { ReportJobStatus } from '../../../contract/api/reports.ts'
import { api, buildUrl } from '../../api/client.ts'
import { formatDate, formatDateTime } from '../../app/dates.ts'
import { DeleteIcon } from '../../components/icons/icons.tsx'
import { PageHeader } from '../../components/layout/PageHeader.tsx'
import { useErrorToast } from '../../components/toast/useErrorToast.ts'
import type { Column } from '../../entities/list/DataTable.tsx'
import { DataTable } from '../../entities/list/DataTable.tsx'
import { DownloadIcon } from '../phonecalls/icons.tsx'
import { browserTimeZone } from './reportsApi.ts'

// /reports/backup and /chats-backup (spec 000 §2): the user asks for a period's archive (every report as CSV and the calls' recordings, or the
// chats with their messages), the processing queue builds it (progress read every two seconds while it runs), then
// it downloads as .tar.gz with its SHA-256 shown to check it.

const STATUS_COLOR: Record<ReportJobStatus, 'neutral' | 'primary' | 'success' | 'danger'> = {
  queued: 'neutral',
  running: 'primary',
  done: 'success',
  failed: 'danger',
}

const withId = (path: string, id: number) => path.replace(':id', String(id))

const backupsQuery = (kind: BackupKind) =>
  queryOptions({
    queryKey: ['backups', kind] as const,
    queryFn: ({ signal }) => api.get<{ count: number; results: BackupJob[] }>(BACKUP_PATHS[kind].list, undefined, { signal }),
    refetchInterval: (query) => (query.state.data?.results.some((job) => job.status === 'queued' || job.status === 'running') ? 2_000 : false),
  })

function localDay(offset = 0): string {
  const d = new Date(Date.now() + offset * 86_400_000)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

function size(bytes: number, locale: string): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString(locale, { maximumFractionDigits: 0 })} KB`
  return `${(bytes / (1024 * 1024)).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`
}

export function BackupPage({ kind }: { kind: BackupKind }) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const [from, setFrom] = useState(() => localDay(-6))
  const [to, setTo] = useState(() => localDay(0))
  const jobs = useQuery(backupsQuery(kind))
  useErrorToast(jobs.error)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['backups', kind] })
  const create = useMutation({
    mutationFn: () => api.post<BackupJob>(BACKUP_PATHS[kind].list, { date_from: from, date_to: to, tz: browserTimeZone() }),
    onSuccess: refresh,
  })
  useErrorToast(create.error)
  const remove = useMutation({ mutationFn: (id: number) => api.delete<void>(withId(BACKUP_PATHS[kind].one, id)), onSuccess: refresh })
  useErrorToast(remove.error)
  const statusLabel: Record<ReportJobStatus, string> = { queued: t`Na fila`, running: t`Gerando`, done: t`Pronto`, failed: t`Falhou` }
  const period = (job: BackupJob) => (job.date_from === job.date_to ? formatDate(job.date_from) : `${formatDate(job.date_from)} → ${formatDate(job.date_to)}`)
  const columns: Column<BackupJob>[] = [
    { key: 'created', header: t`Pedido em`, width: 160, cell: (job) => formatDateTime(job.created_at) },
    { key: 'period', header: t`Período`, width: 200, cell: period },
    {
      key: 'status',
      header: t`Situação`,
      width: 240,
      cell: (job) => (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Chip size="sm" variant="soft" color={STATUS_COLOR[job.status]} data-testid="backup-status">
            {statusLabel[job.status]}
          </Chip>
          {job.status === 'running' || job.status === 'queued' ? (
            <LinearProgress determinate={job.status === 'running'} value={Math.round(job.progress * 100)} aria-label={t`Progresso`} />
          ) : null}
          {job.status === 'failed' && job.error ? (
            <Typography level="body-xs" color="danger">
              {job.error}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { key: 'size', header: t`Tamanho`, align: 'right', width: 100, cell: (job) => (job.status === 'done' ? size(job.size, i18n.locale) : '') },
    {
      key: 'sha256',
      header: 'SHA-256',
      cell: (job) => (
        <Typography level="body-xs" fontFamily="code" title={job.sha256} sx={{ wordBreak: 'break-all' }} data-testid="backup-sha256">
          {job.sha256}
        </Typography>
      ),
    },
    {
      key: 'actions',
      header: '',
      ariaLabel: t`Ações`,
      width: 170,
      align: 'right',
      cell: (job) => (
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          {job.status === 'done' ? (
            <Button
              size="sm"
              variant="soft"
              component="a"
              href={buildUrl(withId(BACKUP_PATHS[kind].download, job.id))}
              download
              startDecorator={<DownloadIcon />}
              data-testid="backup-download"
            >
              <Trans>Baixar</Trans>
            </Button>
          ) : null}
          <IconButton size="sm" variant="plain" color="danger" aria-label={t`Excluir o backup de ${period(job)}`} onClick={() => remove.mutate(job.id)}>
            <DeleteIcon />
          </IconButton>
        </Box>
      ),
    },
  ]
  return (
    <>
      <PageHeader
        title={kind === 'reports' ? t`Backup dos relatórios` : t`Backup dos chats`}
        subtitle={
          kind === 'reports'
            ? t`Todos os relatórios de um período, um CSV por relatório, e as gravações das chamadas, num arquivo .tar.gz gerado na fila de processamento.`
            : t`As conversas de um período (uma linha por conversa e as mensagens em JSON, anexos por link) num arquivo .tar.gz.`
        }
      />
      <Sheet
        variant="outlined"
        component="form"
        sx={{ borderRadius: 'md', p: 2, mb: 2, display: 'flex', gap: 2, alignItems: 'flex-end', flexWrap: 'wrap' }}
        onSubmit={(event: React.FormEvent) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <FormControl id="backup-from" size="sm">
          <FormLabel>
            <Trans>De</Trans>
          </FormLabel>
          <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
        </FormControl>
        <FormControl id="backup-to" size="sm">
          <FormLabel>
            <Trans>Até</Trans>
          </FormLabel>
          <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
        </FormControl>
        <Button type="submit" size="sm" loading={create.isPending} data-testid="backup-create">
          <Trans>Gerar backup</Trans>
        </Button>
      </Sheet>
      <Sheet variant="outlined" sx={{ borderRadius: 'md', overflow: 'hidden' }} data-testid="backups">
        <DataTable<BackupJob>
          columns={columns}
          rows={jobs.data?.results ?? []}
          rowKey={(job) => job.id}
          loading={jobs.isFetching}
          pending={jobs.isPending}
          minWidth={900}
          rowProps={() => ({ 'data-testid': 'backup-row' })}
          regionLabel={kind === 'reports' ? t`Backups dos relatórios` : t`Backups dos chats`}
        />
      </Sheet>
    </>
  )
}
