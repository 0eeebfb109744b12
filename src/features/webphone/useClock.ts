import { useSyncExternalStore } from 'react'

// One shared one-second clock for the webphone's displayed durations (call timers, the after-service countdown). It
// only redraws: no call or after-service decision hangs on it (the machines own those timers). It ticks only while a
// view that shows a duration is mounted.

const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null
let now = Date.now()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const notify of listeners) notify()
    }, 1000)
  }
  return () => {
    listeners.delete(listener)
    if (!listeners.size && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

// Between ticks (no timer yet) the value refreshes at most once a second, so React sees a stable snapshot.
function read(): number {
  const time = Date.now()
  if (!timer && time - now >= 1000) now = time
  return now
}
const never = () => () => {}

/** Epoch ms, refreshed every second while `running`; the time of the last tick otherwise. */
export function useNow(running = true): number {
  return useSyncExternalStore(running ? subscribe : never, read, read)
}

/** Whole seconds from `from` to `to` (never negative). */
export function elapsedSeconds(from: number | null, to: number): number {
  return from == null ? 0 : Math.max(0, Math.floor((to - from) / 1000))
}

/** Whole seconds left until `deadline`, rounded up so a countdown shows its start value first. */
export function remainingSeconds(deadline: number | null, at: number): number {
  return deadline == null ? 0 : Math.max(0, Math.ceil((deadline - at) / 1000))
}
