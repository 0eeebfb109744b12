import { useRef } from 'react'
import { Box, Button, Stack, Typography } from '@mui/joy'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import type { InteractionAttachment } from '../../../contract/api/crm.ts'
import { entityByKey } from '../../../contract/entities/index.ts'
import { toast } from '../../components/toast/toastStore.ts'
import { useEntityPermissions } from '../../entities/permissions.ts'
import { AttachmentLinks } from './AttachmentLinks.tsx'
import { crmApi } from './crmApi.ts'

// An interaction's files (several each): beside its edit page, listed with a download link each, added by picking
// one or more files, removed one by one. The server checks each by its first bytes and size; its message is shown.

/** Beside /interactions/{id}/edit; on a new interaction it says the files come after the first save. */
export function InteractionFilesAside() {
  const { _splat } = useParams({ strict: false })
  const id = Number(/^(\d+)\/edit$/.exec(_splat ?? '')?.[1])
  return (
    <Box sx={{ minWidth: 280 }} component="section">
      <InteractionFiles id={id || null} />
    </Box>
  )
}

export function InteractionFiles({ id }: { id: number | null }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const permissions = useEntityPermissions(entityByKey('crm.client-interactions'))
  const key = ['crm', 'interaction-files', id]
  const files = useQuery({ queryKey: key, queryFn: () => crmApi.attachments(id!), enabled: id !== null })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['crm'] })
  const failed = (error: Error) => toast.error(error.message)
  const attach = useMutation({
    mutationFn: (picked: File[]) => crmApi.attach(id!, picked),
    onSuccess: (answer) => {
      toast.success(answer.results.length === 1 ? t`Arquivo anexado.` : t`${answer.results.length} arquivos anexados.`)
      void refresh()
    },
    onError: failed,
  })
  const detach = useMutation({
    mutationFn: (file: InteractionAttachment) => crmApi.detach(file.url),
    onSuccess: () => void refresh(),
    onError: failed,
  })
  return (
    <Stack spacing={1} data-testid="interaction-files">
      <Typography level="title-md">{t`Anexos`}</Typography>
      {id === null ? (
        <Typography level="body-sm">{t`Salve a interação para anexar arquivos.`}</Typography>
      ) : (
        <>
          {files.isSuccess && files.data.results.length === 0 ? <Typography level="body-sm">{t`Nenhum arquivo anexado`}</Typography> : null}
          <AttachmentLinks files={files.data?.results ?? []} onRemove={permissions.change ? (file) => detach.mutate(file) : undefined} />
          {permissions.change ? (
            <>
              <input
                ref={input}
                type="file"
                multiple
                hidden
                data-testid="interaction-files-input"
                onChange={(event) => {
                  const picked = [...(event.target.files ?? [])]
                  event.target.value = ''
                  if (picked.length) attach.mutate(picked)
                }}
              />
              <Button size="sm" variant="outlined" loading={attach.isPending} onClick={() => input.current?.click()} sx={{ alignSelf: 'flex-start' }}>
                {t`Anexar arquivos`}
              </Button>
              <Typography level="body-xs" color="neutral">
                {t`Imagens, áudios, vídeos, PDF e documentos do Office; até 20 arquivos.`}
              </Typography>
            </>
          ) : null}
        </>
      )}
    </Stack>
  )
}
