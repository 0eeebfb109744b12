import { useEffect, useRef, useState } from 'react'
import { BUILDER_RESULTS_FRESH_MS } from '../../../contract/api/builder.ts'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { coworkerPresence } from '../coworkers/coworkerPresence.ts'
import { wallboardStore } from '../dashboards/wallboardStore.ts'

// A builder page's live refresh (issue 19): no polling — the page asks again when the service socket announces a
// change (an agent's status, a call or chat that started or ended, a queue's count), at most once per `wait`.
// Supervisors hear the wallboard feed (its deltas carry every agent's and queue's change); everyone else hears their
// coworkers' agentStatus frames (coworkers_subscribe, the same the coworkers page uses).

/**
 * Calls `run` at most once per `wait` ms: the first change at once (after `delay`), the ones inside the window once at
 * its end. `delay`: how old a result the server may hand out (its shared results, BUILDER_RESULTS_FRESH_MS) — a run
 * waits that long after the change it is for, and a change less than `delay` before a run gets one more run, so the
 * last change is always read by a computation that started after it.
 */
export function throttle(run: () => void, wait: number, now: () => number = Date.now, delay = 0) {
  let last = -Infinity
  let changed = -Infinity
  let timer: ReturnType<typeof setTimeout> | undefined
  const fire = () => {
    timer = undefined
    last = now()
    run()
    if (changed > last - delay) schedule()
  }
  const schedule = () => {
    const left = Math.max(changed + delay, last + wait) - now()
    if (left <= 0) fire()
    else timer = setTimeout(fire, left)
  }
  return {
    call() {
      changed = now()
      if (!timer) schedule()
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
    },
  }
}

export function useLiveRefresh(enabled: boolean, wait: number, refresh: () => void, roles: readonly string[] | undefined): void {
  const system = useAgentSystem()
  // The socket's state, read from its actor once the system runs (it is null on the first render).
  const [connected, setConnected] = useState(false)
  useEffect(() => {
    if (!system) return
    const socket = system.get('serviceSocket')
    const read = () => setConnected(socket.getSnapshot().matches({ connection: { socket: 'connected' } }))
    read()
    const subscription = socket.subscribe(read)
    return () => subscription.unsubscribe()
  }, [system])
  const latest = useRef(refresh)
  latest.current = refresh
  const supervisor = has(roles, PERMISSIONS.viewDashboardSupervisor)
  useEffect(() => {
    if (!enabled || !system || !connected) return
    const throttled = throttle(() => latest.current(), wait, Date.now, BUILDER_RESULTS_FRESH_MS + 250)
    if (supervisor) {
      const actor = system.get('wallboard')
      actor.send({ type: 'WATCH' })
      // The first snapshot after (re)subscribing counts too: what changed while the socket was down is read again.
      const stop = wallboardStore.subscribe(() => throttled.call())
      return () => {
        stop()
        throttled.cancel()
        actor.send({ type: 'UNWATCH' })
      }
    }
    const socket = system.get('serviceSocket')
    socket.send({ type: 'SEND', message: { action: 'coworkers_subscribe' } })
    const stop = coworkerPresence.listen(() => throttled.call())
    return () => {
      stop()
      throttled.cancel()
      socket.send({ type: 'SEND', message: { action: 'coworkers_unsubscribe' } })
    }
  }, [enabled, system, connected, wait, supervisor])
}
