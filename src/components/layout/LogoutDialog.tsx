import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { useNavigate } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { LogoutIcon } from '../icons/icons.tsx'

/** 'Você tem certeza que quer deslogar?' (spec 000 §5); confirming opens /logout, which signs out. */
export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const { params } = useLocale()
  return (
    <Modal open={open} onClose={onClose}>
      <ModalDialog variant="outlined" role="alertdialog" sx={{ maxWidth: 400 }}>
        <DialogTitle>
          <LogoutIcon />
          <Trans>Sair</Trans>
        </DialogTitle>
        <DialogContent>
          <Trans>Você tem certeza que quer deslogar?</Trans>
        </DialogContent>
        <DialogActions>
          <Button
            color="danger"
            data-testid="logout-confirm"
            onClick={() => {
              onClose()
              void navigate({ to: '/{-$locale}/logout', params })
            }}
          >
            <Trans>Sim, sair</Trans>
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            <Trans>Cancelar</Trans>
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
