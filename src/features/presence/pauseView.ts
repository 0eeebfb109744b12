import type { SnapshotFrom } from 'xstate'
import type { CurrentPause, pauseMachine } from '../../../machines/pause.machine.ts'
import type { PauseType } from './usePauseTypes.ts'

// What the pause views read from the pause actor: one small object, compared field by field so the widget renders
// once a second (the clock) and when the pause changes, not on every event.

export type PausePhase = 'notPaused' | 'pending' | 'starting' | 'paused' | 'swapping' | 'stopping' | 'exceeded'

export type PauseView = {
  phase: PausePhase
  /** 'Pausa excedente' is waiting for the server's answer to the justification. */
  justifying: boolean
  current: CurrentPause | null
  seconds: number
  pausedBySupervisor: boolean
  requestedPauseId: CurrentPause['pauseId']
}

export function pauseView(snapshot: SnapshotFrom<typeof pauseMachine>): PauseView {
  const value = snapshot.value
  const phase = (typeof value === 'string' ? value : Object.keys(value)[0]) as PausePhase
  const { current, seconds, pausedBySupervisor, requestedPauseId } = snapshot.context
  return { phase, justifying: snapshot.matches({ exceeded: 'justifying' }), current, seconds, pausedBySupervisor, requestedPauseId }
}

export function samePauseView(a: PauseView, b: PauseView): boolean {
  return (
    a.phase === b.phase &&
    a.justifying === b.justifying &&
    a.current === b.current &&
    a.seconds === b.seconds &&
    a.pausedBySupervisor === b.pausedBySupervisor &&
    a.requestedPauseId === b.requestedPauseId
  )
}

/** Past the pause type's maximum (0 or null: no maximum). */
export function isOverMaximum(view: PauseView): boolean {
  const maximum = view.current?.maximumDuration
  return !!maximum && maximum > 0 && view.seconds > maximum
}

/** The name of a pause type: the server's description of the running pause, else the type list's. */
export function pauseName(
  pauseId: CurrentPause['pauseId'],
  types: readonly PauseType[],
  described?: { pause_id: number | null; description: string } | null,
): string | null {
  if (pauseId == null) return null
  if (described && String(described.pause_id) === String(pauseId)) return described.description
  return types.find((type) => String(type.id) === String(pauseId))?.description ?? null
}
