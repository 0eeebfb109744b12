import { lazy, Suspense, useEffect } from 'react'
import { useAgentSelector } from '../../app/agentSystemContext.tsx'
import { pauseView, samePauseView } from './pauseView.ts'

const loadForm = () => import('./PauseExceededForm.tsx')
const ExceededForm = lazy(() => loadForm().then((m) => ({ default: m.ExceededForm })))

/**
 * The full-screen 'Pausa excedente' (spec 000 §2, §4): a stop answered with code 5 opens it; the justification is
 * sent as `reason` with 'Confirmar'. It stays until the server accepts the stop (or a supervisor ends the pause).
 */
export function PauseExceededDialog() {
  const view = useAgentSelector('pause', pauseView, samePauseView)
  // The form's chunk loads while a pause with a maximum runs, so it is there by the time the pause exceeds.
  const limited = (view.current?.maximumDuration ?? 0) > 0
  useEffect(() => {
    if (limited) void loadForm()
  }, [limited])
  if (view.phase !== 'exceeded') return null
  return (
    <Suspense fallback={null}>
      <ExceededForm submitting={!view.justifying} seconds={view.seconds} pauseId={view.current?.pauseId ?? null} maximum={view.current?.maximumDuration ?? 0} />
    </Suspense>
  )
}
