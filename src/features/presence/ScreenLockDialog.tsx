import { useState } from 'react'
import Button from '@mui/joy/Button'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { lockTitle } from '../../../machines/screenLock.machine.ts'
import type { ScreenLockContext } from '../../../machines/screenLock.machine.ts'
import { useAgentActor, useAgentSelector } from '../../app/agentSystemContext.tsx'
import { formatDateTime } from '../../app/dates.ts'
import { LockIcon } from '../../components/icons/icons.tsx'
import { machineText } from './notices.ts'

/** Spec 000 §2 lock dialog (max width 300 px), §4 screen lock, §5 unlock: only the password goes to the server. */
export const LOCK_DIALOG_MAX_WIDTH = 300

type LockView = { locked: boolean; validating: boolean } & ScreenLockContext

function lockView(snapshot: { value: unknown; context: ScreenLockContext }): LockView {
  return { locked: snapshot.value !== 'unlocked', validating: snapshot.value === 'validating', ...snapshot.context }
}

const sameLockView = (a: LockView, b: LockView) =>
  a.locked === b.locked &&
  a.validating === b.validating &&
  a.pauseActive === b.pauseActive &&
  a.pauseStartedAt === b.pauseStartedAt &&
  a.fieldErrors === b.fieldErrors

export function ScreenLockDialog() {
  const view = useAgentSelector('screenLock', lockView, sameLockView)
  return view.locked ? <LockForm view={view} /> : null
}

function LockForm({ view }: { view: LockView }) {
  const { t, i18n } = useLingui()
  const actor = useAgentActor('screenLock')
  const [password, setPassword] = useState('')
  const error = view.fieldErrors?.password?.join(' ') ?? view.fieldErrors?.detail?.join(' ')
  // started_timestamp is in Unix seconds (contract/api/agent.ts).
  const startedAt = view.pauseActive && view.pauseStartedAt ? formatDateTime(view.pauseStartedAt * 1000) : null
  return (
    <Modal open disableEscapeKeyDown slotProps={{ backdrop: { sx: { backdropFilter: 'blur(14px)', bgcolor: 'rgba(15, 23, 42, 0.55)' } } }}>
      <ModalDialog role="alertdialog" aria-labelledby="screen-lock-title" data-testid="screen-lock" sx={{ width: '100%', maxWidth: LOCK_DIALOG_MAX_WIDTH }}>
        <DialogTitle id="screen-lock-title">
          <LockIcon />
          {machineText(i18n, lockTitle(view))}
        </DialogTitle>
        {startedAt && (
          <Typography level="body-sm" data-testid="screen-lock-started">
            <Trans>Início da pausa: {startedAt}</Trans>
          </Typography>
        )}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            if (!password) return
            actor.send({ type: 'SUBMIT', password })
            setPassword('')
          }}
        >
          <Stack spacing={2}>
            <FormControl id="screen-lock-password" error={Boolean(error)}>
              <FormLabel>
                <Trans>Senha</Trans>
              </FormLabel>
              <Input name="password" type="password" autoComplete="current-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
              {error && <FormHelperText>{error}</FormHelperText>}
            </FormControl>
            <Button type="submit" loading={view.validating} disabled={!password && !view.validating} data-testid="screen-lock-submit">
              {t`Salvar`}
            </Button>
          </Stack>
        </form>
      </ModalDialog>
    </Modal>
  )
}
