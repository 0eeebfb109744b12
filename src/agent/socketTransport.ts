import type { SocketLike } from './types.ts'

// One WebSocket attempt as a callback actor sees it (the service and chat sockets alike): open, close and every JSON
// frame go up as events, `{ message }` commands go down while the socket is open; a frame that is not JSON is dropped.

export type SocketTransportEvent = { type: 'SOCKET_OPEN' } | { type: 'SOCKET_CLOSED' } | { type: 'SOCKET_MESSAGE'; message: unknown }

/** Wires `socket` to a callback actor's `sendBack` / `receive`; answers the cleanup that detaches and closes it. */
export function bindSocket(
  socket: SocketLike,
  sendBack: (event: SocketTransportEvent) => void,
  receive: (listener: (command: { message: unknown }) => void) => void,
): () => void {
  socket.onopen = () => sendBack({ type: 'SOCKET_OPEN' })
  socket.onclose = () => sendBack({ type: 'SOCKET_CLOSED' })
  socket.onmessage = (event) => {
    let message: unknown
    try {
      message = JSON.parse(String(event.data))
    } catch {
      return
    }
    sendBack({ type: 'SOCKET_MESSAGE', message })
  }
  receive((command) => {
    if (socket.readyState === 1) socket.send(JSON.stringify(command.message))
  })
  return () => {
    socket.onopen = socket.onclose = socket.onmessage = socket.onerror = null
    socket.close()
  }
}
