import { TOAST_DURATION_MS } from '../../../contract/constants.ts'
import { createStore } from '../../app/store.ts'

// The one toast system (spec 000 §9): top-centre, each toast hides after TOAST_DURATION_MS (2500 ms).

export type ToastColor = 'success' | 'danger' | 'warning' | 'neutral' | 'primary'
export type Toast = { id: number; message: string; color: ToastColor }

export const toasts = createStore<Toast[]>([])
let nextId = 1

export function dismissToast(id: number) {
  toasts.set((list) => list.filter((t) => t.id !== id))
}

/** Shows a toast; the same message already on screen is not stacked twice. */
export function toast(message: string, color: ToastColor = 'neutral', duration = TOAST_DURATION_MS): number {
  const existing = toasts.get().find((t) => t.message === message)
  if (existing) return existing.id
  const id = nextId++
  toasts.set((list) => [...list, { id, message, color }])
  setTimeout(() => dismissToast(id), duration)
  return id
}

toast.success = (message: string) => toast(message, 'success')
toast.error = (message: string) => toast(message, 'danger')
toast.warning = (message: string) => toast(message, 'warning')
toast.info = (message: string) => toast(message, 'primary')
