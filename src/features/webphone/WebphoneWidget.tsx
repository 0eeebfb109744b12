import { lazy, Suspense, useMemo, useState } from 'react'
import Badge from '@mui/joy/Badge'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import CircularProgress from '@mui/joy/CircularProgress'
import Sheet from '@mui/joy/Sheet'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatDuration } from '../../../contract/format/duration.ts'
import { REGISTRATION_STATE_COLORS, registrationStateLabel } from '../../../contract/codes/states.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { AgentStatusChip } from './AgentStatusChip.tsx'
import { RingingDialog } from './RingingDialog.tsx'
import { remainingSeconds, useNow } from './useClock.ts'
import { liveCalls, ringingCall, useWebphone, useWebphoneActor } from './useWebphone.ts'
import { useNeedsOutcomePanel, useRememberOutcomes } from './useCallOutcome.ts'
import type { ActorLike, Webphone } from './useWebphone.ts'
import type { Coaching } from '../../../machines/webphoneTypes.ts'

// The softphone entry of the top bar (spec 000 §2 "Webphone panel", sites.view_softphone): a button coloured by the
// SIP registration with the number of calls (amber with the phone and the countdown during after-service) that opens
// the panel, 360 px wide or 1000 px when the current call has a form. The panel body is its own chunk, loaded on the
// first open; the ringing dialog stays here so a call rings without waiting for a download.

export const PANEL_WIDTH = { narrow: 360, wide: 1000 } as const

export function WebphoneWidget() {
  const actor = useWebphoneActor()
  const serveHere = useServeHere()
  const system = useAgentSystem()
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <AgentStatusChip system={system} />
      <WebphoneControl actor={actor} serveHere={serveHere} />
    </Box>
  )
}

/**
 * A supervisor whispering to the agent or barging in on the call (the media app's leg the phone answered by itself): a
 * small chip, never a call nor a ring (agents are told they are coached, as in Genesys and Five9).
 */
export function CoachingChip({ coaching }: { coaching: Coaching }) {
  const supervisor = coaching.supervisor
  return (
    <Chip
      size="sm"
      variant="soft"
      color={coaching.mode === 'barge' ? 'warning' : 'primary'}
      data-testid="webphone-coaching"
      data-mode={coaching.mode}
      role="status"
    >
      {coaching.mode === 'barge' ? <Trans>Supervisor {supervisor} entrou na chamada</Trans> : <Trans>Supervisor {supervisor} está orientando você</Trans>}
    </Chip>
  )
}

/** 'Atender aqui' of the other-tab placeholder: the same request as the presence panel's (tab ownership). */
function useServeHere(): (() => void) | null {
  const system = useAgentSystem()
  return useMemo(() => (system ? () => system.get('tabOwnership').send({ type: 'SERVICE_HERE' }) : null), [system])
}

const WebphonePanel = lazy(() => import('./WebphonePanel.tsx').then((m) => ({ default: m.WebphonePanel })))

type ControlProps = { actor: ActorLike | null; serveHere: (() => void) | null }

/** The button, its panel and the ringing dialog for one webphone actor (null: not wired yet, the 'off' placeholder). */
export function WebphoneControl({ actor, serveHere }: ControlProps) {
  const { t } = useLingui()
  const webphone = useWebphone(actor)
  const [open, setOpen] = useState(false)
  useRememberOutcomes(webphone)
  const needsOutcome = useNeedsOutcomePanel(webphone)
  const wide = webphone.current?.hasForm === true || needsOutcome
  const ringing = webphone.view.autoAnswer ? null : ringingCall(webphone.calls)
  return (
    <Box sx={{ position: 'relative', display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      {webphone.view.coaching && <CoachingChip coaching={webphone.view.coaching} />}
      <WebphoneButton webphone={webphone} open={open} onToggle={() => setOpen((was) => !was)} />
      {open && (
        <Sheet
          role="dialog"
          aria-label={t`Webphone`}
          variant="outlined"
          data-testid="webphone-panel"
          data-width={wide ? PANEL_WIDTH.wide : PANEL_WIDTH.narrow}
          onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
          sx={{
            position: { xs: 'fixed', sm: 'absolute' },
            top: { xs: 64, sm: 'calc(100% + 8px)' },
            right: { xs: 8, sm: 0 },
            left: { xs: 8, sm: 'auto' },
            width: { sm: wide ? PANEL_WIDTH.wide : PANEL_WIDTH.narrow },
            maxWidth: { sm: 'calc(100vw - 16px)' },
            maxHeight: 'calc(100vh - 80px)',
            overflow: 'auto',
            borderRadius: 'md',
            boxShadow: 'lg',
            zIndex: 'var(--joy-zIndex-popup)',
          }}
        >
          <Suspense fallback={<CircularProgress size="sm" sx={{ m: 3 }} />}>
            <WebphonePanel webphone={webphone} serveHere={serveHere} wide={wide} />
          </Suspense>
        </Sheet>
      )}
      {ringing && <RingingDialog call={ringing} send={webphone.send} />}
    </Box>
  )
}

type ButtonProps = { webphone: Webphone; open: boolean; onToggle: () => void }

function WebphoneButton({ webphone, open, onToggle }: ButtonProps) {
  const { t, i18n } = useLingui()
  const { view, calls } = webphone
  const count = liveCalls(calls).length
  const registered = view.phase === 'ready' && view.registration
  // The machine's own after-service: the ended call is already gone from the list, and the agent may have opened
  // another stage of the panel meanwhile.
  const afterService = view.afterService
  // During a call the button shows its number and timer (spec 000 §2), not only the registration.
  const talking = !afterService
    ? webphone.current && webphone.current.status !== 'ended' && webphone.current.status !== 'ringing'
      ? webphone.current
      : null
    : null
  const label = registered ? registrationStateLabel(view.registration, i18n.locale) : t`Webphone`
  return (
    <Badge badgeContent={count} invisible={count === 0} color="primary" size="sm" data-testid="webphone-count">
      <Button
        size="sm"
        variant={afterService ? 'solid' : registered ? 'soft' : 'plain'}
        color={afterService ? 'warning' : registered ? REGISTRATION_STATE_COLORS[view.registration!] : 'neutral'}
        startDecorator={<PhoneIcon />}
        onClick={onToggle}
        aria-expanded={open}
        aria-haspopup="dialog"
        aria-label={t`Webphone: ${label}`}
        data-testid="webphone-button"
        data-phase={view.phase}
        data-registration={view.registration ?? ''}
      >
        {afterService ? (
          <AfterServiceLabel phone={afterService.phone} endsAt={afterService.endsAt} />
        ) : talking ? (
          <CallLabel phone={talking.phone} since={talking.answeredAt ?? talking.startedAt} />
        ) : (
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            {label}
          </Box>
        )}
      </Button>
    </Badge>
  )
}

function CallLabel({ phone, since }: { phone: string; since: number }) {
  const now = useNow(true)
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'baseline' }} data-testid="webphone-call-label">
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        {phone}
      </Box>
      <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 'lg' }} data-testid="webphone-call-timer">
        {formatDuration(Math.max(0, Math.floor((now - since) / 1000)))}
      </Box>
    </Box>
  )
}

function AfterServiceLabel({ phone, endsAt }: { phone: string; endsAt: number | null }) {
  const now = useNow(endsAt != null)
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'baseline' }} data-testid="webphone-after-service">
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        <Trans>Pós-atendimento</Trans> {phone}
      </Box>
      {endsAt != null && (
        <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 'lg' }} data-testid="webphone-after-service-timer">
          {formatDuration(remainingSeconds(endsAt, now))}
        </Box>
      )}
    </Box>
  )
}
