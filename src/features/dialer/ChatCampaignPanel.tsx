import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { Button, Card, Chip, Stack, Table, Typography } from '@mui/joy'
import { useParams } from '@tanstack/react-router'
import { chatCampaignPaths } from '../../../contract/api/chat-campaigns.ts'
import type { ChatCampaignProgress } from '../../../contract/api/chat-campaigns.ts'
import type { CampaignCommand } from '../../../contract/api/dialer.ts'
import { api } from '../../api/client.ts'

// Beside a saved WhatsApp campaign's form (/settings/service/chats/campaign/{id}): start, pause and stop it and watch
// its progress (server/chat/campaigns.ts). No socket frame carries it: the panel asks every 3 s while it is shown.

const rel = (path: string) => path.replace(/^\/api/, '')
const POLL_MS = 3000

export function ChatCampaignPanel() {
  const { t } = useLingui()
  const client = useQueryClient()
  const params = useParams({ strict: false }) as Record<string, string | undefined>
  const id = Number(params.id ?? /(\d+)(?:\/edit)?$/.exec(params._splat ?? '')?.[1])
  const key = ['chat-campaign', 'progress', id]
  const query = useQuery({
    queryKey: key,
    queryFn: () => api.get<ChatCampaignProgress>(rel(chatCampaignPaths.progress(id))),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: POLL_MS,
  })
  const command = useMutation({
    mutationFn: (kind: CampaignCommand) => api.post<ChatCampaignProgress>(rel(chatCampaignPaths.command(id, kind))),
    onSuccess: (progress) => client.setQueryData(key, progress),
  })
  if (!Number.isInteger(id) || id <= 0) return null
  const progress = query.data
  const status = progress?.status ?? 'idle'
  const statusLabel = { running: t`Em execução`, paused: t`Pausada`, stopped: t`Parada`, idle: t`Não iniciada` }[status]
  const rows: [string, number][] = progress
    ? [
        [t`Leads no total`, progress.leads_total],
        [t`Templates enviados`, progress.leads_sent],
        [t`Responderam`, progress.leads_replied],
        [t`Não enviados (sem telefone ou em outro chat)`, progress.leads_skipped],
        [t`Restantes`, progress.leads_remaining],
      ]
    : []
  return (
    <Card variant="soft" sx={{ minWidth: 280 }} data-testid="chat-campaign-panel">
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
        <Typography level="title-md">{t`Execução da campanha`}</Typography>
        <Chip color={status === 'running' ? 'success' : status === 'paused' ? 'warning' : 'neutral'} data-testid="chat-campaign-status">
          {statusLabel}
        </Chip>
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button
          size="sm"
          color="success"
          disabled={status === 'running'}
          loading={command.isPending && command.variables === 'start'}
          onClick={() => command.mutate('start')}
        >
          {t`Iniciar`}
        </Button>
        <Button size="sm" color="warning" variant="soft" disabled={status !== 'running'} onClick={() => command.mutate('pause')}>
          {t`Pausar`}
        </Button>
        <Button size="sm" color="danger" variant="soft" disabled={status === 'stopped' || status === 'idle'} onClick={() => command.mutate('stop')}>
          {t`Parar`}
        </Button>
      </Stack>
      <Table size="sm" aria-label={t`Progresso da campanha`}>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td>{label}</td>
              <td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{value}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Card>
  )
}
