import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { chatCampaignPaths } from '../../../contract/api/chat-campaigns.ts'
import type { ChatCampaignProgress } from '../../../contract/api/chat-campaigns.ts'
import type { CampaignCommand } from '../../../contract/api/dialer.ts'
import { api } from '../../api/client.ts'
import { CampaignRunCard } from './CampaignRunCard.tsx'

// Beside a saved WhatsApp campaign's form (/settings/service/chats/campaign/{id}): start, pause and stop it and watch
// its progress (server/chat/campaigns.ts). No socket frame carries it: the panel asks every 3 s while it is shown.

const POLL_MS = 3000

export function ChatCampaignPanel() {
  const { t } = useLingui()
  const client = useQueryClient()
  const params = useParams({ strict: false }) as Record<string, string | undefined>
  const id = Number(params.id ?? /(\d+)(?:\/edit)?$/.exec(params._splat ?? '')?.[1])
  const key = ['chat-campaign', 'progress', id]
  const query = useQuery({
    queryKey: key,
    queryFn: () => api.get<ChatCampaignProgress>(chatCampaignPaths.progress(id)),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: POLL_MS,
  })
  const command = useMutation({
    mutationFn: (kind: CampaignCommand) => api.post<ChatCampaignProgress>(chatCampaignPaths.command(id, kind)),
    onSuccess: (progress) => client.setQueryData(key, progress),
  })
  if (!Number.isInteger(id) || id <= 0) return null
  const progress = query.data
  const status = progress?.status ?? 'idle'
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
    <CampaignRunCard
      status={status}
      rows={rows}
      pending={command.isPending ? command.variables : null}
      onCommand={(kind) => command.mutate(kind)}
      testId="chat-campaign-panel"
    />
  )
}
