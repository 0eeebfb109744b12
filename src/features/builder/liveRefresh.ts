import { useEffect, useRef, useState } from 'react'
import { has, PERMISSIONS } from '../../../contract/permissions.ts'
import { useAgentSystem } from '../../app/agentSystemContext.tsx'
import { coworkerPresence } from '../coworkers/coworkerPresence.ts'
import { wallboardStore } from '../dashboards/wallboardStore.ts'

// A builder page's live refresh (issue 19): no polling — the page asks again when the service socket announces a
// change (an agent's status, a call or chat that started or ended, a queue's count), at most once per `wait`.
// Supervisors hear the wallboard feed (its deltas carry every agent's and queue's change); everyone else hears their
// coworkers' agentStatus frames (coworkers_subscribe, the same the coworkers page uses).

/** Calls `run` at most once per `wait` ms: the first change at once, the ones inside the window once at its end. */
export function throttle(run: () => void, wait: number, now: () => number = Date.now) {
  let last = -Infinity
  let timer: ReturnType<typeof setTimeout> | undefined
  return {
    call() {
      if (timer) return
      const left = last + wait - now()
      if (left <= 0) {
        last = now()
        run()
        return
      }
      timer = setTimeout(() => {
        timer = undefined
        last = now()
        run()
      }, left)
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
    const throttled = throttle(() => latest.current(), wait)
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
