import type { ReactNode } from 'react'
import Button from '@mui/joy/Button'
import CircularProgress from '@mui/joy/CircularProgress'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { OTHER_TAB_NOTICE, SERVICE_HERE_LABEL } from '../../../machines/tabOwnership.machine.ts'
import { useProfile } from '../../api/useProfile.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'
import { TabsIcon, VolumeIcon } from '../presence/icons.tsx'
import { machineText } from '../presence/notices.ts'
import { RefreshIcon } from './panelIcons.tsx'
import type { Webphone } from './useWebphone.ts'

// What the panel shows instead of the phone (spec 000 §2, §4): off, running in another tab, permissions missing, and
// starting. The other-tab texts and 'Atender aqui' are the presence panel's (machines/tabOwnership.machine.ts).

function Placeholder({ icon, testId, children, action }: { icon: ReactNode; testId: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Stack spacing={2} alignItems="center" sx={{ p: 3, textAlign: 'center' }} data-testid={testId}>
      {icon}
      <Typography level="body-md">{children}</Typography>
      {action}
    </Stack>
  )
}

/**
 * `available` false: no webphone actor yet, so there is nobody to log in. A user without an extension (an admin, a
 * supervisor) has nothing to log in with: the machine stays off on START, so no button is offered, only the way out.
 */
export function OffPlaceholder({ webphone }: { webphone: Webphone }) {
  const { voip } = useProfile()
  if (!voip) {
    return (
      <Placeholder icon={<PhoneIcon sx={{ fontSize: 40, color: 'text.tertiary' }} />} testId="webphone-no-extension">
        <Trans>Você não tem um ramal. Peça um a um administrador.</Trans>
      </Placeholder>
    )
  }
  return (
    <Placeholder
      icon={<PhoneIcon sx={{ fontSize: 40, color: 'text.tertiary' }} />}
      testId="webphone-off"
      action={
        <Button onClick={() => webphone.send({ type: 'START' })} disabled={!webphone.available} data-testid="webphone-start">
          <Trans>Logar no webphone</Trans>
        </Button>
      }
    >
      <Trans>No momento o webphone esta desativado.</Trans>
    </Placeholder>
  )
}

export function OtherTabPlaceholder({ serveHere }: { serveHere: (() => void) | null }) {
  const { i18n } = useLingui()
  return (
    <Placeholder
      icon={<TabsIcon sx={{ fontSize: 40 }} />}
      testId="webphone-other-tab"
      action={
        <Button onClick={() => serveHere?.()} disabled={!serveHere} data-testid="webphone-serve-here">
          {machineText(i18n, SERVICE_HERE_LABEL)}
        </Button>
      }
    >
      {machineText(i18n, OTHER_TAB_NOTICE)}
    </Placeholder>
  )
}

export function MissingPermissionsPlaceholder({ webphone }: { webphone: Webphone }) {
  return (
    <Placeholder
      icon={<VolumeIcon sx={{ fontSize: 40 }} />}
      testId="webphone-missing-permissions"
      action={
        <Button startDecorator={<RefreshIcon />} onClick={() => webphone.send({ type: 'RELOAD' })} data-testid="webphone-reload">
          <Trans>Recarregar Webphone</Trans>
        </Button>
      }
    >
      <Trans>Autorize o uso do microfone e das notificações no navegador e depois recarregue o webphone.</Trans>
    </Placeholder>
  )
}

export function StartingPlaceholder() {
  return (
    <Placeholder icon={<CircularProgress size="md" />} testId="webphone-starting">
      <Trans>Iniciando o webphone…</Trans>
    </Placeholder>
  )
}
