import { useEffect } from 'react'
import { Stack } from '@mui/joy'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { dialerPaths } from '../../../contract/api/dialer.ts'
import type { CampaignCommand, CampaignProgress } from '../../../contract/api/dialer.ts'
import { api } from '../../api/client.ts'
import { CampaignRunCard } from './CampaignRunCard.tsx'
import { SimulationCard } from './SimulationCard.tsx'
import { dialerProgressStore, useCampaignProgress } from './dialerProgressStore.ts'

// Beside a saved campaign's form (/settings/service/shipments/campaign/{id}): start, pause and stop it and watch its
// progress, and simulate it before going live (SimulationCard). The REST answer fills the panel; the supervisors' service socket (`dialerProgress`) keeps it live.

export function CampaignPanel() {
  const { t } = useLingui()
  const params = useParams({ strict: false }) as Record<string, string | undefined>
  const id = Number(params.id ?? /(\d+)(?:\/edit)?$/.exec(params._splat ?? '')?.[1])
  const query = useQuery({
    queryKey: ['dialer', 'progress', id],
    queryFn: () => api.get<CampaignProgress>(dialerPaths.progress(id)),
    enabled: Number.isInteger(id) && id > 0,
  })
  useEffect(() => {
    if (query.data) dialerProgressStore.apply(query.data)
  }, [query.data])
  const command = useMutation({
    mutationFn: (kind: CampaignCommand) => api.post<CampaignProgress>(dialerPaths.command(id, kind)),
    onSuccess: (progress) => dialerProgressStore.apply(progress),
  })
  const progress = useCampaignProgress(id)
  if (!Number.isInteger(id) || id <= 0) return null
  const status = progress?.status ?? 'idle'
  const rows: [string, number][] = progress
    ? [
        [t`Leads no total`, progress.leads_total],
        [t`Discados`, progress.leads_dialled],
        [t`Atendidos`, progress.leads_answered],
        [t`Restantes`, progress.leads_remaining],
        [t`Linhas em uso`, progress.lines_in_use],
        [t`Abandonadas`, progress.abandoned],
      ]
    : []
  return (
    <Stack spacing={2}>
      <CampaignRunCard
        status={status}
        rows={rows}
        pending={command.isPending ? command.variables : null}
        onCommand={(kind) => command.mutate(kind)}
        testId="campaign-panel"
      />
      <SimulationCard campaign={id} />
    </Stack>
  )
}
