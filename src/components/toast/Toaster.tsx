import { lazy, Suspense } from 'react'
import { useStore } from '../../app/store.ts'
import { toasts } from './toastStore.ts'

// The toasts, top-centre just below the 64 px top bar, so they never cover its pause timer, webphone or lock. Their Joy components load with the first toast, not with every page; the live region is
// here from the start, so screen readers announce the first toast too.
const ToastList = lazy(() => import('./ToastList.tsx').then((m) => ({ default: m.ToastList })))

export function Toaster() {
  const list = useStore(toasts)
  return (
    <div
      role="status"
      aria-live="polite"
      style={{
        position: 'fixed',
        top: 72,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 'var(--joy-zIndex-snackbar)',
        width: 'min(92vw, 440px)',
        pointerEvents: 'none',
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
      }}
    >
      {list.length > 0 && (
        <Suspense fallback={null}>
          <ToastList list={list} />
        </Suspense>
      )}
    </div>
  )
}
