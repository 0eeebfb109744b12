import { readServerFrame } from '../../contract/realtime/service-socket.ts'
import type { ParsedServerMessage } from '../../contract/realtime/service-socket.ts'
import { FORWARDED_ACTIONS } from '../../machines/serviceSocket.machine.ts'
import type { ForwardedAction } from '../../machines/serviceSocket.machine.ts'
import type { SocketHandler, SocketHandlers, SocketStep } from './slice.ts'

// The one realtime map of the service socket (after chatwoot's actionCable.js): every server action the socket
// machine forwards (FORWARDED_ACTIONS: the contract's actions but the socket's own) → the handler of the one slice that
// handles it. A frame is read against its action's schema first: a malformed one is logged and dropped; an action the
// contract does not know is ignored (spec 001 §7). The chat socket gets a table of the same shape.

export type ServerActionTable = { [A in ForwardedAction]: SocketHandler<A> }

/** Folds the slices' handlers into one table; an action handled twice, or by nobody, is a wiring error. */
export function serverActionTable(handlers: readonly { slice: string; socket: Partial<SocketHandlers<ForwardedAction>> }[]): ServerActionTable {
  const table: Partial<Record<ForwardedAction, SocketHandler<ForwardedAction>>> = {}
  const owner: Partial<Record<ForwardedAction, string>> = {}
  for (const { slice, socket } of handlers) {
    for (const [action, handler] of Object.entries(socket) as [ForwardedAction, SocketHandler<ForwardedAction>][]) {
      if (owner[action]) throw new Error(`agentSystem: the server action ${action} is handled by both ${owner[action]} and ${slice}`)
      owner[action] = slice
      table[action] = handler
    }
  }
  const missing = FORWARDED_ACTIONS.filter((action) => !table[action])
  if (missing.length) throw new Error(`agentSystem: no slice handles the server actions ${missing.join(', ')}`)
  return table as ServerActionTable
}

/** The steps one forwarded frame turns into; none for a malformed frame (logged) or an unknown action. */
export function routeServerFrame(table: ServerActionTable, frame: unknown, log: (what: string) => void): SocketStep[] {
  const read = readServerFrame(frame)
  if (read.kind === 'invalid') {
    log(`dropped a malformed ${read.action} frame (${read.issues.join('; ')})`)
    return []
  }
  if (read.kind === 'unknown') return []
  const message = read.message
  const handler = table[message.action as ForwardedAction] as SocketHandler<ForwardedAction> | undefined
  return handler ? handler(message as ParsedServerMessage<ForwardedAction>) : []
}
