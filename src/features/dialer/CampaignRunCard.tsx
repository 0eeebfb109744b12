import { Button, Card, Chip, Stack, Table, Typography } from '@mui/joy'
import { useLingui } from '@lingui/react/macro'
import type { CampaignCommand } from '../../../contract/api/dialer.ts'

// The run card beside a saved campaign's form, voice (CampaignPanel) or WhatsApp (ChatCampaignPanel): its status,
// Start / Pause / Stop, and the progress rows each kind counts.

export type CampaignRunStatus = 'running' | 'paused' | 'stopped' | 'idle'

type Props = {
  status: CampaignRunStatus
  rows: readonly [string, number][]
  /** The command being sent, if any (its button spins). */
  pending: CampaignCommand | null
  onCommand: (command: CampaignCommand) => void
  testId: string
}

export function CampaignRunCard({ status, rows, pending, onCommand, testId }: Props) {
  const { t } = useLingui()
  const statusLabel = { running: t`Em execução`, paused: t`Pausada`, stopped: t`Parada`, idle: t`Não iniciada` }[status]
  return (
    <Card variant="soft" sx={{ minWidth: 280 }} data-testid={testId}>
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
        <Typography level="title-md">{t`Execução da campanha`}</Typography>
        <Chip color={status === 'running' ? 'success' : status === 'paused' ? 'warning' : 'neutral'} data-testid={testId.replace(/-panel$/, '-status')}>
          {statusLabel}
        </Chip>
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button size="sm" color="success" disabled={status === 'running'} loading={pending === 'start'} onClick={() => onCommand('start')}>
          {t`Iniciar`}
        </Button>
        <Button size="sm" color="warning" variant="soft" disabled={status !== 'running'} onClick={() => onCommand('pause')}>
          {t`Pausar`}
        </Button>
        <Button size="sm" color="danger" variant="soft" disabled={status === 'stopped' || status === 'idle'} onClick={() => onCommand('stop')}>
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
