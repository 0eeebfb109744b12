import type { ReactNode } from 'react'
import Box from '@mui/joy/Box'
import Chip from '@mui/joy/Chip'
import IconButton from '@mui/joy/IconButton'
import List from '@mui/joy/List'
import ListItem from '@mui/joy/ListItem'
import ListItemButton from '@mui/joy/ListItemButton'
import ListItemContent from '@mui/joy/ListItemContent'
import Stack from '@mui/joy/Stack'
import Tooltip from '@mui/joy/Tooltip'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import { endpointStatusColor, endpointStatusLabel } from '../../../contract/codes/states.ts'
import { formatDuration } from '../../../contract/format/duration.ts'
import { DialpadIcon, PhoneIcon } from '../../components/icons/icons.tsx'
import { CallEndIcon } from './icons.tsx'
import { ConferenceIcon, HoldIcon, MicIcon, MicOffIcon, ResumeIcon, TransferIcon } from './panelIcons.tsx'
import { elapsedSeconds, useNow } from './useClock.ts'
import { liveCalls } from './useWebphone.ts'
import type { CallView, Webphone } from './useWebphone.ts'

// The calls of the webphone in order of arrival (at most 160 px high, spec 000 §9), each with its phone, name, status
// and HH:MM:SS timer; a click makes it the current call. Below, the current call's controls.

export const CALL_LIST_MAX_HEIGHT = 160

/** The seconds a call's timer shows: ringing since it started, talking since it was answered; frozen once ended. */
export function callSeconds(call: CallView, now: number): number {
  return elapsedSeconds(call.answeredAt ?? call.startedAt, call.endedAt ?? now)
}

export function CallList({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const { calls, view, send } = webphone
  const now = useNow(calls.some((call) => call.endedAt == null))
  return (
    <List
      size="sm"
      aria-label={t`Chamadas`}
      data-testid="webphone-calls"
      sx={{ maxHeight: CALL_LIST_MAX_HEIGHT, overflow: 'auto', flexGrow: 0, '--List-padding': '0px' }}
    >
      {calls.map((call) => (
        <ListItem key={call.id}>
          <ListItemButton
            selected={call.id === view.currentCallId}
            onClick={() => send({ type: 'SELECT_CALL', callId: call.id })}
            data-testid="webphone-call"
            data-call-id={call.id}
            data-status={call.status}
          >
            <ListItemContent>
              <Typography level="title-sm" noWrap data-testid="webphone-call-phone">
                {call.phone}
              </Typography>
              {call.name && (
                <Typography level="body-xs" noWrap data-testid="webphone-call-name">
                  {call.name}
                </Typography>
              )}
            </ListItemContent>
            <Stack alignItems="flex-end" spacing={0.25}>
              <CallStatusChip status={call.status} />
              <Typography level="body-xs" data-testid="webphone-call-timer" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatDuration(callSeconds(call, now))}
              </Typography>
            </Stack>
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  )
}

function CallStatusChip({ status }: { status: CallView['status'] }) {
  const { t, i18n } = useLingui()
  const label = status === 'ended' ? t`Encerrada` : endpointStatusLabel(status, i18n.locale)
  return (
    <Chip size="sm" variant="soft" color={status === 'ended' ? 'neutral' : endpointStatusColor(status)} data-testid="webphone-call-status">
      {label}
    </Chip>
  )
}

function Control({
  label,
  testId,
  onClick,
  color = 'neutral',
  disabled,
  children,
}: {
  label: string
  testId: string
  onClick: () => void
  color?: 'neutral' | 'danger' | 'success' | 'primary' | 'warning'
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton variant="soft" color={color} aria-label={label} onClick={onClick} disabled={disabled} data-testid={testId}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  )
}

/** Answer and hang up while ringing; then hang up, hold, mute, transfer, conference and the keypad. */
export function CallControls({ webphone, call }: { webphone: Webphone; call: CallView }) {
  const { t } = useLingui()
  const { send, calls, view } = webphone
  const callId = call.id
  const hangUp = (
    <Control label={t`Desligar`} testId="webphone-hangup" color="danger" onClick={() => send({ type: 'HANGUP', callId })}>
      <CallEndIcon />
    </Control>
  )
  if (call.status === 'ringing') {
    return (
      <Stack direction="row" spacing={1} justifyContent="center" data-testid="webphone-controls">
        {call.direction === 'incoming' && (
          <Control label={t`Atender`} testId="webphone-answer" color="success" onClick={() => send({ type: 'ANSWER', callId })}>
            <PhoneIcon />
          </Control>
        )}
        {hangUp}
      </Stack>
    )
  }
  const busyStage = view.stage !== 'dialpad' && view.stage !== 'phonebook' && view.stage !== 'settings'
  return (
    <Box sx={{ display: 'flex', gap: 1, justifyContent: 'center', flexWrap: 'wrap' }} data-testid="webphone-controls">
      {hangUp}
      {call.hold ? (
        <Control label={t`Retomar`} testId="webphone-unhold" color="warning" onClick={() => send({ type: 'UNHOLD', callId })}>
          <ResumeIcon />
        </Control>
      ) : (
        <Control label={t`Em espera`} testId="webphone-hold" onClick={() => send({ type: 'HOLD', callId })}>
          <HoldIcon />
        </Control>
      )}
      {call.mute ? (
        <Control label={t`Ativar microfone`} testId="webphone-unmute" color="warning" onClick={() => send({ type: 'UNMUTE', callId })}>
          <MicOffIcon />
        </Control>
      ) : (
        <Control label={t`Mudo`} testId="webphone-mute" onClick={() => send({ type: 'MUTE', callId })}>
          <MicIcon />
        </Control>
      )}
      <Control
        label={t`Transferir`}
        testId="webphone-transfer"
        disabled={!call.accepted || busyStage}
        onClick={() => send({ type: 'SET_STAGE', stage: 'transfer' })}
      >
        <TransferIcon />
      </Control>
      <Control
        label={t`Conferência`}
        testId="webphone-conference"
        disabled={liveCalls(calls).length < 2 || busyStage}
        onClick={() => send({ type: 'SET_STAGE', stage: 'conference' })}
      >
        <ConferenceIcon />
      </Control>
      <Control label={t`Teclado`} testId="webphone-keypad" disabled={busyStage} onClick={() => send({ type: 'SET_STAGE', stage: 'dialpad' })}>
        <DialpadIcon />
      </Control>
    </Box>
  )
}
