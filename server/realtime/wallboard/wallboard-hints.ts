import type { ServerMessage } from '../../../contract/realtime/service-socket.ts'

// Which frames the bus already carries mean "an agent's row on the wallboard changed": the feed hears them on the
// service socket's own channels (server/bus/channels.ts), so presence code needs no wallboard call of its own. A
// status change reaches the supervisors; a pause, its end, an after-service timeout or a channel sign-in reaches the
// agent. Call steps and chat rooms announce nothing on the bus: the feed's refresh reads them.
const HINTING_ACTIONS: ReadonlySet<ServerMessage['action']> = new Set([
  'agentStatus',
  'pause',
  'startPause',
  'stopPause',
  'afterServiceTimeout',
  'updateUser',
  'dnd',
  'logout',
  // A caller entered or left a telephony queue (the media app): the queue's waiting count changed.
  'queueCallers',
])

export function wallboardHint(message: ServerMessage): boolean {
  return HINTING_ACTIONS.has(message.action)
}
