import type { AgentStatusChange } from '../../../contract/realtime/service-socket.ts'

// The coworkers page's live presence: the service socket's agentStatus frames (heard while the page subscribes,
// coworkers_subscribe; supervisors hear them anyway) handed to whoever listens. The serviceSocket slice publishes,
// the page patches its list with each change.

type Listener = (change: AgentStatusChange) => void
const listeners = new Set<Listener>()

export const coworkerPresence = {
  publish(change: AgentStatusChange): void {
    for (const listener of listeners) listener(change)
  },
  listen(listener: Listener): () => void {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  },
}
