import { useEffect } from 'react'
import IconButton from '@mui/joy/IconButton'
import Tooltip from '@mui/joy/Tooltip'
import { useLingui } from '@lingui/react/macro'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useAgentActor, useAgentSystem } from '../../app/agentSystemContext.tsx'
import { useProfile } from '../../api/useProfile.ts'
import { LockIcon } from '../../components/icons/icons.tsx'
import { AudioPermissionDialog } from './AudioPermissionDialog.tsx'
import { askNotificationPermissionOnce } from './mediaPermissions.ts'
import { PauseExceededDialog } from './PauseExceededDialog.tsx'
import { ScreenLockDialog } from './ScreenLockDialog.tsx'

// What the signed-in layout shows above every page: 'Pausa excedente', the screen lock (on top of everything) and,
// for users who serve calls or chats, the audio authorisation and the one-time notification prompt.

/** Users who take calls or chats: the service-ownership panel, audio and notification prompts are theirs. */
export function servesCustomers(roles: readonly string[]): boolean {
  return has(roles, PERMISSIONS.viewSoftphone) || has(roles, PERMISSIONS.viewChat)
}

export function PresenceOverlays() {
  const { roles } = useProfile()
  const serves = servesCustomers(roles)
  useEffect(() => {
    if (serves) askNotificationPermissionOnce()
  }, [serves])
  const system = useAgentSystem()
  if (!system) return null
  return (
    <>
      {serves && <AudioPermissionDialog actor={system.get('audioPermission')} />}
      <PauseExceededDialog />
      <ScreenLockDialog />
    </>
  )
}

/** 'Bloquear tela' in the top bar: the lock dialog until the password is validated. */
export function LockScreenButton() {
  return useAgentSystem() ? <LockButton /> : null
}

function LockButton() {
  const { t } = useLingui()
  const actor = useAgentActor('screenLock')
  const label = t`Bloquear tela`
  return (
    <Tooltip title={label}>
      <IconButton variant="plain" color="neutral" aria-label={label} data-testid="lock-screen" onClick={() => actor.send({ type: 'LOCK', by: 'manual' })}>
        <LockIcon />
      </IconButton>
    </Tooltip>
  )
}
