import type { ComponentType } from 'react'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Chip from '@mui/joy/Chip'
import IconButton from '@mui/joy/IconButton'
import Stack from '@mui/joy/Stack'
import ToggleButtonGroup from '@mui/joy/ToggleButtonGroup'
import Tooltip from '@mui/joy/Tooltip'
import { Trans, useLingui } from '@lingui/react/macro'
import { isRegistrationDown, REGISTRATION_STATE_COLORS, registrationStateLabel } from '../../../contract/codes/states.ts'
import { ContactsIcon, DialpadIcon, LogoutIcon, SettingsIcon } from '../../components/icons/icons.tsx'
import { AudioSettings } from './AudioSettings.tsx'
import { CallOutcomePanel } from './CallOutcomePanel.tsx'
import { CallControls, CallList } from './CallList.tsx'
import { ConferenceStage } from './ConferenceStage.tsx'
import { Dialpad } from './Dialpad.tsx'
import { Phonebook } from './Phonebook.tsx'
import { MissingPermissionsPlaceholder, OffPlaceholder, OtherTabPlaceholder, StartingPlaceholder } from './Placeholders.tsx'
import { AfterServiceStage, TransferPicker, TransferProgress, Transferring } from './TransferStages.tsx'
import { RefreshIcon } from './panelIcons.tsx'
import type { Webphone, WebphoneStage } from './useWebphone.ts'

// The panel body (its own chunk): a placeholder until the phone is ready, then the registration, the calls, the
// current call's controls and the stage the machine is in. With a form (or a classification to record) the panel is
// wide and the form area (CallOutcomePanel.tsx) sits on the right.

type Props = { webphone: Webphone; serveHere: (() => void) | null; wide: boolean }

export function WebphonePanel({ webphone, serveHere, wide }: Props) {
  const { phase } = webphone.view
  if (!webphone.available || phase === 'off') return <OffPlaceholder webphone={webphone} />
  if (phase === 'otherTab') return <OtherTabPlaceholder serveHere={serveHere} />
  if (phase === 'missingPermissions') return <MissingPermissionsPlaceholder webphone={webphone} />
  if (phase === 'starting') return <StartingPlaceholder />
  return (
    <Box sx={{ display: 'flex', alignItems: 'stretch' }}>
      <ReadyPanel webphone={webphone} />
      {wide && (
        <Box data-testid="webphone-form-slot" sx={{ flex: 1, minWidth: 0, borderLeft: '1px solid', borderColor: 'divider' }}>
          <CallOutcomePanel webphone={webphone} />
        </Box>
      )}
    </Box>
  )
}

const STAGES: Record<WebphoneStage, ComponentType<{ webphone: Webphone }>> = {
  dialpad: Dialpad,
  phonebook: Phonebook,
  settings: AudioSettings,
  transfer: TransferPicker,
  'transfer-attend': TransferProgress,
  'transfer-pendulum': TransferProgress,
  transferring: Transferring,
  conference: ConferenceStage,
  'after-service': AfterServiceStage,
  classification: AfterServiceStage,
}

/** The stages the agent picks himself; the others are steps of a transfer, a conference or an after-service. */
const IDLE_STAGES = ['dialpad', 'phonebook', 'settings'] as const satisfies readonly WebphoneStage[]

function ReadyPanel({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const { view, calls, current, send } = webphone
  const Stage = STAGES[view.stage]
  const idle = (IDLE_STAGES as readonly WebphoneStage[]).includes(view.stage)
  return (
    <Stack spacing={1.5} sx={{ width: 360, maxWidth: '100%', flexShrink: 0, p: 1.5 }} data-testid="webphone-ready" data-stage={view.stage}>
      <PanelHeader webphone={webphone} />
      {view.error && (
        <Alert color="danger" variant="soft" size="sm" data-testid="webphone-error">
          {view.error.message || view.error.code}
        </Alert>
      )}
      {calls.length > 0 && <CallList webphone={webphone} />}
      {current && current.status !== 'ended' && <CallControls webphone={webphone} call={current} />}
      {idle && (
        <ToggleButtonGroup
          size="sm"
          variant="plain"
          value={view.stage}
          onChange={(_, stage) => stage && send({ type: 'SET_STAGE', stage: stage as WebphoneStage })}
          sx={{ alignSelf: 'center' }}
        >
          <IconButton value="dialpad" aria-label={t`Teclado`} data-testid="webphone-stage-dialpad">
            <DialpadIcon />
          </IconButton>
          <IconButton value="phonebook" aria-label={t`Contatos`} data-testid="webphone-stage-phonebook">
            <ContactsIcon />
          </IconButton>
          <IconButton value="settings" aria-label={t`Configurações de áudio`} data-testid="webphone-stage-settings">
            <SettingsIcon />
          </IconButton>
        </ToggleButtonGroup>
      )}
      <Stage webphone={webphone} />
    </Stack>
  )
}

function PanelHeader({ webphone }: { webphone: Webphone }) {
  const { t, i18n } = useLingui()
  const { view, send } = webphone
  const registration = view.registration ?? 'connected'
  const logoutLabel = t`Sair do webphone`
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Chip variant="soft" color={REGISTRATION_STATE_COLORS[registration]} data-testid="webphone-registration" data-registration={registration}>
        {registrationStateLabel(registration, i18n.locale)}
      </Chip>
      <Box sx={{ flex: 1 }} />
      {isRegistrationDown(view.registration) && (
        <Button size="sm" variant="outlined" startDecorator={<RefreshIcon />} onClick={() => send({ type: 'RELOAD' })} data-testid="webphone-register">
          <Trans>Registrar</Trans>
        </Button>
      )}
      {!view.autoLogin && (
        <Tooltip title={logoutLabel}>
          <IconButton size="sm" variant="plain" color="danger" aria-label={logoutLabel} onClick={() => send({ type: 'STOP' })} data-testid="webphone-logout">
            <LogoutIcon />
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  )
}
