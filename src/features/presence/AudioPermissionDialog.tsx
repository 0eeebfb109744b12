import { useEffect, useState } from 'react'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { Trans } from '@lingui/react/macro'
import { VolumeIcon } from './icons.tsx'
import { audioAllowed } from './mediaPermissions.ts'

/** Spec 000 §2, §9: asks for a click (max width 400 px) when the browser blocks audio playback, so rings can sound. */
export const AUDIO_DIALOG_MAX_WIDTH = 400

export function AudioPermissionDialog() {
  const [blocked, setBlocked] = useState(false)
  useEffect(() => {
    let live = true
    void audioAllowed().then((allowed) => live && setBlocked(!allowed))
    return () => {
      live = false
    }
  }, [])
  // The click itself is the gesture the browser waits for; playing inside it unlocks audio for the page.
  const allow = () => {
    void audioAllowed()
    setBlocked(false)
  }
  return (
    <Modal open={blocked} onClose={() => setBlocked(false)}>
      <ModalDialog role="alertdialog" aria-labelledby="audio-permission-title" data-testid="audio-permission" sx={{ maxWidth: AUDIO_DIALOG_MAX_WIDTH }}>
        <DialogTitle id="audio-permission-title">
          <VolumeIcon />
          <Trans>Permitir áudio</Trans>
        </DialogTitle>
        <DialogContent>
          <Trans>O navegador bloqueou a reprodução automática de áudio. Clique em Permitir para ouvir as chamadas e os avisos do atendimento.</Trans>
        </DialogContent>
        <DialogActions>
          <Button onClick={allow} data-testid="audio-allow">
            <Trans>Permitir</Trans>
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
