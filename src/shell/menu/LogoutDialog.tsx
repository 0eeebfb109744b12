import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { useNavigate } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { useLocale } from '../../app/useLocale.ts'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import { hasLiveCalls, useWebphoneActor } from '../../features/webphone/useWebphone.ts'
import { LogoutIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'

/**
 * 'Você tem certeza que quer deslogar?' (spec 000 §5); confirming opens /logout, which signs out — unless the webphone
 * still holds a call: then the agent goes to /phonecalls and stays signed in (spec 000 §4 Logout).
 */
export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const { params } = useLocale()
  const { i18n } = useLingui()
  const webphone = useWebphoneActor()
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
              if (hasLiveCalls(webphone)) {
                toast(i18n._(msg`Encerre suas chamadas antes de sair.`), 'warning')
                void navigate({ to: '/{-$locale}/phonecalls', params })
                return
              }
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
