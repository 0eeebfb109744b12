import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { Trans } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { AgentActors } from '../../app/agentSystem.ts'
import { VolumeIcon } from './icons.tsx'

/**
 * Spec 000 §2, §8, §9: asks for a click (max width 400 px) whenever the browser blocks audio playback (the start-up
 * check, a call's audio later on): the audioPermission actor decides, this only shows it.
 */
export const AUDIO_DIALOG_MAX_WIDTH = 400

export function AudioPermissionDialog({ actor }: { actor: AgentActors['audioPermission'] }) {
  const blocked = useSelector(actor, (snapshot) => snapshot.matches('blocked'))
  // The click itself is the gesture the browser waits for: the actor plays the refused audio again inside it. Escape
  // and the backdrop do not close it, as they would leave the calls silent.
  return (
    <Modal open={blocked}>
      <ModalDialog role="alertdialog" aria-labelledby="audio-permission-title" data-testid="audio-permission" sx={{ maxWidth: AUDIO_DIALOG_MAX_WIDTH }}>
        <DialogTitle id="audio-permission-title">
          <VolumeIcon />
          <Trans>Permitir áudio</Trans>
        </DialogTitle>
        <DialogContent>
          <Trans>O navegador bloqueou a reprodução automática de áudio. Clique em Permitir para ouvir as chamadas e os avisos do atendimento.</Trans>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => actor.send({ type: 'ALLOW' })} data-testid="audio-allow">
            <Trans>Permitir</Trans>
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
