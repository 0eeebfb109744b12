import { useState } from 'react'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import LinearProgress from '@mui/joy/LinearProgress'
import Link from '@mui/joy/Link'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Typography from '@mui/joy/Typography'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { LeadImport } from '../../../contract/api/lead-import.ts'
import { LEAD_IMPORT_PATHS, LEAD_IMPORT_POLL_MS } from '../../../contract/api/lead-import.ts'
import { leadLayouts } from '../../../contract/entities/shipments.ts'
import { leads, mailings } from '../../../contract/entities/crm-records.ts'
import { api, API_BASE } from '../../api/client.ts'
import { UploadIcon } from '../../components/icons/icons.tsx'
import { clientPath, entityQueryKey } from '../../entities/api.ts'
import type { ListResponse } from '../../entities/api.ts'

// CSV import of leads into a mailing by a saved layout (server/crm/lead-import/): the file is uploaded, then the
// import runs on the server as a job and this dialog polls its progress every LEAD_IMPORT_POLL_MS. Polling, not the
// service socket: the job's row is the truth on whichever instance runs it, a poll survives a reconnect or a reload
// with nothing to replay, and one admin asking twice a second costs one indexed read.

type Choice = { id: number; description: string }

const detailPath = (id: number) => LEAD_IMPORT_PATHS.detail.replace(':id', String(id))

export function LeadImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [mailing, setMailing] = useState<number | null>(null)
  const [layout, setLayout] = useState<number | null>(null)
  const [file, setFile] = useState<File>()
  const [jobId, setJobId] = useState<number>()
  const choices = (path: string) => () => api.get<ListResponse<Choice>>(clientPath(path), { limit: 100, ordering: 'description' }).then((r) => r.results)
  const mailingList = useQuery({ queryKey: ['lead-import', 'mailings'], queryFn: choices(mailings.api) })
  const layoutList = useQuery({ queryKey: ['lead-import', 'layouts'], queryFn: choices(leadLayouts.api) })
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData()
      form.append('mailing', String(mailing))
      form.append('layout', String(layout))
      form.append('file', file!, file!.name)
      return api.post<LeadImport>(LEAD_IMPORT_PATHS.list, form)
    },
    onSuccess: (job) => setJobId(job.id),
  })
  const job = useQuery({
    queryKey: ['lead-import', jobId],
    queryFn: () => api.get<LeadImport>(detailPath(jobId!)),
    enabled: jobId !== undefined,
    refetchInterval: (query) => {
      const status = query.state.data?.status
      if (status === 'done' || status === 'failed') {
        void queryClient.invalidateQueries({ queryKey: entityQueryKey(leads) })
        return false
      }
      return LEAD_IMPORT_POLL_MS
    },
  })
  const state = job.data
  const percent = Math.round((state?.progress ?? 0) * 100)
  const running = jobId !== undefined && state?.status !== 'done' && state?.status !== 'failed'
  const uploadError = upload.error ? (upload.error as Error).message : undefined

  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(560px, 95vw)' }} data-testid="lead-import-dialog">
        <ModalClose />
        <DialogTitle>{t`Importar leads`}</DialogTitle>
        <DialogContent sx={{ gap: 2 }}>
          <FormControl required>
            <FormLabel>{t`Mailing`}</FormLabel>
            <Select value={mailing} onChange={(_, value) => setMailing(value)} disabled={jobId !== undefined} data-testid="lead-import-mailing">
              {(mailingList.data ?? []).map((m) => (
                <Option key={m.id} value={m.id}>
                  {m.description}
                </Option>
              ))}
            </Select>
          </FormControl>
          <FormControl required>
            <FormLabel>{t`Layout de importação`}</FormLabel>
            <Select value={layout} onChange={(_, value) => setLayout(value)} disabled={jobId !== undefined} data-testid="lead-import-layout">
              {(layoutList.data ?? []).map((l) => (
                <Option key={l.id} value={l.id}>
                  {l.description}
                </Option>
              ))}
            </Select>
          </FormControl>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" color="neutral" startDecorator={<UploadIcon />} disabled={jobId !== undefined}>
              {file ? t`Trocar arquivo` : t`Escolher arquivo CSV`}
              <input
                type="file"
                accept=".csv,text/csv"
                data-testid="lead-import-file"
                style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
                onChange={(e) => {
                  const chosen = e.target.files?.[0]
                  if (chosen) setFile(chosen)
                  e.target.value = ''
                }}
              />
            </Button>
            {file && <Typography level="body-sm">{file.name}</Typography>}
          </Box>
          {uploadError && (
            <Alert color="danger" variant="soft">
              {uploadError}
            </Alert>
          )}
          {jobId !== undefined && (
            <Box data-testid="lead-import-progress" data-status={state?.status ?? 'queued'}>
              <LinearProgress determinate value={percent} sx={{ my: 1 }} aria-label={t`Progresso da importação`} />
              <Typography level="body-sm">
                {running ? t`Importando… ${percent}% (${state?.rows_read ?? 0} linhas lidas)` : state?.status === 'done' ? t`Importação concluída` : t`Importação falhou`}
              </Typography>
            </Box>
          )}
          {state?.status === 'done' && (
            <Alert color={state.rows_failed ? 'warning' : 'success'} variant="soft" data-testid="lead-import-result">
              <Box>
                <Typography>{t`${state.rows_imported} leads importados; ${state.rows_failed} linhas com erro.`}</Typography>
                {state.rows_failed > 0 && (
                  <Link href={`${API_BASE}${LEAD_IMPORT_PATHS.errors.replace(':id', String(state.id))}`} download data-testid="lead-import-errors">
                    {t`Baixar linhas com erro (CSV)`}
                  </Link>
                )}
              </Box>
            </Alert>
          )}
          {state?.status === 'failed' && (
            <Alert color="danger" variant="soft" data-testid="lead-import-failure">
              {state.error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          {jobId === undefined ? (
            <Button onClick={() => upload.mutate()} loading={upload.isPending} disabled={!file || mailing === null || layout === null} data-testid="lead-import-start">
              {t`Importar`}
            </Button>
          ) : (
            <Button onClick={onClose} disabled={running} data-testid="lead-import-close">
              {t`Fechar`}
            </Button>
          )}
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
