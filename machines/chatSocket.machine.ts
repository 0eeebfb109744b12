import { setup, assign, sendTo, enqueueActions } from 'xstate'
import { CHAT_SERVER_ACTIONS } from '../contract/realtime/chat-socket.ts'
import { missingAction, missingCallback } from './effects.ts'

// Chat socket — the agent's chat feed on /ws/chat/ (spec 001 §7 "Chat socket", §9 "Socket ping every 5 s";
// ARCHITECTURE.md "clients re-sync by cursor after a reconnect"). Modelled after the service socket:
// connecting → connected (check_rooms and count_unread_all_messages on the first open, sync(cursor) after a
// reconnect, ping every 5 s) → disconnected, which reconnects after 1 s, 2 s, 4 s … capped at 30 s (reset by a
// successful open). Received actions the console knows are forwarded; unknown ones only logged (spec 001 §7).
// The cursor is the highest `cursor` (or `revision`) a frame carried, so a reconnect asks only for what was missed.
// The WebSocket is the `connection` callback actor the caller provides (the token travels as a subprotocol).
// Service ownership (spec 001 §4): only the serving tab runs the chat socket; any other tab waits in `standby`.

export const CHAT_PING_INTERVAL_MS = 5000
export const CHAT_RECONNECT_FIRST_MS = 1000
export const CHAT_RECONNECT_MAX_MS = 30_000

/**
 * Frames the console sends (spec 001 §7). Until contract/realtime/chat-socket.ts lands these are the actor's own
 * input types; `sync` carries the last cursor seen.
 */
export type ChatClientFrame =
  | { action: 'ping' }
  | { action: 'server_pong' }
  | { action: 'check_rooms' }
  | { action: 'answer'; step_id: number }
  | { action: 'hangup'; step_id: number }
  | { action: 'read_message'; step_id: number; ids?: number[]; up_to?: number }
  | { action: 'get_message_status'; ids: number[] }
  | { action: 'get_messages'; step_id: number; before?: number; after?: number; limit?: number }
  | { action: 'count_unread_all_messages' }
  | { action: 'sync'; cursor: number }
  | { action: 'typing'; step_id: number }
  | { action: 'watch'; step_id: number }
  | { action: 'unwatch'; step_id: number }

/**
 * Frames the console acts on (spec 001 §7; the fields are contract/realtime/chat-socket.ts's, branch chatsock); anything
 * else is logged and dropped. serverPing is answered here (server_pong); a syncMessages with has_more asks again.
 */
export const CHAT_RECEIVED_ACTIONS = CHAT_SERVER_ACTIONS.filter(
  (action): action is Exclude<(typeof CHAT_SERVER_ACTIONS)[number], 'serverPing'> => action !== 'serverPing',
)
export type ChatReceivedAction = (typeof CHAT_RECEIVED_ACTIONS)[number]
export type ChatServerFrame = { action: ChatReceivedAction; [field: string]: unknown }

export type ChatTransportCommand = { type: 'send'; message: ChatClientFrame }

export type ChatSocketEvent =
  | { type: 'SOCKET_OPEN' }
  | { type: 'SOCKET_CLOSED' }
  | { type: 'SOCKET_MESSAGE'; message: unknown }
  | { type: 'SEND'; message: ChatClientFrame }
  | { type: 'SERVING_CHANGED'; serving: boolean } // this tab owns the service (tab ownership)
  | { type: 'CLOSE' }

export type ChatSocketContext = { retryDelay: number; everConnected: boolean; cursor: number; serving: boolean }
export type ChatSocketInput = { cursor?: number; serving?: boolean }

export function chatActionOf(message: unknown): string | null {
  if (!message || typeof message !== 'object') return null
  const action = (message as { action?: unknown }).action
  return typeof action === 'string' ? action : null
}

export function isChatReceivedAction(action: string | null): action is ChatReceivedAction {
  return !!action && (CHAT_RECEIVED_ACTIONS as readonly string[]).includes(action)
}

/** The cursor a frame carries: its `cursor`, else its `revision`, else the highest revision of its rows. */
export function frameCursor(message: unknown): number | null {
  if (!message || typeof message !== 'object') return null
  const frame = message as Record<string, unknown>
  if (typeof frame.cursor === 'number') return frame.cursor
  let best: number | null = null
  const visit = (row: unknown) => {
    if (row && typeof row === 'object' && typeof (row as { revision?: unknown }).revision === 'number') {
      const revision = (row as { revision: number }).revision
      if (best === null || revision > best) best = revision
    }
  }
  for (const key of ['data', 'chat', 'message', 'room']) visit(frame[key])
  for (const key of ['data', 'rooms', 'chats', 'messages', 'results']) if (Array.isArray(frame[key])) (frame[key] as unknown[]).forEach(visit)
  return best
}

export function nextChatRetryDelay(delay: number): number {
  return Math.min(delay * 2, CHAT_RECONNECT_MAX_MS)
}

export const chatSocketMachine = setup({
  types: {
    context: {} as ChatSocketContext,
    events: {} as ChatSocketEvent,
    input: {} as ChatSocketInput,
  },
  actors: {
    connection: missingCallback<ChatTransportCommand, void>('chatSocket', 'connection'),
  },
  actions: {
    sendSocket: sendTo('connection', (_, message: ChatClientFrame): ChatTransportCommand => ({ type: 'send', message })),
    /** A known frame for the caller (rooms, messages, statuses). */
    forward: missingAction<ChatServerFrame>('chatSocket', 'forward'),
    /** An unknown action: only logged (spec 001 §7). */
    logUnknown: missingAction<unknown>('chatSocket', 'logUnknown'),
  },
  delays: {
    pingInterval: CHAT_PING_INTERVAL_MS,
    reconnect: ({ context }) => context.retryDelay,
  },
  guards: {
    serving: ({ event }) => event.type === 'SERVING_CHANGED' && event.serving,
    notServing: ({ event }) => event.type === 'SERVING_CHANGED' && !event.serving,
    startsServing: (_, params: { serving: boolean }) => params.serving,
    isServerPing: ({ event }) => event.type === 'SOCKET_MESSAGE' && chatActionOf(event.message) === 'serverPing',
    syncHasMore: ({ event }) =>
      event.type === 'SOCKET_MESSAGE' && chatActionOf(event.message) === 'syncMessages' && (event.message as { has_more?: unknown }).has_more === true,
    isKnown: ({ event }) => event.type === 'SOCKET_MESSAGE' && isChatReceivedAction(chatActionOf(event.message)),
  },
}).createMachine({
  id: 'chatSocket',
  context: ({ input }) => ({ retryDelay: CHAT_RECONNECT_FIRST_MS, everConnected: false, cursor: input.cursor ?? 0, serving: input.serving ?? true }),
  initial: 'starting',
  on: { CLOSE: '.closed', SERVING_CHANGED: { guard: 'notServing', target: '.standby' } },
  states: {
    starting: {
      always: [{ guard: { type: 'startsServing', params: ({ context }) => ({ serving: context.serving }) }, target: 'socket' }, { target: 'standby' }],
    },
    // Another tab serves: no socket here.
    standby: {
      on: { SERVING_CHANGED: { guard: 'serving', target: 'socket' } },
    },
    socket: {
      invoke: { id: 'connection', src: 'connection' },
      on: { SOCKET_CLOSED: 'disconnected' },
      initial: 'connecting',
      states: {
        connecting: {
          on: {
            SOCKET_OPEN: {
              target: 'connected',
              actions: enqueueActions(({ context, enqueue }) => {
                // First open: the whole picture; after a reconnect: what changed since the last cursor seen.
                if (context.everConnected && context.cursor > 0) enqueue({ type: 'sendSocket', params: { action: 'sync', cursor: context.cursor } })
                else enqueue({ type: 'sendSocket', params: { action: 'check_rooms' } })
                enqueue({ type: 'sendSocket', params: { action: 'count_unread_all_messages' } })
                enqueue.assign({ retryDelay: CHAT_RECONNECT_FIRST_MS, everConnected: true })
              }),
            },
          },
        },
        connected: {
          after: {
            pingInterval: { target: 'connected', reenter: true, actions: { type: 'sendSocket', params: { action: 'ping' } } },
          },
          on: {
            SOCKET_MESSAGE: [
              { guard: 'isServerPing', actions: { type: 'sendSocket', params: { action: 'server_pong' } } },
              {
                // A sync answered in pages: fold this one, then ask for the next from the new cursor.
                guard: 'syncHasMore',
                actions: [
                  assign({ cursor: ({ context, event }) => Math.max(context.cursor, frameCursor(event.message) ?? 0) }),
                  { type: 'forward', params: ({ event }) => event.message as ChatServerFrame },
                  { type: 'sendSocket', params: ({ context }) => ({ action: 'sync', cursor: context.cursor }) },
                ],
              },
              {
                guard: 'isKnown',
                actions: [
                  assign({ cursor: ({ context, event }) => Math.max(context.cursor, frameCursor(event.message) ?? 0) }),
                  { type: 'forward', params: ({ event }) => event.message as ChatServerFrame },
                ],
              },
              { actions: { type: 'logUnknown', params: ({ event }: { event: ChatSocketEvent }) => (event.type === 'SOCKET_MESSAGE' ? event.message : null) } },
            ],
            SEND: { actions: { type: 'sendSocket', params: ({ event }) => event.message } },
          },
        },
      },
    },
    // Frames sent meanwhile are dropped: the rooms re-send what they need after the re-sync.
    disconnected: {
      after: {
        reconnect: { target: 'socket', actions: assign({ retryDelay: ({ context }) => nextChatRetryDelay(context.retryDelay) }) },
      },
    },
    closed: { type: 'final' },
  },
})
