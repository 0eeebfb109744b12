import { lazy, Suspense } from 'react'
import { useStore } from '../../app/store.ts'
import { chatSignals } from './chatSignals.ts'

const QueuedChats = lazy(() => import('./QueuedChats.tsx').then((module) => ({ default: module.QueuedChats })))

/** The top bar's queued-chat cards, loaded only once a chat rings (the shell stays light). */
export function QueuedChatsGate() {
  const { ringing } = useStore(chatSignals)
  if (!ringing.length) return null
  return (
    <Suspense fallback={null}>
      <QueuedChats />
    </Suspense>
  )
}
