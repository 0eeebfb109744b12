import Button from '@mui/joy/Button'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Table from '@mui/joy/Table'
import { useLingui } from '@lingui/react/macro'
import type { ChatContact } from '../../../contract/api/chat.ts'
import { PhoneIcon } from '../../components/icons/icons.tsx'

/** A photo or video at 800 px (spec 001 §2 "a click opens a preview dialog of 800 px"). */
export function MediaPreviewDialog({ media, onClose }: { media: { url: string; type: 'photo' | 'video' }; onClose: () => void }) {
  const { t } = useLingui()
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(800px, 96vw)', p: 1 }} data-testid="media-preview">
        <ModalClose aria-label={t`Fechar`} />
        <DialogContent sx={{ alignItems: 'center', pt: 4 }}>
          {media.type === 'photo' ? (
            <img src={media.url} alt={t`Imagem`} style={{ maxWidth: '100%', maxHeight: '80vh' }} />
          ) : (
            <video src={media.url} controls autoPlay style={{ maxWidth: '100%', maxHeight: '80vh' }} />
          )}
        </DialogContent>
      </ModalDialog>
    </Modal>
  )
}

/** The contact card's table: Client Id, Nome, Telefone (spec 001 §2); a call from it opens /phonecalls. */
export function ContactsDialog({ contacts, onCall, onClose }: { contacts: ChatContact[]; onCall?: (phone: string) => void; onClose: () => void }) {
  const { t } = useLingui()
  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(500px, 96vw)' }} data-testid="contacts-dialog">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle>{t`Contato`}</DialogTitle>
        <DialogContent>
          <Table size="sm">
            <thead>
              <tr>
                <th>Client Id</th>
                <th>{t`Nome`}</th>
                <th>{t`Telefone`}</th>
                {onCall && <th aria-label={t`Ligar`} style={{ width: 48 }} />}
              </tr>
            </thead>
            <tbody>
              {contacts.map((contact, index) => (
                <tr key={index}>
                  <td>{contact.client_id ?? '—'}</td>
                  <td>{contact.full_name}</td>
                  <td>{contact.phone}</td>
                  {onCall && (
                    <td>
                      <Button size="sm" variant="plain" aria-label={t`Ligar`} onClick={() => onCall(contact.phone)}>
                        <PhoneIcon />
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        </DialogContent>
      </ModalDialog>
    </Modal>
  )
}
