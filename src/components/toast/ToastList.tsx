import Alert from '@mui/joy/Alert'
import IconButton from '@mui/joy/IconButton'
import { CloseIcon } from '../icons/formIcons.tsx'
import { dismissToast } from './toastStore.ts'
import type { Toast } from './toastStore.ts'

/** The toasts themselves, inside the Toaster's live region (loaded with the first toast). */
export function ToastList({ list }: { list: readonly Toast[] }) {
  return list.map((t) => (
    <Alert
      key={t.id}
      variant="solid"
      color={t.color}
      sx={{ pointerEvents: 'auto', boxShadow: 'lg', animation: 'atende-toast-in 160ms ease-out' }}
      endDecorator={
        <IconButton size="sm" variant="solid" color={t.color} onClick={() => dismissToast(t.id)} aria-label="×">
          <CloseIcon />
        </IconButton>
      }
    >
      {t.message}
    </Alert>
  ))
}
