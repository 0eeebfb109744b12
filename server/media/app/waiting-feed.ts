import type { Bus } from '../../bus/bus.ts'
import { pushToSupervisors } from '../../bus/channels.ts'
import type { QueueCaller } from '../../../contract/realtime/queue-callers.ts'
import type { WaitingCaller } from './brain.ts'

// Waiting callers, live for supervisors (contract/realtime/queue-callers.ts): the brain's list of a site's waiting
// callers becomes one `queueCallers` frame to the site's supervisors over the bus (every server instance delivers it
// to the supervisors' service sockets it holds), with each caller's position in its queue.

export function queueCallersOf(waiting: readonly WaitingCaller[]): QueueCaller[] {
  const sorted = [...waiting].sort((a, b) => a.since.localeCompare(b.since) || a.callId.localeCompare(b.callId))
  const positions = new Map<number, number>()
  return sorted.map((w) => {
    const position = (positions.get(w.queueId) ?? 0) + 1
    positions.set(w.queueId, position)
    return { call_id: w.callId, queue: w.queueId, phone: w.phone.slice(0, 64), since: w.since, position }
  })
}

export async function publishQueueCallers(bus: Bus, siteId: number, waiting: readonly WaitingCaller[]): Promise<void> {
  await pushToSupervisors(bus, siteId, { action: 'queueCallers', callers: queueCallersOf(waiting) })
}
