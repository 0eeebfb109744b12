import { useState } from 'react'
import Button from '@mui/joy/Button'
import CircularProgress from '@mui/joy/CircularProgress'
import Radio from '@mui/joy/Radio'
import RadioGroup from '@mui/joy/RadioGroup'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatDuration } from '../../../contract/format/duration.ts'
import { TransferIcon } from './panelIcons.tsx'
import { remainingSeconds, useNow } from './useClock.ts'
import { afterServiceCall } from './useWebphone.ts'
import { TransferDestination, targetOf, useTransferRows } from './TransferDestination.tsx'
import type { DestinationValue } from '../../components/destinations/DestinationPicker.tsx'
import type { TransferType, Webphone } from './useWebphone.ts'

// The transfer steps (spec 000 §4 "Transfer"): pick blind, attended or pendulum and a destination; while an attended or
// pendulum transfer rings the destination, 'Transferir' appears once it answers and 'Cancelar' returns to the origin
// call; then 'Transferindo a chamada...'. And the after-service countdown.

const TRANSFER_TYPES: readonly TransferType[] = ['blind', 'attend', 'pendulum']

function useTransferLabels(): Record<TransferType, string> {
  const { t } = useLingui()
  return { blind: t`Direta`, attend: t`Assistida`, pendulum: t`Pêndulo` }
}

export function TransferPicker({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const labels = useTransferLabels()
  const [type, setType] = useState<TransferType>('blind')
  const [choice, setChoice] = useState<DestinationValue>({ app: 'number', appdata: '' })
  const { rows, pending, failed } = useTransferRows(choice.app)
  const [missing, setMissing] = useState(false)
  const transfer = () => {
    const target = targetOf(choice, rows)
    if (!target) {
      setMissing(true)
      return
    }
    webphone.send({ type: 'TRANSFER', transferType: type, ...target })
  }
  return (
    <Stack spacing={1.5} data-testid="webphone-transfer-picker">
      <Typography level="title-sm" startDecorator={<TransferIcon />}>
        <Trans>Transferir chamada</Trans>
      </Typography>
      <RadioGroup
        orientation="horizontal"
        value={type}
        onChange={(event) => setType(event.target.value as TransferType)}
        aria-label={t`Tipo de transferência`}
        size="sm"
      >
        {TRANSFER_TYPES.map((kind) => (
          <Radio key={kind} value={kind} label={labels[kind]} data-testid={`webphone-transfer-${kind}`} />
        ))}
      </RadioGroup>
      <TransferDestination
        choice={choice}
        rows={rows}
        pending={pending}
        failed={failed}
        missing={missing}
        onChange={(next) => {
          setMissing(false)
          setChoice(next)
        }}
        onSubmit={transfer}
      />
      <Stack direction="row" spacing={1}>
        <Button sx={{ flex: 1 }} onClick={transfer} data-testid="webphone-transfer-send">
          <Trans>Transferir</Trans>
        </Button>
        <Button
          sx={{ flex: 1 }}
          variant="plain"
          color="neutral"
          onClick={() => webphone.send({ type: 'SET_STAGE', stage: 'dialpad' })}
          data-testid="webphone-transfer-back"
        >
          <Trans>Cancelar</Trans>
        </Button>
      </Stack>
    </Stack>
  )
}

/** transfer-attend and transfer-pendulum: the destination rings; confirm once it answered, or cancel. */
export function TransferProgress({ webphone }: { webphone: Webphone }) {
  const labels = useTransferLabels()
  const { view, calls, send } = webphone
  const transfer = view.transfer
  const target = calls.find((call) => call.id === transfer?.destinationCallId) ?? null
  const kind = labels[transfer?.type ?? (view.stage === 'transfer-pendulum' ? 'pendulum' : 'attend')]
  const destination = transfer?.label || transfer?.destination || ''
  return (
    <Stack spacing={1.5} data-testid="webphone-transfer-progress">
      <Typography level="title-sm" startDecorator={<TransferIcon />}>
        <Trans>
          Transferência {kind} para {destination}
        </Trans>
      </Typography>
      {!target?.accepted && (
        <Typography level="body-sm" startDecorator={<CircularProgress size="sm" />} data-testid="webphone-transfer-waiting">
          <Trans>Aguardando o destino atender…</Trans>
        </Typography>
      )}
      <Stack direction="row" spacing={1}>
        {target?.accepted && (
          <Button sx={{ flex: 1 }} onClick={() => send({ type: 'TRANSFER_CONFIRM' })} data-testid="webphone-transfer-confirm">
            <Trans>Transferir</Trans>
          </Button>
        )}
        <Button sx={{ flex: 1 }} variant="soft" color="danger" onClick={() => send({ type: 'TRANSFER_CANCEL' })} data-testid="webphone-transfer-cancel">
          <Trans>Cancelar</Trans>
        </Button>
      </Stack>
    </Stack>
  )
}

export function Transferring() {
  return (
    <Stack spacing={1.5} alignItems="center" sx={{ py: 2 }} data-testid="webphone-transferring">
      <CircularProgress />
      <Typography level="body-md">
        <Trans>Transferindo a chamada...</Trans>
      </Typography>
    </Stack>
  )
}

/** after-service (amber countdown) and classification: the form area on the right does the work. */
export function AfterServiceStage({ webphone }: { webphone: Webphone }) {
  const { view, calls } = webphone
  const running = view.afterService
  const call = afterServiceCall(calls, view.currentCallId)
  const phone = running?.phone || call?.phone || ''
  const endsAt = running ? running.endsAt : view.afterServiceEndsAt
  const counting = endsAt != null
  const now = useNow(counting)
  return (
    <Stack spacing={1} alignItems="center" sx={{ py: 1 }} data-testid="webphone-after-service-stage">
      <Typography level="title-md" color="warning">
        {running || view.stage === 'after-service' ? <Trans>Pós-atendimento</Trans> : <Trans>Classificação</Trans>}
      </Typography>
      {phone && <Typography level="body-md">{[phone, call?.name].filter(Boolean).join(' · ')}</Typography>}
      {counting && (
        <Typography level="h3" color="warning" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="webphone-after-service-countdown">
          {formatDuration(remainingSeconds(endsAt, now))}
        </Typography>
      )}
      {running && running.mode !== 'mandatory_timeout_no_exit' && (
        // Wrap-up done before the time runs out: the agent is available again at once (the mandatory modes first
        // need the classification).
        <Button
          size="sm"
          variant="soft"
          color="warning"
          disabled={!running.canEnd}
          onClick={() => webphone.send({ type: 'AFTER_SERVICE_END' })}
          data-testid="webphone-after-service-end"
        >
          <Trans>Encerrar pós-atendimento</Trans>
        </Button>
      )}
      {running && !running.canEnd && running.mode !== 'mandatory_timeout_no_exit' && (
        <Typography level="body-sm" color="neutral" data-testid="webphone-after-service-needs-classification">
          <Trans>Classifique a chamada para encerrar o pós-atendimento</Trans>
        </Typography>
      )}
    </Stack>
  )
}
