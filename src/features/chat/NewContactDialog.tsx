import { lazy, Suspense, useState } from 'react'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import { useLingui } from '@lingui/react/macro'

const TemplateDialog = lazy(() => import('./TemplateDialog.tsx').then((module) => ({ default: module.TemplateDialog })))

/** New contact (spec 001 §2): a phone, then the template dialog (a phone is required to open it, §5). */
export function NewContactDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui()
  const [phone, setPhone] = useState('')
  const [template, setTemplate] = useState(false)
  const valid = phone.replace(/\D/g, '').length >= 8
  if (template)
    return (
      <Suspense fallback={null}>
        <TemplateDialog phone={phone.trim()} onClose={onClose} />
      </Suspense>
    )
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(500px, 96vw)' }} data-testid="new-contact-dialog">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle>{t`Novo contato`}</DialogTitle>
        <DialogContent>
          <FormControl>
            <FormLabel>{t`Telefone`}</FormLabel>
            <Input
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              placeholder="+55 11 91234-5678"
              autoFocus
              slotProps={{ input: { inputMode: 'tel', 'data-testid': 'new-contact-phone' } }}
            />
          </FormControl>
        </DialogContent>
        <DialogActions>
          <Button disabled={!valid} onClick={() => setTemplate(true)} data-testid="new-contact-template">
            {t`Enviar template`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
