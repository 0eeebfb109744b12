import { useState } from 'react'
import Alert from '@mui/joy/Alert'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { DeleteIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { deleteRecord, detailQuery, entityQueryKey } from '../api.ts'
import { useText } from '../text.ts'
import { fieldOf, plainValue } from './cells.tsx'

/**
 * The `{id}/delete` page's confirmation (spec 001 §5 'Você realmente quer deletar?'). A protected row answers 400/409
 * with the server's detail, shown here and as a toast; the dialog stays open.
 */
export function DeleteDialog({ entity, id, onClose }: { entity: Entity; id: number; onClose: () => void }) {
  const { t } = useLingui()
  const text = useText()
  const queryClient = useQueryClient()
  const [error, setError] = useState<string>()
  const record = useQuery(detailQuery(entity, id))
  const title = record.data ? plainValue(fieldOf(entity, entity.titleField), record.data, entity.titleField, text) : ''
  const mutation = useMutation({
    mutationFn: () => deleteRecord(entity, id),
    onSuccess: async () => {
      toast.success(t`Registro deletado.`)
      await queryClient.invalidateQueries({ queryKey: entityQueryKey(entity) })
      onClose()
    },
    onError: (e) => {
      setError(e.message)
      toast.error(e.message)
    },
  })
  return (
    <Modal open onClose={onClose}>
      <ModalDialog role="alertdialog" aria-labelledby="delete-title" sx={{ maxWidth: 440 }} data-testid="delete-dialog">
        <DialogTitle id="delete-title">
          <DeleteIcon color="danger" /> {t`Você realmente quer deletar?`}
        </DialogTitle>
        <DialogContent>
          {text(entity.label.singular)} #{id}
          {title ? ` — ${Array.isArray(title) ? title.join(', ') : title}` : ''}
          {error && (
            <Alert color="danger" variant="soft" sx={{ mt: 1.5 }} data-testid="delete-error">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button color="danger" loading={mutation.isPending} onClick={() => mutation.mutate()} data-testid="delete-confirm">
            {t`Deletar`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
