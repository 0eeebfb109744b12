import Alert from '@mui/joy/Alert'
import IconButton from '@mui/joy/IconButton'
import Stack from '@mui/joy/Stack'
import { useStore } from '../../app/store.ts'
import { CloseIcon } from '../icons/icons.tsx'
import { dismissToast, toasts } from './toastStore.ts'

export function Toaster() {
  const list = useStore(toasts)
  return (
    <Stack
      role="status"
      aria-live="polite"
      spacing={1}
      sx={{ position: 'fixed', top: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 'var(--joy-zIndex-snackbar)', width: 'min(92vw, 440px)', pointerEvents: 'none' }}
    >
      {list.map((t) => (
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
      ))}
    </Stack>
  )
}
