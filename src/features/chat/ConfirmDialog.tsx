import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { useLingui } from '@lingui/react/macro'

/** A yes/no question (spec 001 §4: 'Você tem certeza que deseja encerrar?', 'Deseja reenviar esta mensagem?'). */
export function ConfirmDialog({ text, onYes, onNo, busy = false }: { text: string; onYes: () => void; onNo: () => void; busy?: boolean }) {
  const { t } = useLingui()
  return (
    <Modal open onClose={onNo}>
      <ModalDialog role="alertdialog" sx={{ width: 'min(500px, 94vw)' }} data-testid="confirm-dialog">
        <DialogContent>{text}</DialogContent>
        <DialogActions>
          <Button onClick={onYes} loading={busy} data-testid="confirm-yes">
            {t`Sim`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onNo} data-testid="confirm-no">
            {t`Não`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
