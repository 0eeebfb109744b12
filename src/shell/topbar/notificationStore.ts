import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { createStore } from '../../app/store.ts'

// Top-bar notifications (titles with a close button). Client-only for now; chat and pause notices join later.
export type AppNotification = { id: string; title: MessageDescriptor | string; createdAt: number }

export const notifications = createStore<AppNotification[]>([
  { id: 'welcome', title: msg`Bem-vindo ao Atende! Suas notificações aparecem aqui.`, createdAt: Date.now() },
])

export function pushNotification(title: MessageDescriptor | string, id = `n-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`) {
  notifications.set((list) => [{ id, title, createdAt: Date.now() }, ...list.filter((n) => n.id !== id)])
}

export function closeNotification(id: string) {
  notifications.set((list) => list.filter((n) => n.id !== id))
}
