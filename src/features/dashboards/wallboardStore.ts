import { useSyncExternalStore } from 'react'
import type { WallboardAgent, WallboardDelta, WallboardQueue, WallboardSnapshot } from '../../../contract/realtime/wallboard.ts'
import type { QueueCaller, QueueCallers } from '../../../contract/realtime/queue-callers.ts'

// The wallboard's live data (server state pushed on the service socket): the wallboard actor
// (machines/wallboard.machine.ts) applies each snapshot and delta here, the page reads it with useWallboard(). Kept
// out of the machine on purpose: the machine owns the subscription, this holds what it delivered.

export type WallboardData = {
  agents: ReadonlyMap<number, WallboardAgent>
  queues: ReadonlyMap<string, WallboardQueue>
  /** Callers waiting in telephony queues, by queue id, in their order (the media app's queueCallers frames). */
  callers: ReadonlyMap<number, QueueCaller[]>
  dayStart: string | null
  /** The socket dropped or nobody watches: what is shown may be old. */
  stale: boolean
  /** Nothing received yet. */
  empty: boolean
}

let data: WallboardData = { agents: new Map(), queues: new Map(), callers: new Map(), dayStart: null, stale: true, empty: true }
const listeners = new Set<() => void>()

function publish(next: WallboardData) {
  data = next
  for (const listener of listeners) listener()
}

export const wallboardStore = {
  applySnapshot(frame: WallboardSnapshot) {
    publish({
      agents: new Map(frame.agents.map((agent) => [agent.id, agent])),
      queues: new Map(frame.queues.map((queue) => [queue.key, queue])),
      callers: data.callers,
      dayStart: frame.day_start,
      stale: false,
      empty: false,
    })
  },
  applyDelta(frame: WallboardDelta) {
    const agents = new Map(data.agents)
    for (const agent of frame.agents) agents.set(agent.id, agent)
    for (const id of frame.removed_agents) agents.delete(id)
    const queues = new Map(data.queues)
    for (const queue of frame.queues) queues.set(queue.key, queue)
    for (const key of frame.removed_queues) queues.delete(key)
    publish({ agents, queues, callers: data.callers, dayStart: frame.day_start, stale: false, empty: false })
  },
  applyCallers(frame: QueueCallers) {
    const callers = new Map<number, QueueCaller[]>()
    for (const caller of [...frame.callers].sort((a, b) => a.position - b.position)) callers.set(caller.queue, [...(callers.get(caller.queue) ?? []), caller])
    publish({ ...data, callers })
  },
  markStale() {
    if (!data.stale) publish({ ...data, stale: true })
  },
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
  get: () => data,
}

export function useWallboard(): WallboardData {
  return useSyncExternalStore(wallboardStore.subscribe, wallboardStore.get, wallboardStore.get)
}
